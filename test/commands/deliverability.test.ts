/**
 * `agency deliverability` against the sandbox: one row per client from GET /v2/agency/deliverability
 * (pages of 50), the rates of the contract, zero rows for named clients with no activity, dates
 * checked before any request, the older paging names, and a targeted run that reads only what it needs.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { groupDigits } from '../../src/output/text.js';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import type { Harness } from '../helpers/cli.js';
import { directAllPages, expectUsageError, lines, sent, startCoreHarness } from '../helpers/core.js';
import { plain, runOnTerminal } from '../helpers/terminal-run.js';

const IN_PROCESS = { inProcess: true };
const PATH = '/v2/agency/deliverability';

interface Pair {
  current_period: number;
  previous_period: number;
}
interface Item {
  id: number;
  name: string;
  emails_sent: Pair;
  delivered_emails: Pair;
  views: Pair;
  replies: Pair;
  bounces: Pair;
}
const RATE_FIELDS = [
  'reply_rate',
  'bounce_rate',
  'reply_rate_previous',
  'bounce_rate_previous',
  'reply_rate_change',
  'bounce_rate_change',
] as const;

describe('deliverability', () => {
  let h: Harness;
  let listing: Item[];
  beforeAll(async () => {
    h = await startCoreHarness({}, IN_PROCESS);
    listing = (await directAllPages(h.sandbox, `${PATH}?per_page=50`)) as Item[];
  });
  afterAll(() => h.close());
  beforeEach(() => h.sandbox.reset());

  const active = () => h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true });
  const listed = (id: number) => listing.some((item) => item.id === id);
  const pct = (top: number, bottom: number) => `${((top / bottom) * 100).toFixed(1)}%`;
  const requests = () => sent(h.sandbox).map((q) => `${q.path}?${new URLSearchParams(q.query)}`);

  it('without targets: the clients the service lists, 9 fields, rates as numbers from 0 to 1; pages of 50', async () => {
    const r = await h.run(['deliverability']);
    expect(r.code, r.stderr).toBe(0);
    const rows = lines(r.stdout).map((line) => line.split('\t'));
    expect(rows.map((row) => Number(row[0]))).toEqual(listing.map((item) => item.id));
    const [first] = listing;
    if (!first) throw new Error('empty listing');
    expect(rows[0]).toEqual([
      String(first.id),
      first.name,
      String(first.emails_sent.current_period),
      String(first.delivered_emails.current_period),
      String(first.views.current_period),
      String(first.replies.current_period),
      String(first.bounces.current_period),
      // A spreadsheet gets the number, not "7.8%" (a table shows the percentage).
      String(first.replies.current_period / first.delivered_emails.current_period),
      String(first.bounces.current_period / first.emails_sent.current_period),
    ]);
    const pages = Math.ceil(listing.length / 50);
    expect(requests()).toEqual(Array.from({ length: pages }, (_, i) => `${PATH}?page=${i + 1}&per_page=50`));
  });

  it("--json keeps the service's {current_period, previous_period} pairs and adds the rates as 0..1", async () => {
    const r = await h.run(['deliverability', '--json', '--from', '2026-05-01', '--to', '2026-05-31']);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as (Item & Record<(typeof RATE_FIELDS)[number], number>)[];
    const month = (await directAllPages(
      h.sandbox,
      `${PATH}?per_page=50&from=2026-05-01&to=2026-05-31`,
    )) as Item[];
    const withoutRates = (row: object) =>
      Object.fromEntries(
        Object.entries(row).filter(([key]) => !(RATE_FIELDS as readonly string[]).includes(key)),
      );
    expect(rows.map(withoutRates)).toEqual(month);
    for (const row of rows) {
      expect(row.bounce_rate).toBe(row.bounces.current_period / row.emails_sent.current_period);
      expect(row.reply_rate).toBe(row.replies.current_period / row.delivered_emails.current_period);
      expect(row.bounce_rate_previous).toBe(row.bounces.previous_period / row.emails_sent.previous_period);
      expect(row.reply_rate_previous).toBe(
        row.replies.previous_period / row.delivered_emails.previous_period,
      );
      expect(row.reply_rate_change).toBe(row.reply_rate - row.reply_rate_previous);
      expect(row.bounce_rate_change).toBe(row.bounce_rate - row.bounce_rate_previous);
    }
    expect(sent(h.sandbox)[0]?.query).toMatchObject({ from: '2026-05-01', to: '2026-05-31' });
  });

  it('a named client with no activity is a row of zeros (rates null); only the pages needed are read', async () => {
    const quiet = active().find((c) => !listed(c.id));
    const busy = active().find((c) => listed(c.id));
    if (!quiet || !busy) throw new Error('seed has no quiet or no busy client');
    const r = await h.run([
      'deliverability',
      '--company',
      String(busy.id),
      '--company',
      String(quiet.id),
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout);
    expect(rows.map((row: Item) => [row.id, row.name])).toEqual([
      [busy.id, busy.name],
      [quiet.id, quiet.name],
    ]);
    const zero = { current_period: 0, previous_period: 0 };
    expect(rows[1]).toEqual({
      id: quiet.id,
      name: quiet.name,
      emails_sent: zero,
      delivered_emails: zero,
      views: zero,
      replies: zero,
      bounces: zero,
      reply_rate: null,
      bounce_rate: null,
      reply_rate_previous: null,
      bounce_rate_previous: null,
      reply_rate_change: null,
      bounce_rate_change: null,
    });
    // The quiet client is not in the listing: all of it was read, then the company list only up to
    // the page that names it.
    const companyPages = sent(h.sandbox).filter((q) => q.path === '/v2/agency/companies');
    expect(companyPages.map((q) => q.query.page)).toEqual(['1']);
  });

  it('a client the listing names costs one listing page and no company list', async () => {
    const [first] = listing;
    if (!first) throw new Error('empty listing');
    const r = await h.run(['deliverability', '--company', String(first.id)]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toHaveLength(1);
    expect(requests()).toEqual([`${PATH}?page=1&per_page=50`]);
  });

  it('--all: every active client, quiet ones as zeros, no inactive one', async () => {
    const r = await h.run(['deliverability', '--all']);
    expect(r.code, r.stderr).toBe(0);
    const rows = lines(r.stdout).map((line) => line.split('\t'));
    expect(rows.map((row) => Number(row[0]))).toEqual(active().map((c) => c.id));
    const quiet = rows.filter((row) => !listed(Number(row[0])));
    expect(quiet.length).toBeGreaterThan(0);
    for (const row of quiet) expect(row.slice(2)).toEqual(['0', '0', '0', '0', '0', '', '']);
  });

  it('--limit N: the first N clients of the listing, and no page beyond them', async () => {
    expect(listing.length).toBeGreaterThan(50);
    const three = await h.run(['deliverability', '--limit', '3']);
    expect(three.code, three.stderr).toBe(0);
    expect(lines(three.stdout).map((line) => Number(line.split('\t')[0]))).toEqual(
      listing.slice(0, 3).map((item) => item.id),
    );
    expect(requests()).toEqual([`${PATH}?page=1&per_page=50`]);

    h.sandbox.reset();
    const more = await h.run(['deliverability', '--limit', '50', '--json']);
    expect(JSON.parse(more.stdout).map((row: Item) => row.id)).toEqual(listing.slice(0, 50).map((i) => i.id));
    expect(requests()).toEqual([`${PATH}?page=1&per_page=50`]);
  });

  it('--limit N with targets: the first N of them; --all reads one page of companies', async () => {
    const r = await h.run(['deliverability', '--all', '--limit', '2']);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout).map((line) => Number(line.split('\t')[0]))).toEqual(
      active()
        .slice(0, 2)
        .map((c) => c.id),
    );
    const companyPages = sent(h.sandbox).filter((q) => q.path === '/v2/agency/companies');
    expect(companyPages.map((q) => [q.query.page, q.query.active])).toEqual([['1', 'true']]);

    h.sandbox.reset();
    const [a, b, c] = listing;
    const named = await h.run([
      'deliverability',
      '--limit',
      '2',
      ...[a, b, c].flatMap((item) => ['--company', String(item?.id)]),
    ]);
    expect(lines(named.stdout).map((line) => Number(line.split('\t')[0]))).toEqual([a?.id, b?.id]);
  });

  it.each([
    [['--limit', '0'], /--limit/],
    [['--limit', 'ten'], /--limit/],
    [['--from', '2026-5-1'], /--from must be a date as YYYY-MM-DD/],
    // A day the calendar lacks is not rolled over to March: it is not a date.
    [['--to', '2026-02-30'], /^error: --to 2026-02-30 is not a date: February 2026 has 28 days\.$/m],
    [['--from', '2024-02-30'], /^error: --from 2024-02-30 is not a date: February 2024 has 29 days\.$/m],
    [['--from', '2026-04-31'], /--from 2026-04-31 is not a date: April 2026 has 30 days/],
    [['--from', '2026-13-01'], /--from 2026-13-01 is not a date: there is no month 13/],
    [['--from', '2026-05-00'], /--from 2026-05-00 is not a date: May 2026 has 31 days/],
    [['--from', '2026-05-10', '--to', '2026-05-01'], /--from 2026-05-10 is after --to 2026-05-01/],
    [['--from', '2999-01-01'], /--from 2999-01-01 is in the future/],
    [['--company', '0'], /Invalid company id/],
    [['--company', '1001', '--all'], /cannot be added/],
  ])('%j is a usage error: exit 2, nothing sent', async (args, message) => {
    expectUsageError(await h.run(['deliverability', ...args]), h.sandbox, message);
  });

  it('an id outside the agency is exit 4, naming it', async () => {
    const r = await h.run(['deliverability', '--company', '999999']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('No company with id 999999 in this agency.');
  });

  it('on a terminal: a table with the change against the previous period; it gives way when narrow', async () => {
    const wide = await runOnTerminal(h, ['deliverability', '--company', String(listing[0]?.id)], {
      columns: 160,
    });
    expect(wide.code, wide.stderr).toBe(0);
    const text = plain(wide.stdout);
    expect(text).toMatch(
      /ID\s+NAME\s+SENT\s+SENT ±\s+DELIVERED\s+OPENED\s+REPLIED\s+REPLIED ±\s+BOUNCED\s+BOUNCED ±\s+REPLY %\s+BOUNCE %/,
    );
    const first = listing[0] as Item;
    // A change is this period's count minus the previous one's, with its sign; rates as percentages;
    // counts with their thousands grouped, as a person reads them.
    const signed = (pair: Pair) => {
      const change = pair.current_period - pair.previous_period;
      return change > 0 ? `+${groupDigits(change)}` : groupDigits(change);
    };
    const cells = text
      .split('\n')[1]
      ?.trim()
      .split(/\s{2,}/);
    expect(cells?.slice(2)).toEqual([
      groupDigits(first.emails_sent.current_period),
      signed(first.emails_sent),
      groupDigits(first.delivered_emails.current_period),
      groupDigits(first.views.current_period),
      groupDigits(first.replies.current_period),
      signed(first.replies),
      groupDigits(first.bounces.current_period),
      signed(first.bounces),
      pct(first.replies.current_period, first.delivered_emails.current_period),
      pct(first.bounces.current_period, first.emails_sent.current_period),
    ]);
    const narrow = await runOnTerminal(h, ['deliverability', '--company', String(first.id)], { columns: 50 });
    expect(plain(narrow.stdout)).not.toContain('±');
    expect(plain(narrow.stdout)).toMatch(/ID\s+NAME\s+SENT/);
    expect(plain(narrow.stderr)).toMatch(/columns hidden \(.*sent_change/);
  });

  it('--columns offers each previous value and change (this period minus the previous): numbers in CSV, signed percentages in a table', async () => {
    const first = listing.find(
      (item) => item.replies.current_period !== item.replies.previous_period,
    ) as Item;
    const id = String(first.id);
    const wanted = [
      'id',
      'sent_previous',
      'sent_change',
      'replied_previous',
      'replied_change',
      'reply_rate_previous',
      'reply_rate_change',
      'bounce_rate_previous',
      'bounce_rate_change',
    ];
    const r = await h.run(['deliverability', '--company', id, '--csv', '--columns', wanted.join(',')]);
    expect(r.code, r.stderr).toBe(0);
    const rate = (top: Pair, bottom: Pair) => [
      top.current_period / bottom.current_period,
      top.previous_period / bottom.previous_period,
    ];
    const [reply = 0, replyBefore = 0] = rate(first.replies, first.delivered_emails);
    const [bounce = 0, bounceBefore = 0] = rate(first.bounces, first.emails_sent);
    expect(r.stdout.split('\r\n').slice(0, 2)).toEqual([
      wanted.join(','),
      [
        id,
        first.emails_sent.previous_period,
        first.emails_sent.current_period - first.emails_sent.previous_period,
        first.replies.previous_period,
        first.replies.current_period - first.replies.previous_period,
        replyBefore,
        reply - replyBefore,
        bounceBefore,
        bounce - bounceBefore,
      ].join(','),
    ]);
    // Without --columns, TSV keeps its 9 fields.
    const piped = await h.run(['deliverability', '--company', id]);
    expect(piped.stdout.trim().split('\t')).toHaveLength(9);
    // A table shows the rates as percentages and their change with its sign.
    const table = await runOnTerminal(
      h,
      ['deliverability', '--company', id, '--columns', 'id,reply_rate,reply_rate_previous,reply_rate_change'],
      { columns: 160 },
    );
    const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
    const change = reply - replyBefore;
    expect(
      plain(table.stdout)
        .split('\n')[1]
        ?.trim()
        .split(/\s{2,}/),
    ).toEqual([id, pct(reply), pct(replyBefore), `${change > 0 ? '+' : ''}${pct(change)}`]);
  });

  it('on a terminal, stderr names the days of the period and of the one it is compared with; --json and piped rows do not change', async () => {
    const id = String(listing[0]?.id);
    const march = ['deliverability', '--company', id, '--from', '2024-03-01', '--to', '2024-03-31'];
    const asked = await runOnTerminal(h, march);
    expect(asked.code, asked.stderr).toBe(0);
    // 31 days, so the 31 before them: across a leap February.
    expect(plain(asked.stderr)).toContain(
      '2024-03-01 to 2024-03-31, compared with 2024-01-30 to 2024-02-29.',
    );

    const byDefault = await runOnTerminal(h, ['deliverability', '--company', id]);
    const match = /^(\S+) to (\S+) \(the last 30 days\), compared with (\S+) to (\S+)\.$/m.exec(
      plain(byDefault.stderr),
    );
    if (!match) throw new Error(`no period line in:\n${byDefault.stderr}`);
    const [from, to, beforeFrom, beforeTo] = match.slice(1).map((d) => Date.parse(`${d}T00:00:00Z`)) as [
      number,
      number,
      number,
      number,
    ];
    const now = new Date();
    expect(to).toBe(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()));
    const days = (n: number) => n * 86_400_000;
    expect([to - from, from - beforeTo, beforeTo - beforeFrom]).toEqual([days(29), days(1), days(29)]);

    const piped = await h.run(march);
    expect(piped.stderr).not.toContain('compared with');
    const json = await runOnTerminal(h, ['deliverability', '--company', id, '--json']);
    expect(Array.isArray(JSON.parse(json.stdout))).toBe(true);
    expect(json.stderr).not.toContain('compared with');
  });
});

describe('deliverability against the docs-mode sandbox (older paging names)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startCoreHarness({ docsMode: true }, IN_PROCESS);
  });
  afterAll(() => h.close());

  it('reads total_count / pages_count and follows every page', async () => {
    const r = await h.run(['deliverability', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const pages = sent(h.sandbox).filter((q) => q.path === PATH);
    expect(pages.length).toBeGreaterThan(1);
    const first = (await fetch(`${h.sandbox.baseUrl}${PATH}?per_page=50`, {
      headers: { 'x-api-key': h.sandbox.hqKey },
    }).then((res) => res.json())) as { pagination_data: { total_count: number; pages_count: number } };
    expect(pages).toHaveLength(first.pagination_data.pages_count);
    expect(JSON.parse(r.stdout)).toHaveLength(first.pagination_data.total_count);
  });
});
