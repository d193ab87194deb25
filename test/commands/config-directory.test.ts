/** The permissions of the config directory after a write: ours become 0700, a shared one is left alone. */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/cli.js';
import { startCoreHarness } from '../helpers/core.js';
import { runInProcess as runAgency } from '../helpers/in-process.js';

let h: Harness;
let tmp: string;
beforeAll(async () => {
  // The program runs in this process (test/helpers/in-process.ts).
  h = await startCoreHarness({}, { inProcess: true });
  tmp = mkdtempSync(join(tmpdir(), 'agency-commands-'));
});
afterAll(async () => {
  await h.close();
  rmSync(tmp, { recursive: true, force: true });
});
beforeEach(() => h.sandbox.reset());

describe('config directory', () => {
  it('a directory of ours that existed with looser permissions ends up 0700 after a write', async () => {
    const dir = join(tmp, 'loose');
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
    const dir = join(tmp, 'home-like');
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
