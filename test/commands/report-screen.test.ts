/**
 * `report`, `history report`, `history deliverability` and `history health` on a terminal of a given width, as an operator reads
 * them: the note of hidden columns names them as --columns takes them (so they can be copied into it),
 * and what an operator bills on (replies, interest) and when a problem went away (resolved) are the
 * columns that stay when the screen is narrow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/cli.js';
import { lines, startCoreHarness } from '../helpers/core.js';
import { readTable } from '../helpers/table-text.js';
import { testDir } from '../helpers/temp-dir.js';
import { plain, runOnTerminal } from '../helpers/terminal-run.js';

/** The names the note under a table gives the hidden columns ("3 columns hidden (a, b, c) — …"). */
function hiddenNames(stderr: string): string[] {
  const note = /columns? hidden \(([^)]*)\)/.exec(plain(stderr).replace(/\s+/g, ' '));
  return note?.[1]?.split(', ') ?? [];
}

/** Runs with the history on, in a state directory of the test's own. */
const withHistory = () => ({
  env: { AGENCY_NO_HISTORY: undefined, AGENCY_STATE_DIR: testDir('agency-report-screen-') },
});

/** The header line of a table on a terminal, as its words (`REPLY %` is one column, two words). */
const headerOf = (stdout: string) => plain(lines(stdout)[0] ?? '');

describe('report tables on a terminal', () => {
  let h: Harness;
  // 8 companies: a few clients with campaigns, enough rows for the widths to matter.
  beforeAll(async () => {
    h = await startCoreHarness({ seed: { companies: 8 }, reports: { pendingPolls: 0 } }, { inProcess: true });
  });
  afterAll(() => h.close());

  it('the hidden columns are named as --columns takes them: the note copied into --columns shows them', async () => {
    const narrow = await runOnTerminal(h, ['report'], { columns: 100 });
    expect(narrow.code, narrow.stderr).toBe(0);
    const hidden = hiddenNames(narrow.stderr);
    // A rate and a two-word count are among them: their headers (`open %`, `maybe later`) are not
    // names --columns takes.
    expect(hidden).toEqual(expect.arrayContaining(['campaign_id', 'maybe_later', 'open_rate']));
    const chosen = await runOnTerminal(h, ['report', '--columns', hidden.join(',')], { columns: 200 });
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(headerOf(chosen.stdout)).toMatch(/^CAMPAIGN ID .*MAYBE LATER .*OPEN %/);
    expect(plain(chosen.stderr)).not.toContain('hidden');
  });

  it('--by client at 60 columns counts the clients once: the summary, no count line besides', async () => {
    const r = await runOnTerminal(h, ['report', '--by', 'client'], { columns: 60 });
    expect(r.code, r.stderr).toBe(0);
    const rows = lines(plain(r.stdout)).filter((l) => /^\d/.test(l)).length;
    const counts = lines(plain(r.stderr)).filter((l) => /^\d+ clients?\b/.test(l));
    expect(counts).toEqual([
      expect.stringMatching(new RegExp(`^${rows} clients reported over the last 30 days`)),
    ]);
    // --by campaign counts its rows (campaigns) and then the clients: two things, said once each.
    const campaigns = await runOnTerminal(h, ['report'], { columns: 60 });
    expect(lines(plain(campaigns.stderr)).filter((l) => /^\d+ (campaigns|clients)\b/.test(l))).toEqual([
      expect.stringMatching(/^\d+ campaigns$/),
      expect.stringMatching(/^\d+ clients reported/),
    ]);
  });

  it('at 60 columns a campaign name wraps between words without leaving its number alone on a line', async () => {
    const r = await runOnTerminal(h, ['report'], { columns: 60 });
    expect(r.code, r.stderr).toBe(0);
    const table = readTable(plain(r.stdout), ['COMPANY', 'NAME', 'CAMPAIGN']);
    const wrapped = table.rows.map((row) => row.CAMPAIGN ?? []).filter((cell) => cell.length > 1);
    // The seed's names end in a number ("Webinar invite 1"): at 60 columns some must wrap.
    expect(wrapped.length).toBeGreaterThan(0);
    for (const cell of wrapped) expect(cell.at(-1), cell.join(' / ')).not.toMatch(/^\S{1,3}$/);
  });

  it('counts in a table have their thousands grouped (1,199); --json, CSV and TSV keep the numbers', async () => {
    const history = withHistory();
    const json = await h.run(['report', '--by', 'client', '--json'], history);
    expect(json.code, json.stderr).toBe(0);
    const clients: { company_id: number; totals: { contacted: number; delivered: number } }[] = JSON.parse(
      json.stdout,
    ).clients;
    const big = clients.find((c) => c.totals.contacted >= 1000);
    if (!big) throw new Error('no seeded client contacted 1,000 prospects');
    const { contacted, delivered } = big.totals;
    const grouped = (n: number) => `${Math.floor(n / 1000)},${String(n % 1000).padStart(3, '0')}`;
    const rowOf = (stdout: string) =>
      plain(stdout)
        .split('\n')
        .find((l) => l.startsWith(`${big.company_id} `));
    for (const args of [
      ['report', '--by', 'client'],
      ['history', 'report'],
    ]) {
      const table = await runOnTerminal(h, args, { columns: 200, ...history });
      expect(table.code, table.stderr).toBe(0);
      expect(rowOf(table.stdout)).toMatch(new RegExp(` ${grouped(contacted)} +${grouped(delivered)} `));
      // The company id (an id) is not grouped.
      expect(rowOf(table.stdout)).toMatch(/^\d{4,} /);
    }
    const csv = await h.run(['report', '--by', 'client', '--csv']);
    expect(csv.stdout).toContain(`,${contacted},${delivered},`);
    const tsv = await h.run(['history', 'report'], history);
    expect(tsv.stdout).toContain(`\t${contacted}\t${delivered}\t`);
  });

  it('history report at 100 columns keeps replied and interested (what is billed) before opened', async () => {
    const history = withHistory();
    const recorded = await h.run(['report', '--by', 'client'], history);
    expect(recorded.code, recorded.stderr).toBe(0);
    const r = await runOnTerminal(h, ['history', 'report'], { columns: 100, ...history });
    expect(r.code, r.stderr).toBe(0);
    const header = headerOf(r.stdout);
    for (const column of ['CONTACTED', 'REPLIED', 'INTERESTED', 'REPLY %']) expect(header).toContain(column);
    const hidden = hiddenNames(r.stderr);
    expect(hidden).toContain('opened');
    expect(hidden).not.toContain('replied');
    expect(hidden).not.toContain('interested');
    // As `report --by client` gives way at the same width: opened goes, replies and interest stay.
    const report = await runOnTerminal(h, ['report', '--by', 'client'], { columns: 100 });
    expect(hiddenNames(report.stderr)).toContain('opened');
    expect(headerOf(report.stdout)).toMatch(/REPLIED +INTERESTED/);
  });

  it('history deliverability gives way as deliverability does: sent and both rates outlive the first day', async () => {
    const history = withHistory();
    const recorded = await h.run(['deliverability'], history);
    expect(recorded.code, recorded.stderr).toBe(0);
    const narrow = await runOnTerminal(h, ['history', 'deliverability'], { columns: 60, ...history });
    expect(narrow.code, narrow.stderr).toBe(0);
    // The period is named by its last day; what a row is read for (sent, reply and bounce rates) stays.
    expect(headerOf(narrow.stdout)).toMatch(/^COMPANY +NAME +TO +SENT +REPLY % +BOUNCE %$/);
    expect(hiddenNames(narrow.stderr)).toEqual(expect.arrayContaining(['from', 'delivered', 'opened']));
    const wider = await runOnTerminal(h, ['history', 'deliverability'], { columns: 80, ...history });
    expect(headerOf(wider.stdout)).toMatch(/^COMPANY +NAME +FROM +TO +SENT +REPLY % +BOUNCE %$/);
    // The live command at the same width keeps the same counter and both rates.
    const live = await runOnTerminal(h, ['deliverability'], { columns: 80 });
    expect(headerOf(live.stdout)).toMatch(/SENT .*REPLY % +BOUNCE %/);
  });

  it('history health at 60 columns keeps RESOLVED once a problem went away', async () => {
    const history = withHistory();
    const first = await h.run(['health', '--fail-on', 'none'], history);
    expect(first.code, first.stderr).toBe(0);
    // A client without a webhook gets one: its problem is resolved by the next run.
    const problem = lines(first.stdout)
      .map((line) => line.split('\t'))
      .find((cells) => cells[3] === 'no_webhook');
    expect(problem, first.stdout).toBeDefined();
    const subscribed = await h.run([
      'webhooks',
      'subscribe',
      '--event',
      'prospect_replied',
      '--url',
      'https://crm.example.com/hooks',
      '--company',
      String(problem?.[0]),
    ]);
    expect(subscribed.code, subscribed.stderr).toBe(0);
    expect((await h.run(['health', '--fail-on', 'none'], history)).code).toBe(0);
    const r = await runOnTerminal(h, ['history', 'health'], { columns: 60, ...history });
    expect(r.code, r.stderr).toBe(0);
    expect(headerOf(r.stdout)).toMatch(/^COMPANY +NAME +CHECK +RESOLVED$/);
    expect(hiddenNames(r.stderr)).not.toContain('resolved');
  });
});
