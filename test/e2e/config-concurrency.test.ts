/**
 * The config file under concurrency and crashes: parallel `login` processes must not lose each
 * other's profiles (the lock), and a process killed in the middle of writing must leave the previous
 * file intact (temp file + rename). The crash is made deterministic from the outside: the preload
 * test/fixtures/slow-config-write.mjs wraps node:fs in the agency process so that its config write
 * stops halfway (and says so in a marker file) until the test releases or kills it.
 */
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runAgency, spawnAgency, writeConfig } from '../helpers/cli.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function freshDir(): string {
  const root = mkdtempSync(join(tmpdir(), 'agency-config-'));
  roots.push(root);
  return join(root, 'nested', 'config');
}

const keyOf = (name: string) => `wpk_hq_${name}_0123456789abcdef`;

interface Config {
  current: string;
  profiles: Record<string, { api_key?: string; base_url?: string }>;
}
const read = (dir: string): Config => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));

function login(dir: string, profile: string, env: Record<string, string> = {}) {
  return runAgency(['login', '--no-verify', '-p', profile], {
    configDir: dir,
    input: `${keyOf(profile)}\n`,
    env,
    timeoutMs: 60_000,
  });
}

/** Environment that loads the preload into the agency process (the harness spawns `node bin/agency.js`). */
function slowWrites(vars: Record<string, string>): Record<string, string> {
  const preload = pathToFileURL(join(ROOT, 'test', 'fixtures', 'slow-config-write.mjs')).href;
  return { NODE_OPTIONS: `--import=${preload}`, ...vars };
}

async function waitFor(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Six processes at once: without the lock (tried with the lock taken out), six logins lost profiles in
 * every run with one of the two cores free (another job held the other), four only in some. Ten did no
 * better: with both cores taken by other work the processes run one after another, and then neither six
 * nor ten collide; the deterministic proof of the lock is "a second writer waits for the lock" below.
 */
const RACERS = 6;

describe('config file concurrency', () => {
  it('6 logins at once into a new config directory leave 6 profiles, 0600 in a 0700 directory', async () => {
    const dir = freshDir();
    const profiles = Array.from({ length: RACERS }, (_, i) => `p${String(i + 1).padStart(2, '0')}`);
    const results = await Promise.all(profiles.map((p) => login(dir, p)));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const config = read(dir);
    expect(Object.keys(config.profiles).sort()).toEqual(profiles);
    for (const p of profiles) expect(config.profiles[p]?.api_key).toBe(keyOf(p));
    expect(profiles).toContain(config.current);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    // No lock or temporary file is left behind.
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('6 logins at once keep the existing profile and the current one, and tighten a loose file mode', async () => {
    const dir = freshDir();
    writeConfig(dir, {
      current: 'main',
      profiles: { main: { api_key: keyOf('main'), base_url: 'http://127.0.0.1:9/rest' } },
    });
    chmodSync(join(dir, 'config.json'), 0o644);
    const profiles = Array.from({ length: RACERS }, (_, i) => `ci-${i + 1}`);
    const results = await Promise.all(profiles.map((p) => login(dir, p)));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const config = read(dir);
    expect(Object.keys(config.profiles).sort()).toEqual(['main', ...profiles].sort());
    expect(config.current).toBe('main');
    expect(config.profiles.main).toEqual({ api_key: keyOf('main'), base_url: 'http://127.0.0.1:9/rest' });
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('a second writer waits for the lock instead of overwriting the first one (read-modify-write is serialised)', async () => {
    const dir = freshDir();
    writeConfig(dir, { current: 'main', profiles: { main: { api_key: keyOf('main') } } });
    const before = readFileSync(join(dir, 'config.json'));
    const midWrite = join(dir, '..', 'slow-is-mid-write');
    const release = join(dir, '..', 'release-slow');
    const lockBusy = join(dir, '..', 'fast-found-the-lock-taken');
    // The first writer holds the lock and stops halfway through writing the new file.
    const slow = spawnAgency(['login', '--no-verify', '-p', 'slow'], {
      configDir: dir,
      input: `${keyOf('slow')}\n`,
      env: slowWrites({ SLOW_WRITE_MARKER: midWrite, SLOW_WRITE_RELEASE: release }),
      timeoutMs: 60_000,
    });
    await waitFor('the first writer is mid-write', () => existsSync(midWrite));
    const fast = spawnAgency(['login', '--no-verify', '-p', 'fast'], {
      configDir: dir,
      input: `${keyOf('fast')}\n`,
      env: slowWrites({ LOCK_BUSY_MARKER: lockBusy }),
      timeoutMs: 60_000,
    });
    await waitFor('the second writer found the lock taken', () => existsSync(lockBusy));
    expect(readFileSync(join(dir, 'config.json')).equals(before)).toBe(true);
    writeFileSync(release, '');
    const [first, second] = await Promise.all([slow.result, fast.result]);
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    // The second one read the file only once the first had written it.
    expect(Object.keys(read(dir).profiles).sort()).toEqual(['fast', 'main', 'slow']);
  }, 60_000);

  it('a login killed mid-write leaves the previous file intact, and the next login recovers at once', async () => {
    const dir = freshDir();
    writeConfig(dir, {
      current: 'main',
      profiles: {
        main: { api_key: keyOf('main'), base_url: 'http://127.0.0.1:9/rest' },
        other: { api_key: keyOf('other') },
      },
    });
    const file = join(dir, 'config.json');
    const before = readFileSync(file);
    const midWrite = join(dir, '..', 'crashy-is-mid-write');
    const crashing = spawnAgency(['login', '--no-verify', '-p', 'crashy'], {
      configDir: dir,
      input: `${keyOf('crashy')}\n`,
      // Never released: it stays halfway until killed.
      env: slowWrites({ SLOW_WRITE_MARKER: midWrite }),
      timeoutMs: 60_000,
    });
    await waitFor('the writer is mid-write', () => existsSync(midWrite));

    // While it is stuck halfway, readers see the complete previous file.
    const reader = await runAgency(['profiles', 'list', '--json'], { configDir: dir });
    expect(reader.code, reader.stderr).toBe(0);
    expect((JSON.parse(reader.stdout) as { name: string }[]).map((p) => p.name).sort()).toEqual([
      'main',
      'other',
    ]);

    crashing.child.kill('SIGKILL');
    const crashed = await crashing.result;
    expect(crashed.signal).toBe('SIGKILL');

    expect(readFileSync(file).equals(before), 'config.json must be exactly the previous file').toBe(true);
    expect(Object.keys(read(dir).profiles).sort()).toEqual(['main', 'other']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // What the crash left: the lock, and the half-written temporary file it was writing (so it really
    // died mid-write), which holds keys and so is 0600 too.
    const temp = basename(readFileSync(midWrite, 'utf8'));
    expect(readdirSync(dir).sort()).toEqual(['config.json', 'config.json.lock', temp].sort());
    const partial = readFileSync(join(dir, temp), 'utf8');
    expect(partial.length).toBeGreaterThan(0);
    expect(() => JSON.parse(partial)).toThrow();
    expect(statSync(join(dir, temp)).mode & 0o777).toBe(0o600);

    // The lock's owner is dead: that alone must free it. (Its age cannot: its mtime is in the future.)
    const future = new Date(Date.now() + 3_600_000);
    utimesSync(join(dir, 'config.json.lock'), future, future);
    const next = await login(dir, 'after');
    expect(next.code, next.stderr).toBe(0);
    const config = read(dir);
    expect(Object.keys(config.profiles).sort()).toEqual(['after', 'main', 'other']);
    expect(config.profiles.main).toEqual({ api_key: keyOf('main'), base_url: 'http://127.0.0.1:9/rest' });
    expect(config.current).toBe('main');
    // ...and it cleared the leftovers.
    expect(readdirSync(dir)).toEqual(['config.json']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  }, 60_000);

  it('profiles use and remove under concurrent logins keep every other profile', async () => {
    const dir = freshDir();
    writeConfig(dir, {
      current: 'a',
      profiles: { a: { api_key: keyOf('a') }, b: { api_key: keyOf('b') }, gone: { api_key: keyOf('gone') } },
    });
    const runs = [
      ...Array.from({ length: RACERS }, (_, i) => login(dir, `new-${i}`)),
      runAgency(['profiles', 'use', 'b'], { configDir: dir, timeoutMs: 60_000 }),
      runAgency(['profiles', 'remove', 'gone', '--yes'], { configDir: dir, timeoutMs: 60_000 }),
    ];
    for (const r of await Promise.all(runs)) expect(r.code, r.stderr).toBe(0);
    const config = read(dir);
    expect(Object.keys(config.profiles).sort()).toEqual(
      ['a', 'b', ...Array.from({ length: RACERS }, (_, i) => `new-${i}`)].sort(),
    );
    expect(config.current).toBe('b');
  });
});
