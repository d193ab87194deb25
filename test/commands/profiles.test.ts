/**
 * Keys, profiles and the config file: authentication errors, the precedence of flags, environment and
 * profile, `login`, `logout`, `profiles list | use | remove`, and a damaged config file.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { CANARY_KEY, type Harness, jsonError, type RunResult, writeConfig } from '../helpers/cli.js';
import { activeCompany, expectNoSecrets, lines, sent, startCoreHarness, teammate } from '../helpers/core.js';

/** The program runs in this process (test/helpers/in-process.ts); spawn() still starts the binary. */
const IN_PROCESS = { inProcess: true };

let h: Harness;
/** A second service, to tell which base URL a request went to. */
let other: Sandbox;
let tmp: string;
let dirCount = 0;

beforeAll(async () => {
  h = await startCoreHarness({}, IN_PROCESS);
  other = await startSandbox({ hqKey: CANARY_KEY });
  tmp = mkdtempSync(join(tmpdir(), 'agency-profiles-'));
});
afterAll(async () => {
  await Promise.all([h.close(), other.close()]);
  rmSync(tmp, { recursive: true, force: true });
});
beforeEach(() => {
  h.sandbox.reset();
  other.reset();
});

/** A config directory that does not exist yet. */
function freshDir(): string {
  dirCount += 1;
  return join(tmp, `cfg-${dirCount}`, 'agency');
}

/** A config directory holding `data`. */
function dirWith(data: unknown): string {
  const dir = freshDir();
  writeConfig(dir, data);
  return dir;
}

const configText = (dir: string) => readFileSync(join(dir, 'config.json'), 'utf8');
const readJson = (dir: string) => JSON.parse(configText(dir));
const run = (dir: string, args: string[], env: Record<string, string | undefined> = {}, input?: string) =>
  h.run(args, { env: { AGENCY_CONFIG_DIR: dir, ...env }, input });

/** Nothing reached either service. */
function expectNothingSent(): void {
  expect(sent(h.sandbox)).toEqual([]);
  expect(sent(other)).toEqual([]);
}

const twoProfiles = () =>
  dirWith({
    current: 'test',
    profiles: {
      test: { api_key: CANARY_KEY, base_url: h.sandbox.baseUrl },
      other: { api_key: CANARY_KEY, base_url: other.baseUrl },
    },
  });

describe('authentication', () => {
  it('without any key (no config file, no AGENCY_API_KEY): exit 3 with a hint, nothing sent', async () => {
    const r = await run(freshDir(), ['companies', 'list'], { AGENCY_BASE_URL: h.sandbox.baseUrl });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/no api key/i);
    expect(r.stderr).toMatch(/hint:.*agency login.*AGENCY_API_KEY/);
    expectNothingSent();
  });

  it('a profile without a key is the same; with --json the error has status null', async () => {
    const dir = dirWith({ current: 'nokey', profiles: { nokey: { base_url: h.sandbox.baseUrl } } });
    const r = await run(dir, ['me', '--json']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(jsonError(r.stderr).error).toMatchObject({ status: null, title: null, detail: null });
    expect(jsonError(r.stderr).error.message).toContain('nokey');
    expectNothingSent();
  });

  it('a wrong key is answered 401: exit 3, and the wrong key is not echoed', async () => {
    const wrong = 'wpk_hq_WRONG0000000000000000000000';
    const r = await h.run(['companies', 'list'], { env: { AGENCY_API_KEY: wrong } });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('401');
    expect(r.stderr).toMatch(/hint:.*(login|AGENCY_API_KEY)/);
    expect(sent(h.sandbox).map((q) => [q.headers['x-api-key'], q.status])).toEqual([[wrong, 401]]);
  });

  it("AGENCY_API_KEY overrides the profile's key", async () => {
    const tom = teammate(h.sandbox);
    const r = await h.run(['me', '--json'], { env: { AGENCY_API_KEY: tom.hqKey } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).name).toBe(tom.name);
    expect(sent(h.sandbox).map((q) => q.headers['x-api-key'])).toEqual([tom.hqKey]);
  });
});

describe('precedence of the base URL: flag > AGENCY_BASE_URL > profile', () => {
  it('the profile decides when nothing else is given', async () => {
    const r = await h.run(['me']);
    expect(r.code, r.stderr).toBe(0);
    expect(sent(h.sandbox)).toHaveLength(1);
    expect(sent(other)).toEqual([]);
  });

  it('AGENCY_BASE_URL beats the profile', async () => {
    const r = await h.run(['me'], { env: { AGENCY_BASE_URL: other.baseUrl } });
    expect(r.code, r.stderr).toBe(0);
    expect(sent(other).map((q) => q.path)).toEqual(['/v1/me']);
    expect(sent(h.sandbox)).toEqual([]);
  });

  it('--base-url beats AGENCY_BASE_URL, before or after the command', async () => {
    for (const args of [
      ['--base-url', h.sandbox.baseUrl, 'me'],
      ['me', '--base-url', h.sandbox.baseUrl],
    ]) {
      h.sandbox.reset();
      const r = await h.run(args, { env: { AGENCY_BASE_URL: other.baseUrl } });
      expect(r.code, r.stderr).toBe(0);
      expect(sent(h.sandbox).map((q) => q.path)).toEqual(['/v1/me']);
      expect(sent(other)).toEqual([]);
    }
  });

  it.each([
    ['a flag', ['--base-url', 'not a url'], {}],
    ['a flag with another scheme', ['--base-url', 'ftp://files.example/rest'], {}],
    ['AGENCY_BASE_URL', [], { AGENCY_BASE_URL: 'http//missing-colon/rest' }],
  ])('a malformed base URL from %s is a usage error and nothing is sent', async (_from, flags, env) => {
    const r = await h.run([...flags, 'me'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/base URL/i);
    expectNothingSent();
  });

  it('a malformed base URL saved in the profile is a usage error too', async () => {
    const dir = dirWith({ current: 'bad', profiles: { bad: { api_key: CANARY_KEY, base_url: 'nonsense' } } });
    const r = await run(dir, ['me']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/base URL/i);
    expectNothingSent();
  });
});

describe('selecting a profile', () => {
  it('AGENCY_PROFILE selects a profile; -p beats it', async () => {
    const dir = twoProfiles();
    const byEnv = await run(dir, ['me'], { AGENCY_PROFILE: 'other' });
    expect(byEnv.code, byEnv.stderr).toBe(0);
    expect(sent(other)).toHaveLength(1);
    expect(sent(h.sandbox)).toEqual([]);

    other.reset();
    const byFlag = await run(dir, ['-p', 'test', 'me'], { AGENCY_PROFILE: 'other' });
    expect(byFlag.code, byFlag.stderr).toBe(0);
    expect(sent(h.sandbox)).toHaveLength(1);
    expect(sent(other)).toEqual([]);

    h.sandbox.reset();
    const long = await run(dir, ['me', '--profile', 'other']);
    expect(long.code, long.stderr).toBe(0);
    expect(sent(other)).toHaveLength(1);
  });

  it.each([
    ['-p', ['-p', 'nope'], {}],
    ['AGENCY_PROFILE', [], { AGENCY_PROFILE: 'nope' }],
    ['-p, even with AGENCY_API_KEY set', ['-p', 'nope'], { AGENCY_API_KEY: CANARY_KEY }],
  ])('an unknown profile named by %s is a usage error naming the known ones', async (_by, flags, env) => {
    const dir = twoProfiles();
    const before = configText(dir);
    const r = await run(dir, [...flags, 'companies', 'list'], env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('"nope"');
    expect(r.stderr).toMatch(/test.*other|other.*test/);
    expectNothingSent();
    expect(configText(dir)).toBe(before);
  });
});

describe('login', () => {
  it('reads the key from stdin, verifies it with GET /v1/me using that key, and saves it (0600 in 0700)', async () => {
    const tom = teammate(h.sandbox);
    const dir = freshDir();

    const r = await run(dir, ['login', '--base-url', h.sandbox.baseUrl], {}, `${tom.hqKey}\n`);

    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(tom.name);
    expect(sent(h.sandbox).map((q) => [q.method, q.path, q.headers['x-api-key']])).toEqual([
      ['GET', '/v1/me', tom.hqKey],
    ]);
    expect(readJson(dir)).toEqual({
      current: 'default',
      profiles: { default: { api_key: tom.hqKey, base_url: h.sandbox.baseUrl } },
    });
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);

    // The saved profile works.
    h.sandbox.reset();
    const me = await run(dir, ['me', '--json']);
    expect(JSON.parse(me.stdout).name).toBe(tom.name);
  });

  it('--no-verify saves the key without sending anything', async () => {
    const dir = freshDir();
    const r = await run(
      dir,
      ['login', '--no-verify', '-p', 'ci', '--base-url', other.baseUrl],
      {},
      'wpk_unchecked_key_123\n',
    );
    expect(r.code, r.stderr).toBe(0);
    expectNothingSent();
    expect(readJson(dir).profiles.ci).toEqual({ api_key: 'wpk_unchecked_key_123', base_url: other.baseUrl });
    expect(r.stderr).not.toContain('wpk_unchecked_key_123');
  });

  it('a client key: login says what it works for (campaigns among them), and campaigns does work with it', async () => {
    const company = activeCompany(h.sandbox);
    const clientKey = h.sandbox.store.keysOf(company.id)[0]?.key as string;
    const dir = freshDir();
    const r = await run(dir, ['login', '--base-url', h.sandbox.baseUrl], {}, `${clientKey}\n`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.replace(/\s+/g, ' ')).toContain(
      'A client key works for me, mailboxes, webhooks and campaigns; companies, keys, inventory and the other agency commands need an HQ key.',
    );
    const campaigns = await run(dir, ['campaigns']);
    expect(campaigns.code, campaigns.stderr).toBe(0);
  });

  it('a wrong key is not saved: exit 3 and the config file is unchanged', async () => {
    const dir = twoProfiles();
    const before = configText(dir);
    const wrong = 'wpk_hq_NOTAKEY999999999999999999';

    const r = await run(dir, ['login', '-p', 'other'], {}, `${wrong}\n`);

    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain(wrong);
    expect(configText(dir)).toBe(before);
    expect(sent(other).map((q) => [q.path, q.headers['x-api-key'], q.status])).toEqual([
      ['/v1/me', wrong, 401],
    ]);
  });

  it('keeps the other profiles, and does not silently switch away from a current profile that has a key', async () => {
    const dir = twoProfiles();
    const r = await run(dir, ['login', '--no-verify', '-p', 'ci'], {}, 'wpk_ci_key_000000\n');
    expect(r.code, r.stderr).toBe(0);
    const config = readJson(dir);
    expect(config.current).toBe('test');
    expect(Object.keys(config.profiles).sort()).toEqual(['ci', 'other', 'test']);
    expect(config.profiles.ci).toEqual({ api_key: 'wpk_ci_key_000000' });
    expect(config.profiles.test).toEqual({ api_key: CANARY_KEY, base_url: h.sandbox.baseUrl });
  });

  it('an empty stdin is a usage error and saves nothing', async () => {
    const dir = freshDir();
    const r = await run(dir, ['login', '--no-verify'], {}, '\n');
    expect(r.code).toBe(2);
    expect(() => statSync(join(dir, 'config.json'))).toThrow();
  });

  it.runIf(process.platform === 'linux')(
    'without AGENCY_CONFIG_DIR the file goes to $XDG_CONFIG_HOME/agency, else ~/.config/agency',
    async () => {
      const xdg = join(tmp, 'xdg');
      const home = join(tmp, 'home');
      mkdirSync(home, { recursive: true });
      const a = await h.run(['login', '--no-verify'], {
        env: { AGENCY_CONFIG_DIR: undefined, XDG_CONFIG_HOME: xdg, HOME: home },
        input: 'wpk_xdg_key_0000\n',
      });
      expect(a.code, a.stderr).toBe(0);
      expect(readJson(join(xdg, 'agency')).profiles.default.api_key).toBe('wpk_xdg_key_0000');

      const b = await h.run(['login', '--no-verify'], {
        env: { AGENCY_CONFIG_DIR: undefined, XDG_CONFIG_HOME: undefined, HOME: home },
        input: 'wpk_home_key_0000\n',
      });
      expect(b.code, b.stderr).toBe(0);
      expect(readJson(join(home, '.config', 'agency')).profiles.default.api_key).toBe('wpk_home_key_0000');
    },
  );
});

describe('logout', () => {
  it("removes only the profile's key: base URL, other profiles and the current profile stay", async () => {
    const dir = twoProfiles();
    const r = await run(dir, ['logout']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(readJson(dir)).toEqual({
      current: 'test',
      profiles: {
        test: { base_url: h.sandbox.baseUrl },
        other: { api_key: CANARY_KEY, base_url: other.baseUrl },
      },
    });
    expectNothingSent();

    const after = await run(dir, ['me']);
    expect(after.code).toBe(3);
    expectNothingSent();
  });

  it('-p selects the profile; an unknown one is a usage error', async () => {
    const dir = twoProfiles();
    expect((await run(dir, ['logout', '-p', 'other'])).code).toBe(0);
    expect(readJson(dir).profiles.other).toEqual({ base_url: other.baseUrl });
    expect(readJson(dir).profiles.test.api_key).toBe(CANARY_KEY);

    const before = configText(dir);
    const r = await run(dir, ['logout', '-p', 'nope']);
    expect(r.code).toBe(2);
    expect(configText(dir)).toBe(before);
  });
});

describe('profiles', () => {
  const longKey = 'wpk_hq_SECRETMIDDLE_0123456789_abcdefXYZ9';

  /** No run of five characters of the key is shown: at most its first 4 and last 4 characters. */
  function expectMasked(r: RunResult, key: string): void {
    expect(r.stdout).not.toContain(key);
    expect(r.stderr).not.toContain(key);
    for (let i = 0; i + 5 <= key.length; i++) expect(r.stdout).not.toContain(key.slice(i, i + 5));
  }

  it('list shows name, current, base URL and a masked key, one TSV row per profile', async () => {
    const dir = dirWith({
      current: 'work',
      profiles: {
        work: { api_key: longKey, base_url: h.sandbox.baseUrl },
        canary: { api_key: CANARY_KEY },
        bare: {},
      },
    });

    const r = await run(dir, ['profiles', 'list']);

    expect(r.code, r.stderr).toBe(0);
    expectMasked(r, longKey);
    expectMasked(r, CANARY_KEY);
    const rows = lines(r.stdout).map((line) => line.split('\t'));
    expect(rows.map((row) => row.slice(0, 3))).toEqual([
      ['work', 'true', h.sandbox.baseUrl],
      ['canary', 'false', ''],
      ['bare', 'false', ''],
    ]);
    const masked = rows[0]?.[3] ?? '';
    expect(masked.startsWith(longKey.slice(0, 4))).toBe(true);
    expect(masked.endsWith(longKey.slice(-4))).toBe(true);
    expect(rows[2]?.[3] ?? '').toBe('');
    expectNothingSent();
  });

  it('list --json masks the keys as well', async () => {
    const dir = dirWith({ current: 'work', profiles: { work: { api_key: longKey } } });
    const r = await run(dir, ['profiles', 'list', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expectMasked(r, longKey);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
  });

  it('a short key is not shown at all', async () => {
    const dir = dirWith({ current: 'tiny', profiles: { tiny: { api_key: 'abcdefghi' } } });
    const r = await run(dir, ['profiles', 'list']);
    expect(r.code, r.stderr).toBe(0);
    expectMasked(r, 'abcdefghi');
  });

  it('use makes a profile current, so later commands go to its service', async () => {
    const dir = twoProfiles();
    const r = await run(dir, ['profiles', 'use', 'other']);
    expect(r.code, r.stderr).toBe(0);
    expect(readJson(dir).current).toBe('other');
    expect((await run(dir, ['me'])).code).toBe(0);
    expect(sent(other)).toHaveLength(1);
    expect(sent(h.sandbox)).toEqual([]);
  });

  it('remove deletes a profile and its key', async () => {
    const dir = twoProfiles();
    const r = await run(dir, ['profiles', 'remove', 'other', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(readJson(dir)).toEqual({
      current: 'test',
      profiles: { test: { api_key: CANARY_KEY, base_url: h.sandbox.baseUrl } },
    });
  });

  it.each([['use'], ['remove']])(
    '%s of an unknown profile is a usage error and changes nothing',
    async (verb) => {
      const dir = twoProfiles();
      const before = configText(dir);
      const r = await run(dir, ['profiles', verb, 'nope']);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('"nope"');
      expect(configText(dir)).toBe(before);
    },
  );
});

describe('a damaged config file', () => {
  const DAMAGE = [
    ['truncated JSON holding a key', `{"current":"test","profiles":{"test":{"api_key":"${CANARY_KEY}",`],
    ['an array', '[1, 2]'],
    ['a non-string current', '{"current": 5, "profiles": {}}'],
    ['a profile that is not an object', '{"current": "test", "profiles": {"test": "x"}}'],
    ['a non-string key', '{"current": "test", "profiles": {"test": {"api_key": 42}}}'],
  ] as const;
  type Command = [name: string, args: string[], input: string | undefined];
  const READ: Command = ['companies list', ['companies', 'list'], undefined];
  const LOGIN: Command = ['login --no-verify', ['login', '--no-verify'], 'wpk_replacement_key_000\n'];
  const EVERY: Command[] = [
    READ,
    LOGIN,
    ['login', ['login'], `${CANARY_KEY}\n`],
    ['logout', ['logout'], undefined],
    ['profiles list', ['profiles', 'list'], undefined],
    ['profiles use', ['profiles', 'use', 'test'], undefined],
    ['profiles remove', ['profiles', 'remove', 'test'], undefined],
  ];

  async function expectUntouched(text: string, commands: Command[]): Promise<void> {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, 'config.json');
    writeConfigText(file, text);
    for (const [name, args, input] of commands) {
      const r = await run(dir, args, { AGENCY_BASE_URL: h.sandbox.baseUrl }, input);
      expect(r.code, `${name}: ${r.stderr}`).toBe(2);
      expect(r.stdout, name).toBe('');
      expect(r.stderr, name).toContain(file);
      expect(r.stderr, name).toMatch(/damaged/i);
      expect(r.stderr, name).not.toMatch(/\n\s+at /); // no stack trace
      expectNoSecrets(r, h.sandbox);
      expect(readFileSync(file, 'utf8'), name).toBe(text);
    }
    expectNothingSent();
  }

  it('is reported with its path and left byte-for-byte untouched by every command, login included', async () => {
    await expectUntouched('this is { not json', EVERY);
  });

  it.each(DAMAGE)('(%s) is reported and left untouched', async (_what, text) => {
    await expectUntouched(text, [READ, LOGIN]);
  });

  it('with --json the error is one JSON object with status null', async () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeConfigText(join(dir, 'config.json'), '{oops');
    const r = await run(dir, ['companies', 'list', '--json']);
    expect(r.code).toBe(2);
    expect(jsonError(r.stderr).error.status).toBeNull();
    expect(jsonError(r.stderr).error.message).toContain(join(dir, 'config.json'));
  });
});

function writeConfigText(file: string, text: string): void {
  // writeConfig() would serialise; these files must hold exactly the damaged text.
  writeFileSync(file, text, { mode: 0o600 });
}

describe('--timeout / AGENCY_TIMEOUT', () => {
  it('a request with no answer within the deadline is abandoned (and, being a GET, tried again)', async () => {
    // The three at once, each against a sandbox of its own (its stall, its request log): each waits out
    // its one-second deadline.
    const cases = [
      [['--timeout', '1'], {}],
      [[], { AGENCY_TIMEOUT: '1' }],
      [['--timeout', '1'], { AGENCY_TIMEOUT: 'junk' }], // the flag wins; the variable is not even read
    ] as const;
    await Promise.all(
      cases.map(async ([flags, env]) => {
        const own = await startCoreHarness({}, IN_PROCESS);
        try {
          own.sandbox.addFault({ kind: 'stall', method: 'GET', path: '/v1/me', stallMs: 20_000, times: 1 });
          const r = await own.run([...flags, 'me', '--json'], { env });
          expect(r.code, r.stderr).toBe(0);
          expect(JSON.parse(r.stdout).account_type).toBe('HQ');
          expect(sent(own.sandbox).map((q) => q.path)).toEqual(['/v1/me', '/v1/me']);
        } finally {
          await own.close();
        }
      }),
    );
  });

  it.each([
    ['--timeout abc', ['--timeout', 'abc'], {}],
    ['--timeout 0', ['--timeout', '0'], {}],
    ['AGENCY_TIMEOUT=-5', [], { AGENCY_TIMEOUT: '-5' }],
  ])('%s is a usage error and nothing is sent', async (_what, flags, env) => {
    const r = await h.run([...flags, 'me'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/timeout/i);
    expectNothingSent();
  });
});
