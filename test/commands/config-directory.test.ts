/**
 * The permissions of the config directory after a write: ours become 0700, a shared one is left alone.
 * A directory that cannot be made is a clean exit 2 naming it, also where Node's own recursive mkdir
 * would spin forever (under /proc).
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgency as spawnAndRun } from '../helpers/cli.js';
import { sharedInProcessHarness } from '../helpers/core.js';
import { runInProcess as runAgency } from '../helpers/in-process.js';

const shared = sharedInProcessHarness();

describe('config directory', () => {
  it('a directory of ours that existed with looser permissions ends up 0700 after a write', async () => {
    const dir = join(shared.tmp, 'loose');
    mkdirSync(dir, { mode: 0o755 });
    const r = await runAgency(['login', '--no-verify', '-p', 'x'], {
      configDir: dir,
      input: 'wpk_key_0123456789\n',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('a directory that holds other files (AGENCY_CONFIG_DIR=$HOME) keeps its permissions', async () => {
    const dir = join(shared.tmp, 'home-like');
    mkdirSync(dir, { mode: 0o755 });
    writeFileSync(join(dir, '.bashrc'), '# not ours\n');
    const r = await runAgency(['login', '--no-verify', '-p', 'x'], {
      configDir: dir,
      input: 'wpk_key_0123456789\n',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(dir).mode & 0o777).toBe(0o755);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  // Spawned, with a deadline that kills it: the loop this guards against was synchronous and deaf to
  // SIGTERM, so in this process it would have hung the test run.
  it.skipIf(!existsSync('/proc/self'))(
    'a directory under /proc (which refuses new directories with ENOENT) fails at once, exit 2, naming it',
    async () => {
      for (const dir of ['/proc/agency-nope', '/proc/agency-nope/deeper']) {
        const started = Date.now();
        const r = await spawnAndRun(['login', '--no-verify', '-p', 'x'], {
          configDir: dir,
          input: 'wpk_key_0123456789\n',
          timeoutMs: 10_000,
        });
        expect(r.signal, 'killed at the deadline: it looped').toBeNull();
        expect(r.code).toBe(2);
        expect(Date.now() - started).toBeLessThan(9_000);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(
          /^error: Cannot create the config directory \/proc\/agency-nope(\/deeper)?: ENOENT/,
        );
        expect(r.stderr).toContain('AGENCY_CONFIG_DIR chooses another directory');
        expect(r.stderr).not.toMatch(/^\s+at /m);
      }
    },
  );
});
