/**
 * `health` with memory, against the sandbox and a real history.db: two runs with one problem fixed and
 * one added in between show exactly one new, one resolved and the rest ongoing since the first run;
 * `--new --fail-on critical` exits 7 only for a new critical; a client not checked resolves nothing;
 * the file is an ordinary SQLite database (`sqlite3 .tables`, the query docs/history.md documents).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { type Harness, ROOT } from '../helpers/cli.js';
import { expectUsageError, lines, sent, startCoreHarness } from '../helpers/core.js';

interface Marked {
  company_id: number;
  check: string;
  subject: string;
  severity: string;
  new: boolean;
  first_seen: string;
}
interface Report {
  problems: Marked[];
  resolved: (Marked & { last_seen: string })[];
}

const ON = { env: { AGENCY_NO_HISTORY: undefined } };
const URL = 'https://crm.example.com/hooks/agency-history';

/** Each test runs the program several times: room for a machine shared with other work. */
const SLOW = 120_000;

describe('health with memory', () => {
  let h: Harness;
  let stateDir: string;
  let db: string;
  beforeAll(async () => {
    // 8 companies: enough for clients with and without webhooks, criticals and infos.
    h = await startCoreHarness({ seed: { companies: 8 } }, { inProcess: true });
    stateDir = join(h.configDir, '..', 'state');
    db = join(stateDir, 'history.db');
  }, SLOW);
  afterAll(() => h.close());
  beforeEach(() => h.sandbox.reset());

  const health = async (...args: string[]) => {
    const r = await h.run(['health', '--json', '--fail-on', 'none', ...args], ON);
    expect(r.stderr).not.toMatch(/not recorded|history is not used/);
    return { ...r, report: JSON.parse(r.stdout) as Report };
  };

  it(
    'one fixed and one added: exactly one new, one resolved, the rest ongoing since the first run',
    async () => {
      const first = await health();
      expect(first.code).toBe(0);
      // The first run: no memory, every problem new and first seen now.
      expect(first.report.problems.length).toBeGreaterThan(3);
      expect(first.report.problems.every((p) => p.new)).toBe(true);
      expect(first.report.resolved).toEqual([]);
      const firstSeen = first.report.problems[0]?.first_seen as string;
      expect(new Set(first.report.problems.map((p) => p.first_seen))).toEqual(new Set([firstSeen]));
      // Its own request for the agency's identity (the HQ account's id), and the file as promised.
      expect(sent(h.sandbox).filter((q) => q.path === '/v1/me')).toHaveLength(1);
      expect(statSync(db).mode & 0o777).toBe(0o600);
      expect(statSync(stateDir).mode & 0o777).toBe(0o700);

      // Fixed: a client without webhooks gets one. Added: a client with exactly one loses it.
      const fixed = first.report.problems.find((p) => p.check === 'no_webhook');
      if (!fixed) throw new Error('the seed has no client without webhooks');
      // The sandbox's own store says which client has exactly one webhook (no listing per client).
      const store = h.sandbox.store;
      let added: number | undefined;
      let only: { event: string; target_url: string } | undefined;
      for (const company of store.companies(MAIN_AGENCY_ID, { active: true })) {
        if (company.id === fixed.company_id) continue;
        const account = {
          level: 'client' as const,
          account: `company:${company.id}`,
          agency: store.mainAgency,
          company,
        };
        const list = store.webhooks(account).webhooks as { event: string; target_url: string }[];
        if (list.length === 1) {
          added = company.id;
          only = list[0];
          break;
        }
      }
      if (added === undefined || !only) throw new Error('the seed has no client with exactly one webhook');
      const sub = [
        'webhooks',
        'subscribe',
        '--company',
        String(fixed.company_id),
        '--event',
        'prospect_replied',
      ];
      expect((await h.run([...sub, '--url', URL])).code).toBe(0);
      const unsub = ['webhooks', 'unsubscribe', '--company', String(added), '--event', only.event];
      expect((await h.run([...unsub, '--url', only.target_url])).code).toBe(0);

      const second = await health();
      const fresh = second.report.problems.filter((p) => p.new);
      expect(fresh).toEqual([expect.objectContaining({ company_id: added, check: 'no_webhook', new: true })]);
      expect((fresh[0]?.first_seen ?? '') > firstSeen).toBe(true);
      expect(second.report.resolved).toEqual([
        expect.objectContaining({
          company_id: fixed.company_id,
          check: 'no_webhook',
          first_seen: firstSeen,
          last_seen: firstSeen,
        }),
      ]);
      const ongoing = second.report.problems.filter((p) => !p.new);
      expect(ongoing).toHaveLength(first.report.problems.length - 1);
      expect(ongoing.every((p) => p.first_seen === firstSeen)).toBe(true);

      // A third run: the series goes on from the first run; the problem added is now ongoing too.
      const third = await health();
      expect(third.report.problems.filter((p) => p.new)).toEqual([]);
      expect(third.report.resolved).toEqual([]);
      expect(
        third.report.problems.find((p) => p.company_id === added && p.check === 'no_webhook')?.first_seen,
      ).toBe(fresh[0]?.first_seen);

      // Piped: the since column ("new" or the minute it was first seen), and resolved lines on stderr.
      await h.run([
        ...unsub.slice(0, 3),
        String(fixed.company_id),
        '--event',
        'prospect_replied',
        '--url',
        URL,
      ]);
      const piped = await h.run(['health', '--fail-on', 'none'], ON);
      const rows = lines(piped.stdout).map((l) => l.split('\t'));
      expect(rows.every((cells) => cells.length === 6)).toBe(true);
      expect(rows.filter((cells) => cells[4] === 'new')).toEqual([
        [
          String(fixed.company_id),
          expect.any(String),
          'info',
          'no_webhook',
          'new',
          'no webhook subscription',
        ],
      ]);
      expect(
        rows
          .filter((cells) => cells[4] !== 'new')
          .every(
            (c) =>
              c[4] === firstSeen.slice(0, 16).replace('T', ' ') ||
              c[4] === fresh[0]?.first_seen.slice(0, 16).replace('T', ' '),
          ),
      ).toBe(true);
      expect(piped.stderr).toMatch(/1 new, \d+ ongoing, 0 resolved since the last run/);

      // The file a run left is an ordinary SQLite database, and the documented query works on it.
      expect(
        execFileSync('sqlite3', [db, '.tables'], { encoding: 'utf8' }).split(/\s+/).filter(Boolean).sort(),
      ).toEqual([
        'agencies',
        'deliverability',
        'health_clients',
        'health_problems',
        'invitations',
        'meta',
        'report_totals',
        'runs',
      ]);
      expect(execFileSync('sqlite3', [db, 'PRAGMA integrity_check'], { encoding: 'utf8' }).trim()).toBe('ok');
      const query = documentedQuery('The new problems of the latest health run');
      const out = execFileSync('sqlite3', ['-separator', '\t', db, query], { encoding: 'utf8' });
      expect(lines(out).map((l) => l.split('\t').slice(0, 3))).toEqual([
        [String(fixed.company_id), 'no_webhook', ''],
      ]);

      // history health: the problem fixed is one episode with its end, then a new one still open.
      const episodes = JSON.parse(
        (
          await h.run([
            'history',
            'health',
            '--company',
            String(fixed.company_id),
            '--check',
            'no_webhook',
            '--json',
          ])
        ).stdout,
      ) as { first_seen: string; last_seen: string; resolved: string | null }[];
      expect(episodes).toEqual([
        expect.objectContaining({
          first_seen: firstSeen,
          last_seen: firstSeen,
          resolved: expect.any(String),
        }),
        expect.objectContaining({ resolved: null }),
      ]);
    },
    SLOW,
  );

  it(
    '--new prints only the new problems and --fail-on judges only those: exit 7 only for a new critical',
    async () => {
      // b has problems of its own, so that checking it alone shows its memory kept (none new).
      const withProblems = new Set((await health()).report.problems.map((p) => String(p.company_id)));
      const active = h.sandbox.store
        .companies()
        .filter((c) => c.active)
        .map((c) => String(c.id));
      const b = active.find((id) => withProblems.has(id));
      const a = active.find((id) => id !== b);
      if (!a || !b) throw new Error('seed too small');
      await health('--company', a, '--company', b);
      // Nothing new: the ongoing criticals do not count, nothing is printed.
      const quiet = await h.run(
        ['health', '--company', a, '--company', b, '--new', '--fail-on', 'critical'],
        ON,
      );
      expect(quiet.code).toBe(0);
      expect(quiet.stdout).toBe('');
      // A new critical: the client's webhooks cannot be read (unreadable).
      h.sandbox.addFault({ path: '/v1/webhooks', kind: 'status', status: 403, detail: 'Forbidden for now' });
      const alarm = await h.run(
        ['health', '--company', a, '--company', b, '--new', '--fail-on', 'critical', '--concurrency', '1'],
        ON,
      );
      expect(alarm.code).toBe(7);
      expect(lines(alarm.stdout)).toEqual([
        expect.stringMatching(new RegExp(`^${a}\t.*\tcritical\tunreadable\tnew\twebhooks: `)),
      ]);
      // A client not checked in this run resolves nothing; the one checked does not lose the others' memory.
      const one = await health('--company', b);
      expect(one.report.resolved).toEqual([]);
      expect(one.report.problems.length).toBeGreaterThan(0);
      expect(one.report.problems.filter((p) => p.new)).toEqual([]);
    },
    SLOW,
  );

  it(
    '--no-history and AGENCY_NO_HISTORY=1 leave the run out; --new without the history is refused',
    async () => {
      const { mkdtempSync } = await import('node:fs');
      const elsewhere = join(mkdtempSync(join(h.configDir, '..', 'off-')), 'state');
      const off = { env: { AGENCY_NO_HISTORY: undefined, AGENCY_STATE_DIR: elsewhere } };
      const flag = await h.run(['health', '--no-history', '--fail-on', 'none'], off);
      expect(flag.code).toBe(0);
      expect(lines(flag.stdout)[0]?.split('\t')).toHaveLength(5);
      const env = await h.run(['deliverability'], {
        env: { AGENCY_NO_HISTORY: '1', AGENCY_STATE_DIR: elsewhere },
      });
      expect(env.code).toBe(0);
      expect(existsSync(elsewhere)).toBe(false);
      expect(sent(h.sandbox).filter((q) => q.path === '/v1/me')).toEqual([]);
      h.sandbox.reset();
      const refused = await h.run(['health', '--new', '--no-history'], off);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/--new compares with the history/);
      expect(sent(h.sandbox)).toEqual([]);
    },
    SLOW,
  );
});

/** The SQL block under a heading of docs/history.md (the docs and this test share the query). */
function documentedQuery(heading: string): string {
  const text = readFileSync(join(ROOT, 'docs', 'history.md'), 'utf8');
  const at = text.indexOf(heading);
  const block = /```sql\n([\s\S]*?)```/.exec(text.slice(at));
  if (at < 0 || !block?.[1]) throw new Error(`docs/history.md has no sql block under "${heading}"`);
  return block[1];
}

describe('health problems in the file', () => {
  let h: Harness;
  beforeAll(async () => {
    // 12 companies: 1010 has a paused campaign with an error, whose detail ends with the next step.
    h = await startCoreHarness({ seed: { companies: 12 } }, { inProcess: true });
  }, SLOW);
  afterAll(() => h.close());

  /** A health run recorded, then `history health --json` with `filter`: its episodes (some). */
  async function recordedEpisodes(filter: string[]): Promise<{ check: string; company_id: number }[]> {
    expect((await h.run(['health', '--json', '--fail-on', 'none'], ON)).code).toBe(0);
    const read = await h.run(['history', 'health', ...filter, '--json'], ON);
    expect(read.code, read.stderr).toBe(0);
    const episodes = JSON.parse(read.stdout) as { check: string; company_id: number }[];
    expect(episodes.length).toBeGreaterThan(0);
    return episodes;
  }

  it(
    'a detail that names a command is stored as the command line says it (between backticks), readable with sqlite3',
    async () => {
      const r = await h.run(['health', '--json', '--fail-on', 'none'], ON);
      expect(r.code, r.stderr).toBe(0);
      const db = join(h.configDir, '..', 'state', 'history.db');
      const query =
        "SELECT detail FROM health_problems WHERE company_id = 1010 AND check_name = 'campaign_error'";
      const detail = execFileSync('sqlite3', [db, query], { encoding: 'utf8' }).trim();
      expect(detail).toContain('once fixed: `agency campaigns resume --company 1010 --campaign 101006`');
      // history health reads it back as the command line says it.
      const read = await h.run(['history', 'health', '--company', '1010', '--check', 'campaign_error'], ON);
      expect(read.stdout).toContain('agency campaigns resume --company 1010 --campaign 101006');
      expect(read.stdout).not.toContain('`');
      // None of the private-use characters the tool's message references travel in.
      for (const mark of ['\uE000', '\uE001', '\u001F']) expect(detail).not.toContain(mark);
    },
    SLOW,
  );

  it('history health --check reads the names as health does: any case and "-"; an unknown one is exit 2', async () => {
    const episodes = await recordedEpisodes(['--check', 'Campaign-Error']);
    expect(new Set(episodes.map((e) => e.check))).toEqual(new Set(['campaign_error']));
    h.sandbox.reset();
    const typo = await h.run(['history', 'health', '--check', 'campaign_eror'], ON);
    expectUsageError(
      typo,
      h.sandbox,
      /Unknown check "campaign_eror" in --check.*Did you mean campaign_error/,
    );
  });

  it('history health --company is read as every --company is: 0 is exit 2, an id with spaces is the id', async () => {
    const episodes = await recordedEpisodes(['--company', ' 1010 ']);
    expect(new Set(episodes.map((e) => e.company_id))).toEqual(new Set([1010]));
    h.sandbox.reset();
    const zero = await h.run(['history', 'health', '--company', '0'], ON);
    expectUsageError(zero, h.sandbox, /Invalid company id "0": expected a positive whole number/);
  });
});
