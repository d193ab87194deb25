/**
 * `agency sandbox` itself, as an operator runs it: a separate process that prints where it listens,
 * saves a "sandbox" profile, keeps its state in a file if asked, and stops on SIGINT / SIGTERM.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_KINDS } from '../../src/sandbox/faults.js';
import { BIN, type RunResult, runAgency } from '../helpers/cli.js';
import { expectNoSecrets, lines } from '../helpers/core.js';
import { runInProcess } from '../helpers/in-process.js';
import { Terminal, TMUX_MISSING } from '../helpers/tmux.js';

interface SandboxProcess {
  child: ChildProcessWithoutNullStreams;
  /** The first line on stdout, once it is complete. */
  firstLine: Promise<string>;
  output(): { stdout: string; stderr: string };
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<SandboxProcess>();
let tmp: string;
let dirCount = 0;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'agency-sandbox-cmd-'));
});
// Never leave a sandbox behind, whatever a test did.
afterEach(async () => {
  await Promise.all(
    [...running].map(async (p) => {
      p.child.kill('SIGKILL');
      await p.exit;
    }),
  );
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function freshDir(): string {
  dirCount += 1;
  return join(tmp, `cfg-${dirCount}`);
}

function startSandboxProcess(args: string[], configDir: string): SandboxProcess {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('AGENCY_')) env[name] = value;
  }
  env.AGENCY_CONFIG_DIR = configDir;
  const child = spawn(process.execPath, [BIN, 'sandbox', ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let resolveLine: (line: string) => void = () => {};
  const firstLine = new Promise<string>((resolve, reject) => {
    resolveLine = resolve;
    child.on('close', () => reject(new Error(`sandbox exited before printing a line; stderr: ${stderr}`)));
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    const end = stdout.indexOf('\n');
    if (end >= 0) resolveLine(stdout.slice(0, end));
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const started: SandboxProcess = {
    child,
    firstLine,
    output: () => ({ stdout, stderr }),
    exit: new Promise((resolve) => {
      child.on('close', (code, signal) => {
        running.delete(started);
        resolve({ code, signal });
      });
    }),
  };
  firstLine.catch(() => {});
  child.stdin.end();
  running.add(started);
  return started;
}

interface Started {
  base_url: string;
  hq_key: string;
  profile: string | null;
}

async function startJson(args: string[], configDir: string): Promise<{ p: SandboxProcess; info: Started }> {
  const p = startSandboxProcess(['--port', '0', '--json', ...args], configDir);
  return { p, info: JSON.parse(await p.firstLine) as Started };
}

/**
 * agency against the sandbox process: in this process (test/helpers/in-process.ts) unless `spawned`; the
 * sandbox is the separate process here.
 */
async function agency(
  configDir: string,
  args: string[],
  secret: string,
  how: { spawned?: boolean } = {},
): Promise<RunResult> {
  const r = how.spawned ? await runAgency(args, { configDir }) : await runInProcess(args, { configDir });
  expectNoSecrets(r, undefined, [secret]);
  return r;
}

/** The sandbox's own view of its companies (its control API, outside /rest). */
async function mainCompanies(baseUrl: string): Promise<{ id: number; name: string }[]> {
  const res = await fetch(`${baseUrl.replace(/\/rest$/, '')}/_sandbox/state`);
  const state = (await res.json()) as {
    agencies: { id: number; main: boolean }[];
    companies: { id: number; name: string; agency_id: number }[];
  };
  const main = state.agencies.find((a) => a.main)?.id;
  return state.companies.filter((c) => c.agency_id === main);
}

describe('agency sandbox', () => {
  it('prints {base_url, hq_key, profile} as its first line and saves a profile that works at once', async () => {
    const dir = freshDir();
    const { p, info } = await startJson([], dir);

    expect(info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rest$/);
    expect(info.hq_key.length).toBeGreaterThanOrEqual(16);
    expect(info.profile).toBe('sandbox');
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(config.profiles.sandbox).toEqual({ api_key: info.hq_key, base_url: info.base_url });

    // The installed tool, as the operator runs it next.
    const r = await agency(dir, ['-p', 'sandbox', 'companies', 'list'], info.hq_key, { spawned: true });
    expect(r.code, r.stderr).toBe(0);
    const expected = await mainCompanies(info.base_url);
    expect(expected.length).toBeGreaterThan(100);
    expect(lines(r.stdout).map((line) => Number(line.split('\t')[0]))).toEqual(expected.map((c) => c.id));

    const me = await agency(dir, ['-p', 'sandbox', 'me', '--json'], info.hq_key);
    expect(JSON.parse(me.stdout).account_type).toBe('HQ');

    p.child.kill('SIGTERM');
    expect(await p.exit).toEqual({ code: 0, signal: null });
    await expect(fetch(`${info.base_url}/v1/me`)).rejects.toThrow();
  });

  it('without --json prints "base_url<TAB>..." and "hq_key<TAB>..." lines, and stops on SIGINT', async () => {
    const dir = freshDir();
    const p = startSandboxProcess(['--port', '0'], dir);
    const first = await p.firstLine;
    const [field, baseUrl] = first.split('\t');
    expect(field).toBe('base_url');
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rest$/);
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    // The profile is saved before anything is printed; the hq_key line follows the base URL.
    await until(() => p.output().stdout.includes('hq_key\t'));
    expect(lines(p.output().stdout)[1]).toBe(`hq_key\t${config.profiles.sandbox.api_key}`);
    // stderr is a separate pipe: its lines may arrive after stdout's.
    await until(() => p.output().stderr.includes('agency -p sandbox'));

    p.child.kill('SIGINT');
    expect(await p.exit).toEqual({ code: 0, signal: null });
    await expect(fetch(`${baseUrl}/v1/me`)).rejects.toThrow();
  });

  it('--state keeps a created company across a restart (file written 0600)', async () => {
    const dir = freshDir();
    const state = join(tmp, `state-${dirCount}.json`);
    const first = await startJson(['--state', state], dir);
    const name = `Persisted Pottery ${process.pid}`;

    const created = await agency(
      dir,
      ['-p', 'sandbox', 'companies', 'create', '--name', name, '--json'],
      first.info.hq_key,
    );
    expect(created.code, created.stderr).toBe(0);
    const [company] = JSON.parse(created.stdout);
    expect(statSync(state).mode & 0o777).toBe(0o600);
    first.p.child.kill('SIGTERM');
    expect((await first.p.exit).code).toBe(0);

    const second = await startJson(['--state', state], dir);
    // Same world, same key; the profile follows the new port.
    expect(second.info.hq_key).toBe(first.info.hq_key);
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(config.profiles.sandbox.base_url).toBe(second.info.base_url);

    const r = await agency(dir, ['-p', 'sandbox', 'companies', 'list', '--json'], second.info.hq_key);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toContainEqual(expect.objectContaining({ id: company.id, name }));
    second.p.child.kill('SIGINT');
    expect((await second.p.exit).code).toBe(0);
  });

  // The refusals below end the command before it serves: in-process runs (exit code and messages are
  // the command's), not sandbox processes.
  it('a damaged --state file is reported (exit 2) and left byte-for-byte untouched', async () => {
    const state = join(tmp, 'damaged-state.json');
    writeFileSync(state, '{"version": 1, "companies": [');
    const { code, stdout, stderr } = await refused(['--port', '0', '--state', state]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(state);
    expect(stderr).not.toMatch(/internal error/i);
    expect(readFileSync(state, 'utf8')).toBe('{"version": 1, "companies": [');
  });

  it('a port in use is a clear error (exit 2)', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const port = (blocker.address() as { port: number }).port;
      const r = await refused(['--port', String(port)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(String(port));
      expect(r.stderr).not.toMatch(/internal error/i);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('a port in use writes no --state file', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const state = join(tmp, 'never-written.json');
    try {
      const port = (blocker.address() as { port: number }).port;
      const r = await refused(['--port', String(port), '--state', state]);
      expect(r.code).toBe(2);
      expect(existsSync(state)).toBe(false);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('a "sandbox" profile pointing at the service is kept; the sandbox is saved as another profile and says so', async () => {
    const dir = freshDir();
    const real = {
      api_key: 'wpk_real_key_of_the_operator_0123456789',
      base_url: 'https://api.woodpecker.co/rest',
    };
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ current: 'sandbox', profiles: { sandbox: real } }),
      { mode: 0o600 },
    );
    const { p, info } = await startJson([], dir);
    expect(info.profile).toBe('sandbox-local');
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(config.profiles.sandbox).toEqual(real);
    expect(config.profiles['sandbox-local']).toEqual({ api_key: info.hq_key, base_url: info.base_url });
    await until(() => p.output().stderr.includes('is kept'));
    expect(p.output().stderr).toContain(
      'The "sandbox" profile points at https://api.woodpecker.co/rest, not at this machine: it is kept; this sandbox is saved as the profile "sandbox-local".',
    );
    // A second sandbox reuses the local profile (it points at this machine), never the real one.
    const second = await startJson([], dir);
    expect(second.info.profile).toBe('sandbox-local');
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.sandbox).toEqual(real);
  });

  it('--help names its faults, every kind the sandbox knows', async () => {
    const help = (await runInProcess(['sandbox', '--help'], { configDir: freshDir() })).stdout;
    const flat = help.replace(/\s+/g, ' ');
    expect(flat).toContain('/_sandbox/faults');
    for (const kind of FAULT_KINDS) expect(flat).toMatch(new RegExp(`\\b${kind}\\b`));
  });

  it.each([['abc'], ['70000'], ['-1']])('--port %s is a usage error', async (port) => {
    const r = await refused([`--port=${port}`]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });
});

/** `agency sandbox ...args` in this process, for a run that must end before serving (exit 2). */
function refused(args: string[]): Promise<RunResult> {
  return runInProcess(['sandbox', ...args], { configDir: freshDir() });
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(condition()).toBe(true);
}

describe('agency sandbox options', () => {
  const stop = async (p: SandboxProcess) => {
    p.child.kill('SIGINT');
    expect((await p.exit).code).toBe(0);
  };

  it('--companies 0 starts an empty agency that works at once', async () => {
    const dir = freshDir();
    const { p, info } = await startJson(['--companies', '0'], dir);
    expect(await mainCompanies(info.base_url)).toEqual([]);
    const list = await agency(dir, ['-p', 'sandbox', 'companies', 'list', '--json'], info.hq_key);
    expect([list.code, JSON.parse(list.stdout)]).toEqual([0, []]);
    const created = await agency(
      dir,
      ['-p', 'sandbox', 'companies', 'create', '--name', 'First Client'],
      info.hq_key,
    );
    expect(created.code, created.stderr).toBe(0);
    expect((await mainCompanies(info.base_url)).map((c) => c.name)).toEqual(['First Client']);
    await stop(p);
  });

  it('--docs-mode serves webhooks only at /v2 (v1 answers 404 in the v1 envelope); the CLI still lists them', async () => {
    const dir = freshDir();
    const { p, info } = await startJson(['--docs-mode'], dir);
    const v1 = await fetch(`${info.base_url}/v1/webhooks`, { headers: { 'x-api-key': info.hq_key } });
    expect(v1.status).toBe(404);
    expect(((await v1.json()) as { status: { code: string } }).status.code).toBe('E_URL_NOT_FOUND');
    const r = await agency(dir, ['-p', 'sandbox', 'webhooks', '--json'], info.hq_key);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
    await stop(p);
  });

  it('--rtt adds the round trip to every answer; --latency stays the processing time; --no-save-profile leaves the config alone', async () => {
    const dir = freshDir();
    const { p, info } = await startJson(['--rtt', '300', '--latency', '20', '--no-save-profile'], dir);
    expect(info.profile).toBeNull();
    expect(() => statSync(join(dir, 'config.json'))).toThrow();
    const t0 = performance.now();
    const res = await fetch(`${info.base_url}/v1/me`, { headers: { 'x-api-key': info.hq_key } });
    expect(res.status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(315);
    await stop(p);
  });

  it('--report-ms MIN-MAX: each report pending at least MIN, then READY; MIN above MAX refused (exit 2)', async () => {
    const dir = freshDir();
    const { p, info } = await startJson(['--report-ms', '2500-3000', '--no-save-profile'], dir);
    const headers = { 'x-api-key': info.hq_key, 'x-company-id': '1001', 'content-type': 'application/json' };
    const today = new Date().toISOString().slice(0, 10);
    const asked = performance.now();
    const post = await fetch(`${info.base_url}/v2/reports/campaigns`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ from: today, to: today }),
    });
    const { hash } = (await post.json()) as { hash: string };
    const statuses: string[] = [];
    let readyAfter = 0;
    while (performance.now() - asked < 10_000) {
      const answer = (await (await fetch(`${info.base_url}/v2/reports/${hash}`, { headers })).json()) as {
        status: string;
      };
      statuses.push(answer.status);
      if (answer.status === 'READY') {
        readyAfter = performance.now() - asked;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(statuses[0]).toBe('PENDING');
    expect(statuses.at(-1)).toBe('READY');
    expect(readyAfter).toBeGreaterThanOrEqual(2500);
    await stop(p);
    const r = await refused(['--report-ms', '900-100']);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('Invalid --report-ms "900-100"')]);
  });

  it('logs one line per request on stderr (method, path with query, status, ms), not with --quiet or --json', async () => {
    const logged = /^\d\d:\d\d:\d\d {2}GET \/rest\/v2\/agency\/companies\?page=2 {2}200 {2}\d+ ms$/m;
    const dir = freshDir();
    const p = startSandboxProcess(['--port', '0'], dir);
    await until(() => p.output().stdout.includes('hq_key\t'));
    const key = lines(p.output().stdout)[1]?.split('\t')[1] as string;
    expect((await agency(dir, ['-p', 'sandbox', 'companies', 'list', '--page', '2'], key)).code).toBe(0);
    await until(() => logged.test(p.output().stderr));
    expect(p.output().stderr).not.toContain(key);
    await stop(p);

    for (const flag of ['--quiet', '--json']) {
      const quietDir = freshDir();
      const q = startSandboxProcess(['--port', '0', flag], quietDir);
      await q.firstLine; // the profile is saved before anything is printed
      const saved = JSON.parse(readFileSync(join(quietDir, 'config.json'), 'utf8')).profiles.sandbox.api_key;
      expect(
        (await agency(quietDir, ['-p', 'sandbox', 'companies', 'list', '--page', '2'], saved)).code,
      ).toBe(0);
      await stop(q);
      expect(q.output().stderr).not.toMatch(/GET \/rest/);
    }
  });

  it.each([
    ['--companies', '-1'],
    ['--companies', 'abc'],
    ['--companies', '100001'],
    ['--rtt', 'x'],
    ['--rtt', '-5'],
  ])('%s %s is a usage error (exit 2, nothing started)', async (flag, value) => {
    const r = await refused(['--port', '0', `${flag}=${value}`]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(flag);
  });
});

describe.skipIf(Boolean(TMUX_MISSING))(
  TMUX_MISSING ? `agency sandbox on a terminal (skipped: ${TMUX_MISSING})` : 'agency sandbox on a terminal',
  () => {
    it('shows its banner as a table, then a log line per request, and stops on Ctrl-C', async () => {
      const dir = freshDir();
      const term = await Terminal.start({
        width: 100,
        height: 30,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: tmp,
          TERM: 'xterm',
          NO_COLOR: '1',
          AGENCY_CONFIG_DIR: dir,
        },
      });
      try {
        term.type(`${process.execPath} ${BIN} sandbox --port 0 --rtt 5`);
        const banner = await term.waitFor((s) => s.includes('Press Ctrl-C'));
        const key = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.sandbox;
        const row = (label: string) => banner.split('\n').find((line) => line.startsWith(label)) ?? '';
        expect(row('Base URL')).toMatch(
          new RegExp(`^Base URL\\s{2,}${key.base_url.replace(/[.]/g, '\\.')}$`),
        );
        expect(row('HQ key, Olivia Owner (admin)')).toMatch(new RegExp(`\\s${key.api_key}$`));
        expect(row('HQ key, Tom Teammate (member)')).toMatch(/\swpk_hq_[0-9a-f]{32}$/);
        expect(row('Companies')).toMatch(/\s120 \(\d+ active, \d+ inactive\)$/);
        expect(row('Round trip')).toMatch(/\s5 ms$/);
        expect(row('State')).toMatch(/\sin memory$/);
        // Values start in one column: a table, not "label: value" lines.
        const starts = ['Base URL', 'Companies', 'State'].map(
          (label) => /^.+?\S {2,}/.exec(row(label))?.[0].length,
        );
        expect(new Set(starts).size).toBe(1);

        const res = await fetch(`${key.base_url}/v1/me`, { headers: { 'x-api-key': key.api_key } });
        expect(res.status).toBe(200);
        await term.waitFor((s) => /\d\d:\d\d:\d\d {2}GET \/rest\/v1\/me {2}200 {2}\d+ ms/.test(s));
        term.key('C-c');
        await term.waitFor((s) => s.includes('Sandbox stopped.'));
      } finally {
        await term.close();
      }
    });
  },
);
