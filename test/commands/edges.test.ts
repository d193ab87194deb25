/**
 * Edges found by reviewing the built binary against the contract: short keys echoed by a server, explicit
 * help, a pre-existing config directory, C1 controls in --json, profiles named only in the environment,
 * the missing-key hint, `inventory --inactive`, and help that fits an 80-column terminal.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, runAgency } from '../helpers/cli.js';
import { direct, sent, startCoreHarness } from '../helpers/core.js';

/** The program runs in this process (test/helpers/in-process.ts); spawn() still starts the binary. */
const IN_PROCESS = { inProcess: true };

let h: Harness;
let tmp: string;
beforeAll(async () => {
  h = await startCoreHarness({}, IN_PROCESS);
  tmp = mkdtempSync(join(tmpdir(), 'agency-edges-'));
});
afterAll(async () => {
  await h.close();
  rmSync(tmp, { recursive: true, force: true });
});
beforeEach(() => h.sandbox.reset());

describe('a server that echoes the key back', () => {
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      const detail = `Invalid api key ${req.headers['x-api-key']}`;
      res.end(
        JSON.stringify({ title: 'Unauthorized', status: 401, detail, timestamp: '2026-11-22 10:00:00' }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/rest`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('redacts even a short key, in the message and in the JSON error', async () => {
    const r = await runAgency(['me', '--json'], {
      configDir: join(tmp, 'echo'),
      env: { AGENCY_API_KEY: 'k1234', AGENCY_BASE_URL: baseUrl },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('[redacted]');
    expect(r.stderr).not.toMatch(/k1234/);
  });
});

describe('help that was asked for', () => {
  it('`agency help` and `agency help <command>` succeed; a missing subcommand is a usage error', async () => {
    const all = await h.run(['help']);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('Usage: agency');
    const me = await h.run(['help', 'me']);
    expect(me.code).toBe(0);
    expect(me.stdout).toContain('Usage: agency me');
    expect((await h.run(['companies'])).code).toBe(2);
    expect(sent(h.sandbox)).toHaveLength(0);
  });

  it('fits an 80-column terminal: no help line is longer than 80 characters', async () => {
    const commands = [
      [],
      ['companies', 'list'],
      ['companies', 'create'],
      ['keys', 'list'],
      ['keys', 'create'],
    ];
    commands.push(
      ['me'],
      ['mailboxes'],
      ['webhooks'],
      ['inventory'],
      ['api'],
      ['login'],
      ['sandbox'],
      ['completion'],
    );
    for (const command of commands) {
      const r = await h.run([...command, '--help']);
      expect(r.code, command.join(' ')).toBe(0);
      const long = r.stdout.split('\n').filter((line) => line.length > 80);
      expect(long, `agency ${command.join(' ')} --help`).toEqual([]);
    }
  });
});

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

describe('--json and terminal control characters', () => {
  it('escapes C1 controls (a lone CSI) so that the JSON is the same value but inert', async () => {
    const name = `Evil\u009b2J Co ${Date.now()}`;
    const created = await direct(h.sandbox, '/v2/agency/companies', { body: { companies: [{ name }] } });
    expect(created.status).toBe(201);
    h.sandbox.reset();
    const r = await h.run(['companies', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\u009b');
    expect(r.stdout).toContain('\\u009b');
    expect((JSON.parse(r.stdout) as { name: string }[]).some((c) => c.name === name)).toBe(true);
  });
});

describe('profiles named in the environment', () => {
  it('an unknown AGENCY_PROFILE is fine when the environment gives both key and base URL', async () => {
    const r = await h.run(['me'], {
      env: { AGENCY_PROFILE: 'ci', AGENCY_API_KEY: h.sandbox.hqKey, AGENCY_BASE_URL: h.sandbox.baseUrl },
      allowCanary: 'stdout',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(sent(h.sandbox)).toHaveLength(1);
  });

  it('but is a typo (exit 2, nothing sent) when the profile would have had to supply the base URL', async () => {
    const r = await h.run(['me'], { env: { AGENCY_PROFILE: 'ci', AGENCY_API_KEY: h.sandbox.hqKey } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('No profile named "ci"');
    expect(sent(h.sandbox)).toHaveLength(0);
  });

  it('a missing key points at a profile that has one', async () => {
    const dir = join(tmp, 'two-profiles');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ current: 'default', profiles: { sandbox: { api_key: 'wpk_other_0123456789' } } }),
    );
    const r = await runAgency(['companies', 'list'], { configDir: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('agency profiles use sandbox');
  });
});

describe('inventory --inactive', () => {
  it('asks the service for the inactive companies only', async () => {
    const r = await h.run(['inventory', '--inactive', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const lists = sent(h.sandbox).filter((s) => s.path === '/v2/agency/companies');
    expect(lists.length).toBeGreaterThan(0);
    for (const list of lists) expect(list.query.active).toBe('false');
    const reports = JSON.parse(r.stdout) as { active: boolean }[];
    expect(reports.length).toBe(h.sandbox.store.companies(1, { active: false }).length);
    expect(reports.every((report) => report.active === false)).toBe(true);
  });
});
