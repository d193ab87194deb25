/** The permissions of the config directory after a write: ours become 0700, a shared one is left alone. */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
});
