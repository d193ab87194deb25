/**
 * `agency health` against the sandbox: every check makes the sandbox produce its problem and sees the
 * row, the exit code and the JSON; rows sorted by severity then client; --fail-on and exit 7;
 * `unreadable` for a client whose reads fail; inactive clients not checked; a targeted run reads only
 * its targets (no company list when the deliverability listing names them).
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { campaignsOf } from '../../src/sandbox/resources/campaigns.js';
import { deliverabilityOf } from '../../src/sandbox/seed/deliverability.js';
import { type Harness, jsonError } from '../helpers/cli.js';
import { directAllPages, expectUsageError, lines, sent, startCoreHarness } from '../helpers/core.js';
import { readOnce } from '../helpers/read-once.js';
import { testDir } from '../helpers/temp-dir.js';
import { plain, runOnTerminal } from '../helpers/terminal-run.js';

/** YYYY-MM-DD on this machine's calendar. */
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
/** A name as the page writes it. */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The service's default window as dates: the 30 days up to today. */
function lastThirtyDays(): { from: string; to: string } {
  const now = new Date();
  return {
    from: localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 29)),
    to: localDay(now),
  };
}

const IN_PROCESS = { inProcess: true };
/** How long the company list's pages are held in the run without targets. */
const HELD_MS = 1500;
const SEVERITIES = ['critical', 'warning', 'info'];

interface Problem {
  company_id: number;
  name: string;
  severity: string;
  check: string;
  detail: string;
}
interface Pair {
  current_period: number;
  previous_period: number;
}
interface Listed {
  id: number;
  emails_sent: Pair;
  delivered_emails: Pair;
  replies: Pair;
  bounces: Pair;
}
interface Entry {
  type: string;
  details: { email: string; error: string | null; in_slot?: boolean };
}
interface Survey {
  id: number;
  mailboxes: Entry[];
  campaigns: { status: string; error: string | null }[];
  webhooks: number;
  listed: Listed | undefined;
}

describe('health', () => {
  let h: Harness;
  let survey: Survey[];
  beforeAll(async () => {
    // 58 companies: the fewest with two pages of active ones (51), for the run without targets below.
    h = await startCoreHarness({ seed: { companies: 58 } }, IN_PROCESS);
    // What the sandbox holds, read straight from its store (what its routes answer with): the truth
    // each check is compared with. The listing is the service's default window, the last 30 days.
    const store = h.sandbox.store;
    survey = store.companies(MAIN_AGENCY_ID, { active: true }).map((c) => {
      const client = {
        level: 'client' as const,
        account: `company:${c.id}`,
        agency: store.mainAgency,
        company: c,
      };
      return {
        id: c.id,
        mailboxes: store.mailboxes(client) as Entry[],
        campaigns: campaignsOf(client),
        webhooks: store.webhooks(client).webhooks.length,
        listed: deliverabilityOf(c.id, c.name, 30) as Listed | undefined,
      };
    });
  });
  afterAll(() => h.close());
  beforeEach(() => h.sandbox.reset());

  const rate = (top: number, bottom: number) => (bottom > 0 ? top / bottom : 0);
  const bounce = (s: Survey) =>
    s.listed ? rate(s.listed.bounces.current_period, s.listed.emails_sent.current_period) : 0;
  const replyRates = (s: Survey) =>
    s.listed
      ? [
          rate(s.listed.replies.current_period, s.listed.delivered_emails.current_period),
          rate(s.listed.replies.previous_period, s.listed.delivered_emails.previous_period),
        ]
      : [0, 0];
  /** A client with the problem, found in the sandbox's own answers. */
  const CASES: [check: string, severity: string, has: (s: Survey) => boolean, detail: RegExp][] = [
    [
      'mailbox_error',
      'critical',
      (s) => s.mailboxes.some((m) => /failed|timed out/.test(m.details.error ?? '')),
      /failed|timed out/,
    ],
    [
      'mailbox_warning',
      'warning',
      (s) => s.mailboxes.some((m) => m.details.error === 'Connected conditionally.'),
      /: Connected conditionally\.$/,
    ],
    [
      'mailbox_not_in_slot',
      'warning',
      (s) => s.mailboxes.some((m) => m.details.in_slot === false),
      /is not in a slot/,
    ],
    [
      'bounce_rate',
      'warning',
      (s) => bounce(s) >= 0.02 && bounce(s) < 0.05,
      /^bounce rate \d+\.\d% .*at or above 2\.0%$/,
    ],
    ['bounce_rate', 'critical', (s) => bounce(s) >= 0.05, /^bounce rate \d+\.\d% .*at or above 5\.0%$/],
    ['campaign_error', 'critical', (s) => s.campaigns.some((c) => c.error), /^campaign \d+ ".+": /],
    [
      'reply_rate_drop',
      'warning',
      (s) => {
        const [now = 0, before = 0] = replyRates(s);
        return before > 0 && now <= before / 2;
      },
      /^reply rate \d+\.\d%, down from \d+\.\d%/,
    ],
    ['no_running_campaign', 'info', (s) => !s.campaigns.some((c) => c.status === 'RUNNING'), /campaign/],
    ['no_webhook', 'info', (s) => s.webhooks === 0, /^no webhook subscription$/],
  ];

  it('a fresh sandbox has every kind of problem: exit 7, piped rows by client (as checked)', async () => {
    const r = await h.run(['health']);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/^\d+ critical, \d+ warnings?, \d+ info across \d+ clients\.$/m);
    // Exit 7 is the report's verdict, not a failure: a summary line under the counts, never "error:".
    expect(r.stderr).toMatch(
      / across \d+ clients\.\n\d+ problems? at or above critical \(--fail-on critical\)\.\n$/,
    );
    expect(r.stderr).not.toContain('error');
    const rows = lines(r.stdout).map((line) => line.split('\t'));
    for (const row of rows) expect(row).toHaveLength(5);
    const kinds = new Set(rows.map((row) => `${row[3]}/${row[2]}`));
    for (const [check, severity] of CASES) expect(kinds).toContain(`${check}/${severity}`);
    const order = survey.map((s) => s.id);
    // Piped rows stream: each client's as soon as it is checked, so by client, then by severity.
    const keys = rows.map((row) => [order.indexOf(Number(row[0])), SEVERITIES.indexOf(row[2] ?? '')]);
    const sorted = [...keys].sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0) || (a[1] ?? 0) - (b[1] ?? 0));
    expect(keys).toEqual(sorted);
  });

  /**
   * `health --company <id> --json --fail-on info`, run once per client: the cases below ask it of the
   * same few clients, and nothing these tests do changes what a client holds.
   */
  const once = readOnce();
  const checkOne = (id: number) =>
    once(String(id), () => h.run(['health', '--company', String(id), '--json', '--fail-on', 'info']));

  it.each(CASES)(
    '%s (%s): the sandbox produces it, health reports it',
    async (check, severity, has, detail) => {
      const client = survey.find(has);
      if (!client) throw new Error(`the seed has no client for ${check}/${severity}`);
      const r = await checkOne(client.id);
      const report = JSON.parse(r.stdout) as {
        period: unknown;
        companies_checked: number;
        problems: Problem[];
      };
      expect(Object.keys(report)).toEqual(['period', 'companies_checked', 'problems']);
      expect(report.period).toEqual(lastThirtyDays());
      expect(report.companies_checked).toBe(1);
      const found = report.problems.filter((p) => p.check === check && p.severity === severity);
      expect(found.length, JSON.stringify(report.problems)).toBeGreaterThan(0);
      for (const p of found) {
        expect(p.company_id).toBe(client.id);
        expect(p.detail).toMatch(detail);
      }
      expect(r.code).toBe(7);
      // With --json too, exit 7 writes no {"error": …} object: nothing failed.
      expect(r.stderr).not.toContain('"error"');
      const healthy = survey.find((s) => !has(s));
      if (healthy) {
        const other = await checkOne(healthy.id);
        const problems = (JSON.parse(other.stdout) as { problems: Problem[] }).problems;
        expect(problems.filter((p) => p.check === check && p.severity === severity)).toEqual([]);
      }
    },
  );

  it('--fail-on: exit 7 only at or above the given severity; the report is printed either way', async () => {
    const onlyInfo = survey.find(
      (s) =>
        s.webhooks === 0 &&
        !s.mailboxes.some((m) => m.details.error || m.details.in_slot === false) &&
        !s.campaigns.some((c) => c.error) &&
        bounce(s) < 0.02 &&
        (() => {
          const [now = 0, before = 0] = replyRates(s);
          return !(before > 0 && now <= before / 2);
        })(),
    );
    if (!onlyInfo) throw new Error('the seed has no client with info problems only');
    const run = (failOn: string) => h.run(['health', '--company', String(onlyInfo.id), '--fail-on', failOn]);
    const critical = await run('critical');
    expect(critical.code, critical.stderr).toBe(0);
    expect(critical.stdout).toMatch(/\tinfo\tno_webhook\tno webhook subscription\n/);
    expect((await run('warning')).code).toBe(0);
    const info = await run('info');
    expect(info.code).toBe(7);
    expect(info.stdout).toBe(critical.stdout);
    const upper = await run('INFO');
    expect(upper.code, upper.stderr).toBe(7);
    h.sandbox.reset();
    const typo = await run('crit');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(
      'Unknown value "crit" for --fail-on; valid: critical, warning, info, none (any case). Did you mean critical?',
    );
    expect(sent(h.sandbox)).toEqual([]);
  });

  it('fails on critical problems by default, says so in its help, and --fail-on none exits 0 (new-user finding 10)', async () => {
    const critical = survey.find((s) => s.campaigns.some((c) => c.error));
    if (!critical) throw new Error('the seed has no client with a campaign error');
    const args = ['health', '--company', String(critical.id)];
    const byDefault = await h.run(args);
    expect(byDefault.code).toBe(7);
    expect(byDefault.stdout).toMatch(/\tcritical\t/);
    const none = await h.run([...args, '--fail-on', 'none']);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toBe(byDefault.stdout);
    expect(none.stderr).not.toMatch(/at or above/);
    const help = (await h.run(['health', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('By default health fails on critical problems: it exits 7 when it finds one');
    expect(help).toContain('--fail-on none exits 0 whatever it finds');
  });

  it('a client whose reads fail is an unreadable, critical problem, and the others are still checked', async () => {
    const [a, b] = survey;
    if (!a || !b) throw new Error('seed too small');
    h.sandbox.addFault({
      path: '/v2/mailboxes',
      kind: 'status',
      status: 501,
      detail: 'Database unavailable',
    });
    const r = await h.run([
      'health',
      '--company',
      String(a.id),
      '--company',
      String(b.id),
      '--json',
      '--concurrency',
      '1',
    ]);
    expect(r.code).toBe(7);
    const report = JSON.parse(r.stdout) as { companies_checked: number; problems: Problem[] };
    expect(report.companies_checked).toBe(2);
    const unreadable = report.problems.filter((p) => p.check === 'unreadable');
    expect(unreadable).toEqual([
      expect.objectContaining({
        company_id: a.id,
        severity: 'critical',
        detail: expect.stringMatching(/^mailboxes: .*Database unavailable/),
      }),
    ]);
    expect(report.problems[0]?.check).toBe('unreadable');
    // Its mailbox checks were not run on a list it could not read (no made-up "all fine").
    expect(report.problems.filter((p) => p.company_id === a.id && p.check.startsWith('mailbox_'))).toEqual(
      [],
    );
  });

  it('--json says which days it covers: the service default as dates, never null; the request is unchanged', async () => {
    const client = String(survey[0]?.id);
    const period = async (...args: string[]) => {
      const r = await h.run(['health', '--company', client, '--json', '--fail-on', 'critical', ...args]);
      return (JSON.parse(r.stdout) as { period: unknown }).period;
    };
    h.sandbox.reset();
    expect(await period()).toEqual(lastThirtyDays());
    // Without --from/--to the service's own default applies: nothing is added to the request.
    const listing = sent(h.sandbox).filter((q) => q.path.endsWith('/v2/agency/deliverability'));
    expect(listing.length).toBeGreaterThan(0);
    for (const q of listing) expect(Object.keys(q.query).sort()).toEqual(['page', 'per_page']);
    expect(await period('--from', '2026-01-05', '--to', '2026-02-03')).toEqual({
      from: '2026-01-05',
      to: '2026-02-03',
    });
    expect(await period('--to', '2026-03-01')).toEqual({ from: '2026-01-31', to: '2026-03-01' });
    expect(await period('--from', '2026-01-05')).toEqual({ from: '2026-01-05', to: localDay(new Date()) });
  });

  it('--html names the days it covers as dates too (new-user finding 11), with or without --from/--to', async () => {
    const client = String(survey[0]?.id);
    const dir = testDir('agency-health-html-');
    const meta = async (...args: string[]) => {
      const file = join(dir, 'report.html');
      const r = await h.run(['health', '--company', client, '--html', file, '--fail-on', 'none', ...args]);
      expect(r.code, r.stderr).toBe(0);
      return /<p class="meta">([^<·]*)·/.exec(readFileSync(file, 'utf8'))?.[1]?.trim();
    };
    const { from, to } = lastThirtyDays();
    expect(await meta()).toBe(`${from} to ${to} (the last 30 days)`);
    expect(await meta('--from', '2026-01-05', '--to', '2026-02-03')).toBe('2026-01-05 to 2026-02-03');
    expect(await meta('--to', '2026-03-01')).toBe('2026-01-31 to 2026-03-01');
  });

  it('an inactive client is not checked and is not a problem; named with --company, it is exit 5 (never a silent pass) unless problems were found (exit 7 first)', async () => {
    const inactive = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: false })[0];
    if (!inactive) throw new Error('seed has no inactive company');
    const r = await h.run(['health', '--company', String(inactive.id), '--json']);
    expect(r.code, r.stderr).toBe(5);
    // The report itself names it (new-user F3): a kept JSON file does not read as "all is well".
    expect(JSON.parse(r.stdout)).toEqual({
      period: lastThirtyDays(),
      companies_checked: 0,
      problems: [],
      not_checked: [{ company_id: inactive.id, name: inactive.name, reason: 'inactive' }],
    });
    expect(r.stderr).toContain('1 inactive not checked');
    const error = jsonError(r.stderr).error;
    expect(error.message).toBe(
      `A client named is inactive and could not be checked (the service answers 409): ${inactive.id} ${JSON.stringify(inactive.name)}.`,
    );
    expect(error.status).toBe(409);
    // With a client that has critical problems, exit 7 comes first (cron's `case $? in 7)` means
    // "problems found"): the inactive client is named in the report's not_checked, not as an error.
    const failing = survey.find((s) => s.campaigns.some((c) => c.error));
    if (!failing) throw new Error('no campaign error');
    const dir = testDir('agency-health-inactive-');
    const file = join(dir, 'report.html');
    const both = await h.run([
      'health',
      '--company',
      String(failing.id),
      '--company',
      String(inactive.id),
      '--html',
      file,
    ]);
    expect(both.code).toBe(7);
    // The page names it too, at the top, with why.
    expect(readFileSync(file, 'utf8')).toContain(
      `<p class="notchecked">Not checked: ${escapeHtml(inactive.name)} <span class="id">${inactive.id}</span> — named, but inactive:`,
    );
    // A run with no inactive client named has no "not_checked" and no such line.
    const healthy = await h.run(['health', '--company', String(failing.id), '--json', '--html', file]);
    expect(JSON.parse(healthy.stdout)).not.toHaveProperty('not_checked');
    expect(readFileSync(file, 'utf8')).not.toContain('Not checked');
    expect(lines(both.stdout).every((line) => line.startsWith(`${failing.id}\t`))).toBe(true);
    expect(both.stderr).toMatch(/; 1 inactive not checked\.\n/);
    expect(both.stderr).toMatch(/\d+ problems? at or above critical \(--fail-on critical\)\.\n$/);
    expect(both.stderr).not.toContain('error:');
    const json = await h.run([
      'health',
      '--company',
      String(failing.id),
      '--company',
      String(inactive.id),
      '--json',
    ]);
    expect(json.code).toBe(7);
    expect(JSON.parse(json.stdout).not_checked).toEqual([
      { company_id: inactive.id, name: inactive.name, reason: 'inactive' },
    ]);
    expect(json.stderr).not.toContain('"error"');
    // Without targets, inactive clients are not even read: the run without targets below shows it.
  });

  it('a client whose reads the service answers 409 (it is inactive, though the listing named it) is not checked, never unreadable', async () => {
    // The listing names the client (it sent in the period), so health reads no company list and only
    // learns from the 409s that it is inactive now: it is then not checked, and not a problem.
    const listed = survey.find((s) => s.listed);
    if (!listed) throw new Error('no listed client');
    for (const path of ['/v2/mailboxes', '/v1/campaign_list', '/v1/webhooks']) {
      h.sandbox.addFault({ path, kind: 'status', status: 409, detail: 'Company is inactive' });
    }
    const r = await h.run(['health', '--company', String(listed.id), '--json']);
    const report = JSON.parse(r.stdout) as {
      companies_checked: number;
      problems: Problem[];
      not_checked: unknown;
    };
    expect(report.problems).toEqual([]);
    expect(report.companies_checked).toBe(0);
    expect(report.not_checked).toEqual([
      { company_id: listed.id, name: expect.any(String), reason: 'inactive' },
    ]);
    expect(r.code).toBe(5);
    expect(jsonError(r.stderr).error.message).toMatch(/^A client named is inactive and could not be checked/);
    // It was read (three lists, each refused) and nothing else but the listing.
    const paths = sent(h.sandbox).map((q) => `${q.path} ${q.headers['x-company-id'] ?? 'HQ'}`);
    expect(paths.sort()).toEqual(
      [
        '/v2/agency/deliverability HQ',
        `/v2/mailboxes ${listed.id}`,
        `/v1/campaign_list ${listed.id}`,
        `/v1/webhooks ${listed.id}`,
      ].sort(),
    );
  });

  it('--inactive is refused (exit 2, nothing sent): an inactive client cannot be read, so there is nothing to check', async () => {
    const r = await h.run(['health', '--inactive']);
    expectUsageError(r, h.sandbox, /health checks active clients only/);
    expect(r.stderr).toMatch(/deliverability --inactive/);
    expectUsageError(await h.run(['health', '--inactive', '--json']), h.sandbox, /active clients only/);
    // Not offered: help leaves it out; deliverability, which can read them, keeps it.
    expect((await h.run(['health', '--help'])).stdout).not.toMatch(/^ +--inactive /m);
    expect((await h.run(['deliverability', '--help'])).stdout).toMatch(/^ +--inactive /m);
  });

  it("without targets: the company list's first page alone (active only, inactive clients never read), then each page's clients are read while the next pages come in; --json worst first", async () => {
    const active = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true });
    expect(active.length).toBeGreaterThan(50); // two pages of the company list
    // The list's first two requests are held 1.5 s each: page 1, then one asked ahead (long enough
    // for every lane to start a client even on a machine loaded many times over; 600 ms was not).
    h.sandbox.addFault({ kind: 'stall', path: '/v2/agency/companies', stallMs: HELD_MS, times: 2 });
    const r = await h.run(['health', '--json']);
    expect(r.code, r.stderr).toBe(7);
    const requests = h.sandbox.requests;
    const [first] = requests;
    expect([first?.path, first?.query]).toEqual(['/rest/v2/agency/companies', { active: 'true', page: '1' }]);
    // Nothing else is asked for before the first page is in: the clients come from it.
    const afterFirst = requests.slice(1);
    expect(afterFirst.every((q) => q.startedAt >= (first?.startedAt ?? 0) + 500)).toBe(true);
    const companyPages = requests.filter((q) => q.path === '/rest/v2/agency/companies');
    expect(companyPages.map((q) => q.query)).toEqual([
      { active: 'true', page: '1' },
      { active: 'true', page: '2' },
    ]);
    // The second page was held HELD_MS; the first page's clients were read meanwhile, on every lane (8
    // accounts at once). Counted as clients whose reads began while that page was held, not as a number
    // of reads: how many reads fit in the window depends on the machine's load, the lanes do not.
    const second = companyPages[1] as (typeof requests)[number];
    const firstPageIds = new Set(active.slice(0, 50).map((c) => String(c.id)));
    const clientsMeanwhile = new Set(
      requests
        .filter(
          (q) =>
            firstPageIds.has(q.headers['x-company-id'] ?? '') && q.startedAt < second.startedAt + HELD_MS,
        )
        .map((q) => q.headers['x-company-id']),
    );
    expect(clientsMeanwhile.size).toBeGreaterThanOrEqual(8); // every lane at work
    expect(requests.filter((q) => q.path === '/rest/v2/agency/deliverability').length).toBeGreaterThan(0);
    const report = JSON.parse(r.stdout) as { companies_checked: number; problems: Problem[] };
    expect(report.companies_checked).toBe(active.length);
    // Inactive clients are not even read; every active one is.
    const read = new Set(requests.map((q) => Number(q.headers['x-company-id'])).filter(Boolean));
    const inactive = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: false });
    expect(inactive.length).toBeGreaterThan(0);
    for (const c of inactive) expect(read.has(c.id)).toBe(false);
    expect(read.size).toBe(survey.length);
    // --json (printed at the end) keeps the whole report by severity, then client.
    const order = survey.map((s) => s.id);
    const bySeverity = report.problems.map((p) => [
      SEVERITIES.indexOf(p.severity),
      order.indexOf(p.company_id),
    ]);
    expect(new Set(bySeverity.map(([severity]) => severity)).size).toBe(SEVERITIES.length);
    expect(bySeverity).toEqual(
      [...bySeverity].sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0) || (a[1] ?? 0) - (b[1] ?? 0)),
    );
  });

  it('a targeted run reads only its target: one listing page and its three lists, no company list', async () => {
    const target = survey.find((s) => s.listed);
    if (!target) throw new Error('no listed client');
    const r = await h.run([
      'health',
      '--company',
      String(target.id),
      '--from',
      '2026-05-01',
      '--to',
      '2026-05-31',
    ]);
    expect([0, 7]).toContain(r.code);
    const paths = sent(h.sandbox).map((q) => `${q.path} ${q.headers['x-company-id'] ?? 'HQ'}`);
    expect(paths.sort()).toEqual(
      [
        '/v2/agency/deliverability HQ',
        `/v2/mailboxes ${target.id}`,
        `/v1/campaign_list ${target.id}`,
        `/v1/webhooks ${target.id}`,
      ].sort(),
    );
    expect(sent(h.sandbox)[0]?.query).toEqual({
      from: '2026-05-01',
      to: '2026-05-31',
      page: '1',
      per_page: '50',
    });
  });

  it('a targeted client the listing leaves out: the listing, the company list up to the page naming it, its three lists', async () => {
    const all = h.sandbox.store.companies(MAIN_AGENCY_ID);
    const quiet = survey.filter((s) => !s.listed).at(-1);
    if (!quiet) throw new Error('every client has activity');
    const r = await h.run(['health', '--company', String(quiet.id), '--json']);
    expect([0, 7]).toContain(r.code);
    const listingPages = Math.max(1, Math.ceil(survey.filter((s) => s.listed).length / 50));
    const pageOfQuiet = Math.floor(all.findIndex((c) => c.id === quiet.id) / 50) + 1;
    const paths = sent(h.sandbox).map((q) => `${q.path} ${q.headers['x-company-id'] ?? 'HQ'}`);
    expect(paths.sort()).toEqual(
      [
        ...Array.from({ length: listingPages }, () => '/v2/agency/deliverability HQ'),
        ...Array.from({ length: pageOfQuiet }, () => '/v2/agency/companies HQ'),
        `/v2/mailboxes ${quiet.id}`,
        `/v1/campaign_list ${quiet.id}`,
        `/v1/webhooks ${quiet.id}`,
      ].sort(),
    );
    expect(JSON.parse(r.stdout).companies_checked).toBe(1);
  });

  it.each([
    [['--fail-on', 'severe'], /--fail-on/],
    [['--from', 'yesterday'], /--from must be a date/],
    [['--company', 'x', '--active'], /cannot be added/],
    [['--html', '/nonexistent-folder/report.html'], /--html .*no folder \/nonexistent-folder/],
    // A folder (`--html reports/`) is found before the first request too, not after the whole check.
    [['--html', tmpdir()], /--html \S+ is a folder: give a file name such as \S+health\.html\./],
    // An empty name (`--html "$REPORT"`, the variable unset) too, not a raw ENOENT after the check.
    [['--html', ''], /--html needs a file name, such as health\.html: it was given an empty one\./],
    // `-` is no file named "-" (new-user F5), and not stdout either: stdout carries the rows.
    [['--html', '-'], /--html needs a file name, such as health\.html: - \(stdout\) is not supported/],
  ])('%j is a usage error: exit 2, nothing sent', async (args, message) => {
    expectUsageError(await h.run(['health', ...args]), h.sandbox, message);
  });

  it('on a terminal: a table coloured by severity and the summary line', async () => {
    const target = survey.find((s) => s.campaigns.some((c) => c.error));
    if (!target) throw new Error('no campaign error');
    const r = await runOnTerminal(h, ['health', '--company', String(target.id)], {
      env: { FORCE_COLOR: '1' },
    });
    expect(r.code).toBe(7);
    expect(plain(r.stdout)).toMatch(/COMPANY\s+NAME\s+SEVERITY\s+CHECK\s+DETAIL/);
    expect(r.stdout).toContain('\u001b[31m'); // critical in red
    expect(plain(r.stderr)).toMatch(/\d+ critical, \d+ warnings?, \d+ info across 1 client\./);
  });
});

describe('health of an agency without clients', () => {
  let empty: Harness;
  beforeAll(async () => {
    empty = await startCoreHarness({ seed: { companies: 0 } }, IN_PROCESS);
  });
  afterAll(() => empty.close());

  it('one request (the company list), nothing checked, exit 0', async () => {
    const r = await empty.run(['health', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ companies_checked: 0, problems: [] });
    expect(r.stderr).toMatch(/across 0 clients/);
    // No client: the deliverability listing would name none of them.
    expect(sent(empty.sandbox).map((q) => q.path)).toEqual(['/v2/agency/companies']);
  });
});

describe('health --limit on a larger agency', () => {
  let big: Harness;
  beforeAll(async () => {
    // 65 companies: the fewest whose deliverability listing (51 clients) has a second page to leave unread.
    big = await startCoreHarness({ seed: { companies: 65 } }, IN_PROCESS);
  });
  afterAll(() => big.close());

  it('--limit 2: one page of the company list, the listing up to the page naming both, their six reads', async () => {
    const listing = (await directAllPages(big.sandbox, '/v2/agency/deliverability?per_page=50')) as Listed[];
    expect(listing.length).toBeGreaterThan(50); // pages the run can leave unread
    const firstTwo = big.sandbox.store.companies(MAIN_AGENCY_ID, { active: true }).slice(0, 2);
    const positions = firstTwo.map((c) => listing.findIndex((item) => item.id === c.id));
    const listingPages = positions.includes(-1)
      ? Math.ceil(listing.length / 50)
      : Math.floor(Math.max(...positions) / 50) + 1;
    big.sandbox.reset();
    const r = await big.run(['health', '--limit', '2', '--json']);
    expect([0, 7]).toContain(r.code);
    expect(JSON.parse(r.stdout).companies_checked).toBe(2);
    const asked = sent(big.sandbox);
    expect(asked.filter((q) => q.path === '/v2/agency/companies').map((q) => q.query.page)).toEqual(['1']);
    expect(asked.filter((q) => q.path === '/v2/agency/deliverability')).toHaveLength(listingPages);
    const clients = asked.filter((q) => q.headers['x-company-id'] !== undefined);
    expect(clients.map((q) => Number(q.headers['x-company-id'])).sort()).toEqual(
      firstTwo.flatMap((c) => [c.id, c.id, c.id]).sort(),
    );
  });
});
