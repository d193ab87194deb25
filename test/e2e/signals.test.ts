/**
 * Signals and pipes: Ctrl-C in the middle of a long listing ends with exit 130, a short message and
 * no stack trace or partial output; a reader that goes away (`| head -1`, EPIPE) ends the tool quietly.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { BIN, type Harness, jsonError, startHarness } from '../helpers/cli.js';

const STACK_LINE = /^\s+at /m;

async function waitFor(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('Ctrl-C', () => {
  let h: Harness;
  beforeAll(async () => {
    // Ten pages of 50, each answered after 300 ms: a listing that takes seconds.
    h = await startHarness({ latencyMs: 300, seed: { companies: 500 } });
  });
  afterAll(() => h.close());

  it('during a long listing: exit 130, "Interrupted", no stack trace, nothing on stdout, no further pages', async () => {
    h.sandbox.reset();
    const run = h.spawn(['companies', 'list']);
    await waitFor('the first page was requested', () => h.requests().length > 0);
    run.child.kill('SIGINT');
    const r = await run.result;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/Interrupted/);
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(h.requests().length).toBeLessThan(10);
  });

  it('with --json: exit 130 and the error object with a null status', async () => {
    h.sandbox.reset();
    const run = h.spawn(['--json', 'companies', 'list']);
    await waitFor('the first page was requested', () => h.requests().length > 0);
    run.child.kill('SIGINT');
    const r = await run.result;
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    expect(jsonError(r.stderr).error).toMatchObject({ status: null, message: 'Interrupted' });
  });

  it('while waiting to retry: exit 130 without another attempt', async () => {
    h.sandbox.reset();
    h.sandbox.addFault({
      kind: 'status',
      status: 503,
      method: 'GET',
      path: '/v2/agency/companies',
      retryAfter: 15,
    });
    const run = h.spawn(['companies', 'list']);
    await waitFor('the 503 was answered', () => h.requests()[0]?.status === 503);
    run.child.kill('SIGINT');
    const r = await run.result;
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(h.requests()).toHaveLength(1);
  });

  it('a write that never answers: awaited after Ctrl-C, and a second Ctrl-C ends the run at once (exit 130)', async () => {
    h.sandbox.reset();
    const company = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true })[0];
    h.sandbox.addFault({
      method: 'POST',
      path: `/v2/agency/companies/${company?.id}/api_keys`,
      kind: 'stall',
      stallMs: 60_000,
    });
    const run = h.spawn(['keys', 'create', String(company?.id), '--label', 'never-answered']);
    await waitFor('the key was asked for', () => h.requests().some((q) => q.method === 'POST'));
    run.child.kill('SIGINT');
    // The creation in flight is awaited (its key would be lost otherwise): the run is still there.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(run.child.exitCode).toBeNull();
    const asked = Date.now();
    run.child.kill('SIGINT');
    const r = await run.result;
    expect(Date.now() - asked).toBeLessThan(5_000);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(h.requests().filter((q) => q.method === 'POST')).toHaveLength(1);
  });

  it('during a bulk create: exit 130, nothing sent after the interruption, nothing created twice', async () => {
    // A sandbox of a dozen companies: the create reads the existing names first, and ten slow pages of
    // them would only delay the first creation by seconds.
    const h = await startHarness({ latencyMs: 300, seed: { companies: 12 } });
    onTestFinished(() => h.close());
    const names = Array.from({ length: 25 }, (_, i) => `Interrupted Co ${i + 1}`);
    const run = h.spawn(['companies', 'create', '--file', '-'], { input: `${names.join('\n')}\n` });
    await waitFor('the first creation request arrived', () => h.requests().some((q) => q.method === 'POST'));
    run.child.kill('SIGINT');
    const r = await run.result;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).not.toMatch(STACK_LINE);
    const posts = h.requests().filter((q) => q.method === 'POST');
    expect(posts.length).toBeLessThan(3);
    const created = h.sandbox.store
      .companies(MAIN_AGENCY_ID)
      .filter((c) => c.name.startsWith('Interrupted Co '));
    // Each name at most once, and stdout lists exactly what exists: the tool did not lose track.
    expect(new Set(created.map((c) => c.name)).size).toBe(created.length);
    const listed =
      r.stdout === ''
        ? []
        : r.stdout
            .trimEnd()
            .split('\n')
            .map((l) => Number(l.split('\t')[0]));
    expect(listed.sort()).toEqual(created.map((c) => c.id).sort());
    expect(r.stderr).toMatch(new RegExp(`Created ${created.length} of 25`));
  });
});

describe('SIGHUP and SIGTERM stop like Ctrl-C', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ latencyMs: 300, seed: { companies: 12 } });
  });
  afterAll(() => h.close());

  it.each([
    ['SIGHUP', 129],
    ['SIGTERM', 143],
  ] as const)(
    '%s during a bulk create: exit %i, what was created on stdout and reported',
    async (signal, code) => {
      h.sandbox.reset();
      const names = Array.from({ length: 25 }, (_, i) => `${signal} Co ${i + 1}`);
      const run = h.spawn(['companies', 'create', '--file', '-'], { input: `${names.join('\n')}\n` });
      await waitFor('the first creation request arrived', () =>
        h.requests().some((q) => q.method === 'POST'),
      );
      run.child.kill(signal);
      const r = await run.result;
      expect(r.signal).toBeNull();
      expect(r.code, r.stderr).toBe(code);
      expect(r.stderr).not.toMatch(STACK_LINE);
      const created = h.sandbox.store
        .companies(MAIN_AGENCY_ID)
        .filter((c) => c.name.startsWith(`${signal} Co `))
        .map((c) => c.id);
      expect(created.length).toBeGreaterThan(0);
      expect(
        r.stdout
          .trimEnd()
          .split('\n')
          .map((l) => Number(l.split('\t')[0])),
      ).toEqual(created);
      expect(r.stderr).toMatch(new RegExp(`Created ${created.length} of 25`));
    },
  );

  it('SIGHUP while creating keys for many companies: exit 129, the keys made so far on stdout', async () => {
    h.sandbox.reset();
    const ids = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true }).map((c) => c.id);
    const run = h.spawn(['keys', 'create', ...ids.map(String), '--label', 'hangup'], {
      allowCanary: 'stdout',
    });
    await waitFor('the first key was made', () =>
      h.requests().some((q) => q.method === 'POST' && q.status === 201),
    );
    run.child.kill('SIGHUP');
    const r = await run.result;
    expect(r.code, r.stderr).toBe(129);
    const made = ids.flatMap((id) => h.sandbox.store.keysOf(id).filter((k) => k.label === 'hangup'));
    expect(made.length).toBeGreaterThan(0);
    expect(made.length).toBeLessThan(ids.length);
    for (const key of made) expect(r.stdout).toContain(`${key.companyId}\t${key.key}`);
    expect(r.stderr).toMatch(new RegExp(`Interrupted after creating ${made.length} of ${ids.length} keys`));
  });

  it('SIGTERM during a fleet change (webhooks subscribe --all): exit 143, a row for each subscription made', async () => {
    h.sandbox.reset();
    const url = 'https://hooks.example.com/terminated';
    const run = h.spawn(['webhooks', 'subscribe', '--event', 'prospect_replied', '--url', url, '--all']);
    await waitFor(
      'two subscriptions were made',
      () => h.requests().filter((q) => q.path.endsWith('/webhooks/subscribe') && q.status < 300).length >= 2,
    );
    run.child.kill('SIGTERM');
    const r = await run.result;
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).toMatch(/Interrupted/);
    const made = h.requests().filter((q) => q.path.endsWith('/webhooks/subscribe') && q.status < 300);
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .filter((line) => line.endsWith('\tsubscribed'));
    expect(rows).toHaveLength(made.length);
    expect(made.length).toBeLessThan(h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true }).length);
  });
});

describe('a closed pipe (EPIPE)', () => {
  let h: Harness;
  let tmp: string;
  beforeAll(async () => {
    h = await startHarness();
    tmp = mkdtempSync(join(tmpdir(), 'agency-pipe-'));
  });
  afterAll(async () => {
    await h.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  /** Runs `agency ... | head -1` under bash; returns agency's own exit status (PIPESTATUS), its stderr and head's output. */
  async function throughHead(args: string[]): Promise<{ status: string; stderr: string; head: string }> {
    const errFile = join(tmp, 'stderr');
    const quoted = args.map((a) => `'${a}'`).join(' ');
    const script = `"${process.execPath}" "${BIN}" ${quoted} 2>"${errFile}" | head -1 >"${tmp}/head"; echo "\${PIPESTATUS[0]}"`;
    const env: Record<string, string | undefined> = { ...process.env, AGENCY_CONFIG_DIR: h.configDir };
    for (const name of Object.keys(env))
      if (name.startsWith('AGENCY_') && name !== 'AGENCY_CONFIG_DIR') delete env[name];
    // Asynchronous: the sandbox answers from this very process.
    const child = spawn('bash', ['-c', script], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let status = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      status += chunk;
    });
    await new Promise((resolve) => child.on('close', resolve));
    return {
      status: status.trim(),
      stderr: readFileSync(errFile, 'utf8'),
      head: readFileSync(join(tmp, 'head'), 'utf8'),
    };
  }

  // 5000 rows (about 270 KB) cannot fit in a pipe buffer: writing them after head has gone fails with EPIPE.
  it.each([[['companies', 'list']], [['companies', 'list', '--json']]])(
    'agency %j | head -1 exits 0, silently',
    async (args) => {
      h.sandbox.reset();
      h.sandbox.addFault({ kind: 'large-page', method: 'GET', path: '/v2/agency/companies', size: 5000 });
      const r = await throughHead(args);
      expect(r.stderr).toBe('');
      expect(r.status).toBe('0');
      expect(r.head).toBe(
        args.includes('--json') ? '[\n' : '900001\tSynthetic Company 1\tOlivia Owner\ttrue\t0\t0\t0\n',
      );
    },
  );
});
