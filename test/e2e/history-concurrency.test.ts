/**
 * Two runs at once (cron jobs that overlap), as separate processes of the built binary on one state
 * directory: every run is recorded and the file stays a sound SQLite database. The preload
 * test/fixtures/slow-history-write.mjs holds each writer in the middle of replacing the file, so the
 * runs really write at the same time: without the lock, runs are lost.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, ROOT, startHarness } from '../helpers/cli.js';

describe('the history store with runs at once', () => {
  let h: Harness;
  beforeAll(async () => {
    // 3 companies: what the runs record does not matter, only that they all get recorded.
    h = await startHarness({ seed: { companies: 3 } });
  });
  afterAll(() => h.close());

  it('four processes at once (health and deliverability): all recorded, the file intact', async () => {
    const state = join(h.configDir, '..', 'state');
    const preload = pathToFileURL(join(ROOT, 'test', 'fixtures', 'slow-history-write.mjs')).href;
    const env = {
      AGENCY_NO_HISTORY: undefined,
      AGENCY_STATE_DIR: state,
      NODE_OPTIONS: `--import=${preload}`,
      SLOW_HISTORY_MS: '400',
    };
    const commands = [
      ['health', '--fail-on', 'none'],
      ['health', '--fail-on', 'none'],
      ['deliverability'],
      ['health', '--fail-on', 'none', '--new'],
    ];
    const runs = await Promise.all(commands.map((args) => h.spawn(args, { env, timeoutMs: 60_000 }).result));
    for (const r of runs) {
      expect(r.code).toBe(0);
      expect(r.stderr).not.toMatch(/history/i);
      expect(r.stdout).not.toBe('');
    }
    const db = join(state, 'history.db');
    const sql = (query: string) => execFileSync('sqlite3', [db, query], { encoding: 'utf8' }).trim();
    expect(sql('PRAGMA integrity_check')).toBe('ok');
    expect(sql("SELECT command || ' ' || count(*) FROM runs GROUP BY command ORDER BY command")).toBe(
      'deliverability 1\nhealth 3',
    );
  });
});
