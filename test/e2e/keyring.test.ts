/**
 * Keys in the system keyring, against a real Secret Service (gnome-keyring on a private D-Bus session,
 * test/helpers/secret-service.ts): login puts the key there and not in config.json, every command reads
 * it, logout and profiles remove delete it, login moves it between the keyring and the file, a locked
 * or vanished keyring is exit 3 with a hint, and without a session the file is used with a note. The
 * binary is spawned: the keyring library reads the D-Bus address from the process's own environment.
 */
import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  missingSecretServiceTools,
  type SecretService,
  startSecretService,
} from '../../scripts/secret-service.mjs';
import { CANARY_KEY, type Harness, startHarness } from '../helpers/cli.js';

const missing = missingSecretServiceTools();
if (missing.length > 0)
  console.warn(
    `keyring tests skipped: ${missing.join(', ')} not installed (Debian: gnome-keyring, dbus, libsecret-tools)`,
  );

describe.skipIf(missing.length > 0)('keys in the system keyring (a real Secret Service)', () => {
  let h: Harness;
  let service: SecretService;
  const item = () => ({ service: 'agency-cli', username: `kr@${h.configDir}` });
  const inService = () => service.env;
  const login = (args: string[], env = inService()) =>
    h.run(['login', '-p', 'kr', '--base-url', h.sandbox.baseUrl, ...args], { input: CANARY_KEY, env });

  beforeAll(async () => {
    h = await startHarness();
    service = await startSecretService();
  });
  afterAll(async () => {
    await service?.close();
    await h?.close();
  });

  it('login keeps the key in the keyring, not in config.json, and says so', async () => {
    const r = await login([]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Saved the key in profile "kr" (use it with -p kr), in the system keyring.');
    expect((h.readConfig() as { profiles: Record<string, unknown> }).profiles.kr).toEqual({
      api_key_storage: 'keyring',
      base_url: h.sandbox.baseUrl,
    });
    expect(service.lookup(item())).toBe(CANARY_KEY);
    expect(service.search(item())).toContain(`attribute.username = kr@${h.configDir}`);
  });

  it('every command reads the key from there; --debug never shows it', async () => {
    h.sandbox.requests.length = 0;
    for (const args of [
      ['me', '--json'],
      ['companies', 'list'],
      ['me', '--debug'],
    ]) {
      const r = await h.run(['-p', 'kr', ...args], { env: inService() });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    expect(h.requests().every((request) => request.headers['x-api-key'] === CANARY_KEY)).toBe(true);
    expect(h.requests().length).toBeGreaterThanOrEqual(3);
  });

  it('auth token prints the key alone on stdout, for AGENCY_API_KEY', async () => {
    const r = await h.run(['auth', 'token', '-p', 'kr'], { env: inService(), allowCanary: 'stdout' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${CANARY_KEY}\n`);
    expect(r.stderr).toBe('');
  });

  it('profiles list says where each key is, without reading the keyring', async () => {
    const r = await h.run(['profiles', 'list', '--json'], { env: inService() });
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as { name: string; key: string | null; key_storage: string | null }[];
    expect(rows.find((row) => row.name === 'kr')).toMatchObject({ key: null, key_storage: 'keyring' });
    expect(rows.find((row) => row.name === 'test')).toMatchObject({ key_storage: 'file' });
  });

  it('login --storage file moves the key to the file and deletes the keyring item; keyring moves it back', async () => {
    const toFile = await login(['--storage', 'file']);
    expect(toFile.code, toFile.stderr).toBe(0);
    expect(toFile.stderr).toContain('in the config file.');
    const profiles = () => (h.readConfig() as { profiles: Record<string, Record<string, string>> }).profiles;
    expect(profiles().kr).toEqual({ api_key: CANARY_KEY, base_url: h.sandbox.baseUrl });
    expect(service.lookup(item())).toBeUndefined();
    expect(statSync(h.configFile()).mode & 0o777).toBe(0o600);

    const back = await login(['--storage', 'keyring']);
    expect(back.code, back.stderr).toBe(0);
    expect(profiles().kr).toEqual({ api_key_storage: 'keyring', base_url: h.sandbox.baseUrl });
    expect(service.lookup(item())).toBe(CANARY_KEY);
  });

  it('logout deletes the keyring item; secret-tool no longer finds it', async () => {
    const r = await h.run(['logout', '-p', 'kr'], { env: inService() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Removed the key of profile "kr" from the system keyring.');
    expect(service.lookup(item())).toBeUndefined();
    expect(service.search(item())).not.toContain('kr@');
    expect((h.readConfig() as { profiles: Record<string, unknown> }).profiles.kr).toEqual({
      base_url: h.sandbox.baseUrl,
    });
  });

  it('profiles remove deletes the keyring item too (with --yes, as there is no terminal)', async () => {
    expect((await login([])).code).toBe(0);
    const refused = await h.run(['profiles', 'remove', 'kr'], { env: inService() });
    expect(refused.code).toBe(2);
    expect(service.lookup(item())).toBe(CANARY_KEY);
    const r = await h.run(['profiles', 'remove', 'kr', '--yes'], { env: inService() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Removed profile "kr" and its key.');
    expect(service.lookup(item())).toBeUndefined();
  });

  it('a locked keyring: a command that needs the key is exit 3 with a hint, nothing sent; others run', async () => {
    expect((await login([])).code).toBe(0);
    service.lock();
    h.sandbox.requests.length = 0;
    const r = await h.run(['-p', 'kr', 'me'], { env: inService() });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /^error: Cannot read the key of profile "kr" from the system keyring: .*unlock/m,
    );
    expect(r.stderr).toMatch(/^hint: Unlock the keyring/m);
    expect(h.requests()).toEqual([]);
    const list = await h.run(['profiles', 'list'], { env: inService() });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr).toBe('');
  });

  it('AGENCY_API_KEY overrides the profile: the keyring is not asked', async () => {
    const r = await h.run(['-p', 'kr', 'me'], { env: { ...inService(), AGENCY_API_KEY: CANARY_KEY } });
    expect(r.code, r.stderr).toBe(0);
  });

  it('a vanished keyring (its daemon killed): exit 3 saying it cannot be reached; --storage keyring saves nothing', async () => {
    await service.kill();
    const r = await h.run(['-p', 'kr', 'me'], { env: inService() });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('no Secret Service answers on the D-Bus session bus');
    expect(r.stderr).toMatch(/^hint: The keyring service could not be reached/m);

    const before = JSON.stringify(h.readConfig());
    const refused = await h.run(['login', '-p', 'other', '--storage', 'keyring', '--no-verify'], {
      input: CANARY_KEY,
      env: inService(),
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^error: Cannot save the key in the system keyring: .*Nothing was saved\./m,
    );
    expect(JSON.stringify(h.readConfig())).toBe(before);
  });

  it('without a D-Bus session the key goes to the config file, with a note saying why', async () => {
    const r = await h.run(['login', '-p', 'plain', '--no-verify'], {
      input: CANARY_KEY,
      env: { DBUS_SESSION_BUS_ADDRESS: undefined },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'note: No usable system keyring: DBUS_SESSION_BUS_ADDRESS is not set, so there is no Secret Service to ask.',
    );
    expect(r.stderr).toContain('in the config file.');
    expect((h.readConfig() as { profiles: Record<string, unknown> }).profiles.plain).toEqual({
      api_key: CANARY_KEY,
    });
  });
});
