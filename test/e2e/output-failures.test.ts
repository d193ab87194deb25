/**
 * A result that cannot be written is never lost silently (contract, "Output failures and signals"):
 * stdout on a full disk (/dev/full) is exit 1 naming what was created and how to read it back; a full
 * --keys-out file stops apply with the key still on stdout; a closed pipe is a quiet normal end after
 * which no request starts.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { agencyEnv, BIN, CANARY_KEY, type Harness, startHarness } from '../helpers/cli.js';

const STACK_LINE = /^\s+at /m;

let h: Harness;
let tmp: string;
beforeAll(async () => {
  h = await startHarness({ seed: { companies: 3 } });
  tmp = mkdtempSync(join(tmpdir(), 'agency-output-'));
});
afterAll(async () => {
  await h.close();
  rmSync(tmp, { recursive: true, force: true });
});
beforeEach(() => h.sandbox.reset());

/** Runs agency with its stdout on /dev/full (every write fails with ENOSPC). */
function runIntoFullDisk(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const full = openSync('/dev/full', 'w');
  const child = spawn(process.execPath, [BIN, ...args], {
    env: agencyEnv({ configDir: h.configDir }),
    stdio: ['ignore', full, 'pipe'],
  });
  closeSync(full);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

const companyId = () => h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true })[0]?.id as number;
const keysOf = (id: number) => h.sandbox.store.keysOf(id);
const activeNames = () => h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true }).map((c) => c.name);

describe('stdout on a full disk', () => {
  it('keys create: exit 1, the key is named with the command that reads it back, no stack trace', async () => {
    const id = companyId();
    const r = await runIntoFullDisk(['keys', 'create', String(id), '--label', 'full-disk']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('The result could not be written to stdout: no space left on device (ENOSPC)');
    expect(r.stderr).toContain(`the key "full-disk" of company ${id}`);
    expect(r.stderr).toContain(`agency keys list ${id} --reveal`);
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(r.stderr).not.toContain(CANARY_KEY);
    expect(keysOf(id).filter((k) => k.label === 'full-disk')).toHaveLength(1);
  });

  it('companies list --json: exit 1 (not 0 with an empty file), saying the result was not written', async () => {
    const r = await runIntoFullDisk(['companies', 'list', '--json']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/could not be written to stdout: no space left on device/);
    expect(JSON.parse(r.stderr.trim().split('\n').at(-1) ?? '').error.status).toBeNull();
    expect(r.stderr).not.toMatch(STACK_LINE);
  });

  it('--version and piped help (printed without loading the program): exit 1 with the message, no stack trace', async () => {
    for (const args of [['--version'], ['--help'], ['companies', 'create', '--help']]) {
      const r = await runIntoFullDisk(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toContain(
        'The result could not be written to stdout: no space left on device (ENOSPC)',
      );
      expect(r.stderr).not.toMatch(STACK_LINE);
    }
  });

  it('keys for several companies: the first line that fails stops the run; the key it carried is named', async () => {
    const ids = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true }).map((c) => c.id);
    const r = await runIntoFullDisk(['keys', 'create', ...ids.map(String), '--label', 'many-full']);
    expect(r.code, r.stderr).toBe(1);
    const [first, ...rest] = ids;
    expect(r.stderr).toContain(`the key "many-full" of company ${first}`);
    expect(h.requests().filter((q) => q.method === 'POST')).toHaveLength(1);
    for (const id of rest) expect(keysOf(id).filter((k) => k.label === 'many-full')).toEqual([]);
  });
});

describe('apply --keys-out on a full disk', () => {
  it('the first key still reaches stdout, nothing further is created, exit 1 naming the file', async () => {
    const names = activeNames().slice(0, 2);
    const file = join(tmp, 'agency.yaml');
    writeFileSync(
      file,
      `defaults:\n  keys: [first, second]\ncompanies:\n${names.map((n) => `  - ${n}\n`).join('')}`,
    );
    const run = h.spawn(['apply', '-f', file, '--yes', '--keys-out', '/dev/full'], { allowCanary: 'stdout' });
    const r = await run.result;
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      /Could not write to the keys file \/dev\/full: no space left on device \(ENOSPC\)/,
    );
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(r.stderr).not.toContain('internal error');
    const posts = h.requests().filter((q) => q.method === 'POST');
    expect(posts).toHaveLength(1);
    const created = h.sandbox.store.companies(MAIN_AGENCY_ID).flatMap((c) => keysOf(c.id));
    const firstKey = created.find((k) => k.label === 'first');
    expect(firstKey).toBeDefined();
    expect(r.stdout).toContain(firstKey?.key);
    expect(created.filter((k) => k.label === 'second')).toEqual([]);
  });
});

describe('a closed pipe', () => {
  it('apply | head -1: exit 0, no message, and no request after the reader went away', async () => {
    const names = activeNames();
    const file = join(tmp, 'pipe.yaml');
    writeFileSync(
      file,
      `defaults:\n  keys: [piped-1, piped-2]\ncompanies:\n${names.map((n) => `  - ${n}\n`).join('')}`,
    );
    slowKeyCreation();
    const { status, stderr } = await intoHeadOne(['apply', '-f', file, '--yes']);
    expect(status).toBe('0');
    // The plan went to stderr before; after the pipe closed no error, no "Interrupted": only the key
    // whose line the reader never got, if its request was out when the pipe closed.
    expect(stderr).toMatch(/^Plan: /m);
    expect(stderr).not.toMatch(/error|Interrupted|Applied/i);
    const posts = h.requests().filter((q) => q.method === 'POST');
    expect(posts.length).toBeLessThan(names.length * 2);
    expect(posts.length).toBeLessThanOrEqual(2);
  });

  it('keys create for several companies | head -1: the second key stops the run, is named, exit 0', async () => {
    const all = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true }).map((c) => c.id);
    slowKeyCreation();
    const { status, stderr } = await intoHeadOne(['keys', 'create', ...all.map(String), '--label', 'p1']);
    expect(status, stderr).toBe('0');
    const posts = h.requests().filter((q) => q.method === 'POST');
    // The first key reached head; the second's line found the pipe closed: nothing starts after it.
    expect(posts).toHaveLength(2);
    const second = all[1] as number;
    expect(keysOf(second).filter((k) => k.label === 'p1')).toHaveLength(1);
    expect(keysOf(all[2] as number).filter((k) => k.label === 'p1')).toEqual([]);
    expect(stderr).toBe(
      'The reader of stdout left before this was shown; created all the same:\n' +
        `  the key "p1" of company ${second}\n` +
        `hint: Read it back with \`agency keys list ${second} --reveal\`.\n`,
    );
  });

  it('companies create of 25 names | head -1: no chunk starts after the closed pipe; what it lost is named', async () => {
    const names = Array.from({ length: 25 }, (_, i) => `Piped Co ${i + 1}`);
    const file = join(tmp, 'names.txt');
    writeFileSync(file, `${names.join('\n')}\n`);
    await expectStoppedByClosedPipe(['companies', 'create', '--file', file], 'Piped Co');
  });

  it('apply of 30 companies | head -1: the same', async () => {
    const file = join(tmp, 'companies.yaml');
    const names = Array.from({ length: 30 }, (_, i) => `  - Applied Pipe ${i + 1}\n`);
    writeFileSync(file, `companies:\n${names.join('')}`);
    await expectStoppedByClosedPipe(['apply', '-f', file, '--yes'], 'Applied Pipe');
  });
});

/**
 * Creates companies (each request of 10 answered after 300 ms) into `| head -1`: exit 0; the first
 * request's rows went out, and the pipe is found closed by the second's at the latest, so no third
 * starts; the companies whose rows could not be written (the last request's, from some row on) are
 * named on stderr with how to read them back, and nothing else is said.
 */
async function expectStoppedByClosedPipe(args: string[], prefix: string): Promise<void> {
  h.sandbox.addFault({ kind: 'stall', method: 'POST', path: '/v2/agency/companies', stallMs: 300, times: 0 });
  const { status, stderr } = await intoHeadOne(args);
  expect(status, stderr).toBe('0');
  const posts = h.requests().filter((q) => q.method === 'POST');
  expect(posts.length).toBeLessThanOrEqual(2);
  const created = h.sandbox.store.companies(MAIN_AGENCY_ID).filter((c) => c.name.startsWith(prefix));
  expect(created.length).toBe(posts.length * 10);
  const named = [...stderr.matchAll(/company "([^"]+)" \(id \d+\)/g)].map((m) => m[1]);
  expect(named.length).toBeGreaterThan(0);
  expect(named).toEqual(created.slice(created.length - named.length).map((c) => c.name));
  expect(stderr).toMatch(/^hint: Read (it|them) back with `agency companies view \d+`/m);
  expect(stderr).not.toMatch(/error|Interrupted|Created \d|Applied \d/);
}

/** Each new key's answer takes 300 ms: head has long gone when the second key's line is written. */
function slowKeyCreation(): void {
  h.sandbox.addFault({
    kind: 'stall',
    method: 'POST',
    path: '/v2/agency/companies/*/api_keys',
    stallMs: 300,
    times: 0,
  });
}

/** Runs agency with stdout into `| head -1` (stderr to a file): its exit status and stderr. */
async function intoHeadOne(args: string[]): Promise<{ status: string; stderr: string }> {
  const errFile = join(tmp, 'pipe.err');
  const quoted = args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const script = `"${process.execPath}" "${BIN}" ${quoted} 2>"${errFile}" | head -1 >/dev/null; echo "\${PIPESTATUS[0]}"`;
  const child = spawn('bash', ['-c', script], {
    env: agencyEnv({ configDir: h.configDir }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let status = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    status += chunk;
  });
  await new Promise((resolve) => child.on('close', resolve));
  return { status: status.trim(), stderr: readFileSync(errFile, 'utf8') };
}
