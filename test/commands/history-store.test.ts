/**
 * The history store never fails a command and never loses a file: a damaged history.db is named in a
 * warning and left byte for byte; a read-only directory is a warning, with the report printed and the
 * exit code unchanged; runs older than 400 days are pruned by the next run that records; `history
 * prune` and the `history` readers on real files.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Harness } from '../helpers/cli.js';
import { lines, startCoreHarness } from '../helpers/core.js';
import { testDir } from '../helpers/temp-dir.js';

const sql = (db: string, query: string) => execFileSync('sqlite3', [db, query], { encoding: 'utf8' }).trim();

/** Each test runs the program several times: room for a machine shared with other work. */
const SLOW = 120_000;

describe('the history store', () => {
  let h: Harness;
  beforeAll(async () => {
    // 3 companies: each test only needs runs that record something.
    h = await startCoreHarness({ seed: { companies: 3 } }, { inProcess: true });
  }, SLOW);
  afterAll(() => h.close());

  /** A run with the history on, in a state directory of the test's own. */
  const inDir = (dir: string) => ({ env: { AGENCY_NO_HISTORY: undefined, AGENCY_STATE_DIR: dir } });

  it(
    'a damaged file is named, left byte for byte, and nothing is recorded; the report is printed all the same',
    async () => {
      const dir = testDir('agency-history-');
      const db = join(dir, 'history.db');
      const damaged = Buffer.concat([Buffer.from('SQLite format 3\u0000'), Buffer.alloc(4080, 0x5a)]);
      writeFileSync(db, damaged, { mode: 0o600 });
      const plain = await h.run(['health', '--fail-on', 'none', '--no-history']);
      const r = await h.run(['health', '--fail-on', 'none'], inDir(dir));
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`The history store ${db} is damaged`);
      expect(r.stderr).toContain('This run is not recorded');
      // Without memory every problem is new: the rows are the plain run's, marked so.
      expect(lines(r.stdout).map((l) => l.split('\t').filter((_, i) => i !== 4))).toEqual(
        lines(plain.stdout).map((l) => l.split('\t')),
      );
      expect(readFileSync(db).equals(damaged)).toBe(true);
      // deliverability and the history readers say the same; a reader fails (it has nothing to show).
      const d = await h.run(['deliverability'], inDir(dir));
      expect(d.code).toBe(0);
      expect(d.stderr).toContain(`The history store ${db} is damaged`);
      const read = await h.run(['history', 'health'], inDir(dir));
      expect(read.code).toBe(1);
      expect(read.stderr).toContain(`The history store ${db} is damaged`);
      expect(readFileSync(db).equals(damaged)).toBe(true);
    },
    SLOW,
  );

  it(
    'a read-only directory is a warning: the report is printed, the exit code is unchanged, the file kept',
    async () => {
      const dir = join(testDir('agency-history-'), 'state');
      const db = join(dir, 'history.db');
      expect((await h.run(['health', '--fail-on', 'none'], inDir(dir))).code).toBe(0);
      const before = readFileSync(db);
      readOnly(dir);
      const r = await h.run(['health', '--fail-on', 'info'], inDir(dir));
      // The sandbox's clients have problems: exit 7 as without the history.
      expect(r.code).toBe(7);
      expect(lines(r.stdout).length).toBeGreaterThan(0);
      expect(r.stderr).toMatch(/Cannot (lock|write) the history store .*[^.]\. This run is not recorded/);
      expect(readFileSync(db).equals(before)).toBe(true);
      // The memory was still read: nothing is new against the first run.
      expect(lines(r.stdout).filter((l) => l.split('\t')[4] === 'new')).toEqual([]);
    },
    SLOW,
  );

  it(
    'a directory that cannot be made is a warning too',
    async () => {
      const file = join(testDir('agency-history-'), 'a-file');
      writeFileSync(file, '');
      const r = await h.run(['deliverability'], inDir(join(file, 'state')));
      expect(r.code).toBe(0);
      expect(r.stdout).not.toBe('');
      expect(r.stderr).toMatch(/Cannot create the history directory .*[^.]\. This run is not recorded/);
    },
    SLOW,
  );

  it(
    'runs older than 400 days are pruned by the next run that records; history prune --older-than',
    async () => {
      const dir = testDir('agency-history-');
      const db = join(dir, 'history.db');
      expect((await h.run(['deliverability'], inDir(dir))).code).toBe(0);
      expect((await h.run(['deliverability'], inDir(dir))).code).toBe(0);
      const old = new Date(Date.now() - 401 * 86_400_000).toISOString();
      const keep = new Date(Date.now() - 399 * 86_400_000).toISOString();
      execFileSync('sqlite3', [
        db,
        `UPDATE runs SET at = '${old}' WHERE id = 1; UPDATE runs SET at = '${keep}' WHERE id = 2;`,
      ]);
      expect(sql(db, 'SELECT count(*) FROM deliverability WHERE run_id = 1')).not.toBe('0');
      expect((await h.run(['deliverability'], inDir(dir))).code).toBe(0);
      expect(sql(db, 'SELECT group_concat(id) FROM runs')).toBe('2,3');
      // The run's rows went with it.
      expect(sql(db, 'SELECT count(*) FROM deliverability WHERE run_id = 1')).toBe('0');

      const week = await h.run(['history', 'prune', '--older-than', '7'], inDir(dir));
      expect(week.code).toBe(0);
      expect(week.stderr).toContain('Deleted 1 run');
      expect(sql(db, 'SELECT group_concat(id) FROM runs')).toBe('3');
      const all = await h.run(['history', 'prune', '--older-than', '0'], inDir(dir));
      expect(all.stderr).toContain('Deleted 1 run');
      expect(sql(db, 'SELECT count(*) FROM runs')).toBe('0');
      expect(sql(db, 'PRAGMA integrity_check')).toBe('ok');
      const bad = await h.run(['history', 'prune', '--older-than', 'soon'], inDir(dir));
      expect(bad.code).toBe(2);
    },
    SLOW,
  );

  it(
    'history deliverability reads the stored totals; an empty store says so',
    async () => {
      const dir = testDir('agency-history-');
      const none = await h.run(['history', 'deliverability'], inDir(dir));
      expect(none.code).toBe(0);
      expect(none.stdout).toBe('');
      expect(none.stderr).toMatch(/Nothing recorded yet/);
      const run = await h.run(['deliverability', '--json'], inDir(dir));
      const live = JSON.parse(run.stdout) as { id: number; emails_sent: { current_period: number } }[];
      const stored = JSON.parse(
        (await h.run(['history', 'deliverability', '--json'], inDir(dir))).stdout,
      ) as {
        company_id: number;
        sent: number;
      }[];
      expect(stored.map((s) => [s.company_id, s.sent])).toEqual(
        live.map((l) => [l.id, l.emails_sent.current_period]),
      );
      const first = live[0];
      if (!first) throw new Error('no deliverability');
      const one = await h.run(['history', 'deliverability', '--company', String(first.id)], inDir(dir));
      expect(lines(one.stdout)).toHaveLength(1);
      // No key in the file: the agency is its base URL and account id.
      expect(readFileSync(join(dir, 'history.db')).includes(h.sandbox.hqKey)).toBe(false);
      expect(sql(join(dir, 'history.db'), 'SELECT base_url FROM agencies')).toBe(h.sandbox.baseUrl);
    },
    SLOW,
  );

  it(
    "a report run records its clients' totals; history report lists them",
    async () => {
      const dir = testDir('agency-history-');
      const r = await h.run(['report', '--by', 'client', '--json'], inDir(dir));
      expect(r.code).toBe(0);
      const live = JSON.parse(r.stdout) as {
        clients: { company_id: number; totals: { contacted: number; replied: number } }[];
      };
      const stored = JSON.parse((await h.run(['history', 'report', '--json'], inDir(dir))).stdout) as {
        company_id: number;
        contacted: number;
        replied: number;
      }[];
      expect(live.clients.length).toBeGreaterThan(0);
      expect(stored.map((s) => [s.company_id, s.contacted, s.replied])).toEqual(
        live.clients.map((c) => [c.company_id, c.totals.contacted, c.totals.replied]),
      );
    },
    SLOW,
  );
  it(
    'history report reads the totals report runs stored, with the rates from the counts',
    async () => {
      const dir = testDir('agency-history-');
      const file = join(dir, 'history.db');
      const { changeStore } = await import('../../src/history/store.js');
      const { recordCounts } = await import('../../src/history/runs.js');
      const { agencyKey } = await import('../../src/history/record.js');
      const me = JSON.parse((await h.run(['me', '--json'])).stdout);
      const agency = agencyKey(h.sandbox.baseUrl, me);
      const totals = (contacted: number, replied: number) => ({
        company_id: 1001,
        name: 'Acme Ltd',
        campaigns: 2,
        contacted,
        delivered: contacted - 10,
        opened: 50,
        replied,
        interested: 3,
        maybe_later: 1,
        not_interested: 2,
        bounced: 10,
        opt_out: 0,
      });
      for (const [month, contacted, replied] of [
        ['10', 410, 20],
        ['11', 210, 40],
      ] as const) {
        const run = {
          at: `2026-${month}-30T06:00:00.000Z`,
          period: { from: `2026-${month}-01`, to: `2026-${month}-30` },
          version: 'test',
        };
        await changeStore(
          file,
          (db) => recordCounts(db, agency, 'report', run, [totals(contacted, replied)]),
          {
            prune: false,
          },
        );
      }
      const r = await h.run(['history', 'report', '--json', '--since', '2026-11-01'], inDir(dir));
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([
        expect.objectContaining({
          company_id: 1001,
          from: '2026-11-01',
          to: '2026-11-30',
          contacted: 210,
          replied: 40,
          reply_rate: 40 / 200,
          bounce_rate: 10 / 210,
        }),
      ]);
      const all = await h.run(
        ['history', 'report', '--company', 'Acme Ltd', '--columns', 'from,contacted,reply_rate'],
        inDir(dir),
      );
      expect(lines(all.stdout)).toEqual(['2026-10-01\t410\t0.05', '2026-11-01\t210\t0.2']);
      const unknown = await h.run(['history', 'report', '--company', 'Nobody Ltd'], inDir(dir));
      expect(unknown.code).toBe(2);
    },
    SLOW,
  );
});

/** Makes `dir` read-only, even for root (an immutable directory); undone when the test finishes. */
function readOnly(dir: string): void {
  if (process.getuid?.() === 0) {
    const made = spawnSync('chattr', ['+i', dir]);
    if (made.status !== 0) throw new Error(`chattr +i failed: ${made.stderr}`);
    onTestFinished(() => {
      spawnSync('chattr', ['-i', dir]);
    });
  } else {
    chmodSync(dir, 0o500);
    onTestFinished(() => chmodSync(dir, 0o700));
  }
  mkdirSync(dir, { recursive: true });
}
