/**
 * Where a profile's key is kept, as seen without a usable keyring (every test process has a D-Bus
 * address that leads nowhere: test/setup/no-keyring.ts): login falls back to the file with a note,
 * --storage keyring saves nothing, a profile whose key is in the keyring lists as such and fails with
 * exit 3 when a command needs its key. The real Secret Service is in test/e2e/keyring.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CANARY_KEY, type Harness, writeConfig } from '../helpers/cli.js';
import { sent, startCoreHarness } from '../helpers/core.js';

let h: Harness;
let tmp: string;
let count = 0;

beforeAll(async () => {
  h = await startCoreHarness({}, { inProcess: true });
  tmp = mkdtempSync(join(tmpdir(), 'agency-key-storage-'));
});
afterAll(async () => {
  await h.close();
  rmSync(tmp, { recursive: true, force: true });
});
beforeEach(() => h.sandbox.reset());

function dirWith(data: unknown): string {
  count += 1;
  const dir = join(tmp, `cfg-${count}`);
  writeConfig(dir, data);
  return dir;
}
const readJson = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
const inKeyring = () => ({ api_key_storage: 'keyring', base_url: h.sandbox.baseUrl });

describe('key storage without a usable keyring', () => {
  it('login keeps the key in the file, with a note saying why', async () => {
    const dir = dirWith({ current: 'default', profiles: {} });
    const r = await h.run(['login', '--base-url', h.sandbox.baseUrl], {
      env: { AGENCY_CONFIG_DIR: dir },
      input: CANARY_KEY,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^note: No usable system keyring: .+\. The key is kept in the config file .+config\.json \(mode 0600\)\.$/m,
    );
    expect(r.stderr).toContain('Saved the key in profile "default" (current), in the config file.');
    expect(readJson(dir).profiles.default).toEqual({ api_key: CANARY_KEY, base_url: h.sandbox.baseUrl });
  });

  it('login --storage file says nothing about the keyring', async () => {
    const dir = dirWith({ current: 'default', profiles: {} });
    const r = await h.run(['login', '--storage', 'file', '--no-verify'], {
      env: { AGENCY_CONFIG_DIR: dir },
      input: CANARY_KEY,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('keyring');
  });

  it('login --storage keyring is exit 1 saying why, and saves nothing', async () => {
    const data = { current: 'a', profiles: { a: { base_url: h.sandbox.baseUrl } } };
    const dir = dirWith(data);
    const r = await h.run(['login', '-p', 'a', '--storage', 'keyring'], {
      env: { AGENCY_CONFIG_DIR: dir },
      input: CANARY_KEY,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: Cannot save the key in the system keyring: .+\. Nothing was saved\.$/m);
    expect(r.stderr).toMatch(/^hint: .*--storage file/m);
    expect(readJson(dir)).toEqual(data);
  });

  it('an unknown --storage is a usage error naming the two', async () => {
    const dir = dirWith({ current: 'default', profiles: {} });
    const r = await h.run(['login', '--storage', 'vault'], {
      env: { AGENCY_CONFIG_DIR: dir },
      input: CANARY_KEY,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('valid: keyring, file');
    expect(sent(h.sandbox)).toEqual([]);
  });

  it('profiles list shows a keyring profile as such, with no key, and reads nothing', async () => {
    const dir = dirWith({ current: 'kr', profiles: { kr: inKeyring(), f: { api_key: CANARY_KEY } } });
    const r = await h.run(['profiles', 'list'], { env: { AGENCY_CONFIG_DIR: dir } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`kr\ttrue\t${h.sandbox.baseUrl}\t\tkeyring\nf\tfalse\t\twpk_…RY99\tfile\n`);
    expect(r.stderr).toBe('');
  });

  it('a command that needs a key in an unreachable keyring: exit 3 with a hint, nothing sent', async () => {
    const dir = dirWith({ current: 'kr', profiles: { kr: inKeyring() } });
    const r = await h.run(['companies', 'list'], { env: { AGENCY_CONFIG_DIR: dir } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^error: Cannot read the key of profile "kr" from the system keyring: /m);
    expect(r.stderr).toMatch(/^hint: The keyring service could not be reached.*--storage file/m);
    expect(sent(h.sandbox)).toEqual([]);
  });

  it('the key is read before a command starts: a create stops at once, not as a lost answer', async () => {
    const dir = dirWith({ current: 'kr', profiles: { kr: inKeyring() } });
    const r = await h.run(['companies', 'create', '--name', 'Keyring Test Ltd'], {
      env: { AGENCY_CONFIG_DIR: dir },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^error: Cannot read the key of profile "kr" from the system keyring: /m);
    expect(r.stderr).not.toMatch(/lost|unknown/i);
    expect(sent(h.sandbox)).toEqual([]);
  });

  it('AGENCY_API_KEY is used instead of the keyring', async () => {
    const dir = dirWith({ current: 'kr', profiles: { kr: inKeyring() } });
    const r = await h.run(['me'], { env: { AGENCY_CONFIG_DIR: dir, AGENCY_API_KEY: CANARY_KEY } });
    expect(r.code, r.stderr).toBe(0);
  });

  it('logout of a key in an unreachable keyring: the profile lets go of it, and says how to delete it', async () => {
    const dir = dirWith({ current: 'kr', profiles: { kr: inKeyring() } });
    const r = await h.run(['logout'], { env: { AGENCY_CONFIG_DIR: dir } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: The key of profile "kr" is still in the system keyring/m);
    expect(r.stderr).toContain(`secret-tool clear service agency-cli username 'kr@${dir}'`);
    expect(readJson(dir).profiles.kr).toEqual({ base_url: h.sandbox.baseUrl });
  });

  it('a config file with another api_key_storage is damaged, and left as it is', async () => {
    const data = { current: 'kr', profiles: { kr: { api_key_storage: 'vault' } } };
    const dir = dirWith(data);
    const r = await h.run(['me'], { env: { AGENCY_CONFIG_DIR: dir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('profile "kr" has an api_key_storage other than "keyring"');
    expect(readJson(dir)).toEqual(data);
  });
});
