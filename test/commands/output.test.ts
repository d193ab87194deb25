/**
 * The output contract across commands: stdout carries only the result, --json errors on stderr,
 * exit codes, terminal-safe server text (piped and on a terminal), colour only on a terminal, and
 * --debug traces without the key.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import type { CompanyRecord } from '../../src/sandbox/store.js';
import { CANARY_KEY, type Harness, jsonError, ROOT } from '../helpers/cli.js';
import {
  activeCompany,
  direct,
  expectNoSecrets,
  foreignCompany,
  inactiveCompany,
  lines,
  sent,
  startCoreHarness,
  teammate,
} from '../helpers/core.js';
import { refusedPort } from '../helpers/refused-port.js';
import { runOnTerminal } from '../helpers/terminal-run.js';

/** The program runs in this process (test/helpers/in-process.ts); spawn() still starts the binary. */
const IN_PROCESS = { inProcess: true };

let h: Harness;
/** A company whose name carries escape sequences, a bell, a tab and a newline (the service allows them). */
let evil: CompanyRecord;
const EVIL_NAME = `\u001b[31mEvil\u001b[0m Corp\u0007 \u001b]0;owned\u0007Tab\there\nNext ${process.pid}`;
const EVIL_LABEL = '\u001b[2Jwiped\u009b31mlabel';
/** C0 controls except tab and newline (a terminal adds CR), DEL and C1. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

beforeAll(async () => {
  // 14 companies (an inactive one, the teammate's, the foreign agency's): what this file checks is the
  // output of a list, not its length.
  h = await startCoreHarness({ seed: { companies: 14 } }, IN_PROCESS);
  const created = await direct(h.sandbox, '/v2/agency/companies', {
    body: { companies: [{ name: EVIL_NAME }] },
  });
  expect(created.status).toBe(201);
  evil = h.sandbox.store.company(created.body.companies[0].id) as CompanyRecord;
  const key = await direct(h.sandbox, `/v2/agency/companies/${evil.id}/api_keys`, {
    body: { label: EVIL_LABEL },
  });
  expect(key.status).toBe(201);
});
afterAll(() => h.close());
beforeEach(() => h.sandbox.reset());

describe('--json errors', () => {
  it("an API error is one JSON object on the last stderr line, with the service's title and detail", async () => {
    const foreign = foreignCompany(h.sandbox);
    const truth = (await direct(h.sandbox, `/v2/agency/companies/${foreign.id}/email_accounts`)).body;

    const r = await h.run(['companies', 'email-accounts', String(foreign.id), '--json']);

    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    const last = r.stderr.trim().split('\n').at(-1) as string;
    const parsed = JSON.parse(last);
    expect(Object.keys(parsed)).toEqual(['error']);
    expect(Object.keys(parsed.error).sort()).toEqual(['detail', 'message', 'status', 'title']);
    expect(parsed.error).toMatchObject({ status: 404, title: truth.title, detail: truth.detail });
    expect(parsed.error.message).toContain('404');
  });

  it.each([
    ['a 409', () => ['me', '--company', String(inactiveCompany(h.sandbox).id)], 5, 409],
    ['a 403', () => ['me', '--company', String(activeCompany(h.sandbox).id)], 3, 403],
  ])('%s keeps its status', async (_what, args, code, status) => {
    const env = status === 403 ? { AGENCY_API_KEY: teammate(h.sandbox).hqKey } : {};
    const r = await h.run([...args(), '--json'], { env });
    expect(r.code).toBe(code);
    expect(r.stdout).toBe('');
    expect(jsonError(r.stderr).error.status).toBe(status);
  });

  it.each([
    ['a bad option value', ['companies', 'list', '--page', '0', '--json']],
    ['a missing required option', ['--json', 'keys', 'create', '1001']],
    ['an unknown command', ['--json', 'compnies', 'list']],
    ['a bad company id', ['--json', 'me', '--company', '0']],
  ])('a local error (%s) has status, title and detail null', async (_what, args) => {
    const r = await h.run(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const { error } = jsonError(r.stderr);
    expect(error).toMatchObject({ status: null, title: null, detail: null });
    expect(error.message.length).toBeGreaterThan(0);
    expect(sent(h.sandbox)).toEqual([]);
  });

  it('a network failure has status null and exit 1', async () => {
    const port = await refusedPort();
    const r = await h.run(['--json', '--base-url', `http://127.0.0.1:${port}/rest`, 'me'], {
      timeoutMs: 60_000,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(jsonError(r.stderr).error.status).toBeNull();
    expect(r.stderr).toMatch(/refused/i);
  });
});

describe('exit codes and messages', () => {
  it('1: an API error not listed elsewhere (501), quoting the title and detail', async () => {
    h.sandbox.addFault({ kind: 'status', status: 501, method: 'GET', path: '/v1/me' });
    const r = await h.run(['me']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('501');
    expect(r.stderr).toContain('(sandbox fault)');
  });

  it('1: an HTML page instead of JSON is a clear error naming the status, never a stack trace', async () => {
    h.sandbox.addFault({ kind: 'html', status: 501, method: 'GET', path: '/v2/agency/companies' });
    const r = await h.run(['companies', 'list']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('501');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr).not.toContain('<html>');
  });

  it('1: a 200 whose body is not JSON names the status', async () => {
    h.sandbox.addFault({ kind: 'not-json', method: 'GET', path: '/v1/webhooks' });
    const r = await h.run(['webhooks']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('200');
    expect(r.stderr).toMatch(/JSON/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('130: Ctrl-C while waiting for the service', async () => {
    h.sandbox.addFault({ kind: 'stall', method: 'GET', path: '/v2/agency/companies', stallMs: 25_000 });
    const { child, result } = h.spawn(['companies', 'list']);
    await until(() => h.sandbox.requests.length > 0);
    child.kill('SIGINT');
    const r = await result;
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    expectNoSecrets(r, h.sandbox);
  });

  it('an empty list is an empty result: nothing piped, [] with --json, exit 0', async () => {
    const beyond = String(Math.ceil(h.sandbox.store.companies(MAIN_AGENCY_ID).length / 50) + 5);
    const piped = await h.run(['companies', 'list', '--page', beyond]);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toBe('');
    const json = await h.run(['companies', 'list', '--page', beyond, '--json']);
    expect(JSON.parse(json.stdout)).toEqual([]);
  });
});

describe('server text is made terminal-safe', () => {
  it('piped (TSV): no control characters, and the row stays one line of 7 fields', async () => {
    const r = await h.run(['companies', 'list']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(CONTROL);
    const row = lines(r.stdout).find((line) => line.startsWith(`${evil.id}\t`)) as string;
    const fields = row.split('\t');
    expect(fields).toHaveLength(7);
    expect(fields[1]).toMatch(/Evil.*Corp/);
    expect(fields[1]).toContain(`Next ${process.pid}`);
    expect(lines(r.stdout)).toHaveLength(h.sandbox.store.companies(MAIN_AGENCY_ID).length);
  });

  it('key labels too', async () => {
    const r = await h.run(['keys', 'list', String(evil.id)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(CONTROL);
    expect(r.stdout).toMatch(/wiped.*label/);
  });

  it('--json keeps the text exactly as the service returned it', async () => {
    const r = await h.run(['companies', 'list', '--json']);
    const item = JSON.parse(r.stdout).find((c: { id: number }) => c.id === evil.id);
    expect(item.name).toBe(EVIL_NAME);
  });

  describe('on a terminal', () => {
    it('the table has a header and no control characters', async () => {
      const out = await onTerminal(['companies', 'list']);
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).not.toMatch(CONTROL);
      expect(out.stdout).toMatch(/^ID\s+NAME\s+OWNER\s+ACTIVE/m);
      expect(out.stdout).toMatch(new RegExp(`^${evil.id}\\s+Evil.*Corp`, 'm'));
    });

    it('an error detail that carries escape sequences is printed without them', async () => {
      const body = JSON.stringify({ companies: [{ name: EVIL_NAME }] });
      const out = await onTerminal(['api', '/v2/agency/companies', '--data', body]);
      const text = out.stdout + out.stderr;
      expect(out.code).toBe(1);
      expect(text).toContain('already exists');
      expect(text).not.toMatch(CONTROL);
      expect(text).not.toContain(CANARY_KEY);
      expect(h.sandbox.store.companies(MAIN_AGENCY_ID).filter((c) => c.name === EVIL_NAME)).toHaveLength(1);
    });
  });
});

describe('colour', () => {
  it('goes to a terminal unless --no-color or NO_COLOR says otherwise', async () => {
    const args = ['companies', 'list', '--limit', '3'];
    const coloured = await onTerminal(args, {});
    expect(coloured.code).toBe(0);
    expect(coloured.stdout).toContain('\u001b[');
    for (const [extra, env] of [
      [['--no-color'], {}],
      [[], { NO_COLOR: '1' }],
    ] as const) {
      const plain = await onTerminal([...args, ...extra], env);
      expect(plain.code).toBe(0);
      expect(plain.stdout).toMatch(/^ID\s+NAME/m);
      expect(plain.stdout).not.toContain('\u001b');
    }
  });

  it('never goes to a pipe, even with FORCE_COLOR', async () => {
    const list = await h.run(['companies', 'list', '--limit', '5'], { env: { FORCE_COLOR: '1' } });
    expect(list.stdout).not.toContain('\u001b');
    const created = await h.run(['keys', 'create', String(evil.id), '--label', 'c'], {
      env: { FORCE_COLOR: '3' },
    });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).not.toContain('\u001b');
    const failed = await h.run(['me', '--company', 'x'], { env: { FORCE_COLOR: '1' } });
    expect(failed.stderr).toContain('error');
    expect(failed.stderr).not.toContain('\u001b');
  });
});

describe('-q on a terminal (the help: only errors, warnings and "note:" lines on stderr)', () => {
  const at60 = (args: string[]) => runOnTerminal(h, args, { columns: 60, env: { NO_COLOR: '1' } });

  it('drops the hidden-columns line, the count and the hints; the table is the same', async () => {
    const company = String(activeCompany(h.sandbox).id);
    for (const args of [
      ['companies', 'list'],
      ['keys', 'list', company],
    ]) {
      const loud = await at60(args);
      expect(loud.code, loud.stderr).toBe(0);
      expect(loud.stderr, args.join(' ')).not.toBe('');
      const quiet = await at60(['-q', ...args]);
      expect(quiet.code).toBe(0);
      expect(quiet.stdout).toBe(loud.stdout);
      expect(quiet.stderr, args.join(' ')).toBe('');
    }
  });

  it('keeps a warning and an error', async () => {
    const company = String(activeCompany(h.sandbox).id);
    const subscribe = [
      'webhooks',
      'subscribe',
      '--event',
      'brand_new_event',
      '--url',
      'https://crm.example.com/q',
    ];
    const dryRun = [...subscribe, '--company', company, '--dry-run'];
    // Without -q the same run also says what it would do ("Dry run: …"); with -q only the warning stays.
    expect((await at60(dryRun)).stderr).toContain('Dry run');
    const warned = await at60(['-q', ...dryRun]);
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stderr).toMatch(/^warning: .*brand_new_event/m);
    expect(warned.stderr).not.toContain('Dry run');
    const failed = await at60(['-q', 'companies', 'view', '999999']);
    expect(failed.code).toBe(4);
    expect(failed.stderr).toMatch(/^error: /m);
  });
});

describe('--version and --help', () => {
  it('print to stdout and exit 0', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    for (const flag of ['-V', '--version']) {
      const r = await h.run([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toBe(version);
    }
    const help = await h.run(['companies', 'list', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: agency companies list/);
    expect(help.stdout).toContain('--inactive');
    expect(sent(h.sandbox)).toEqual([]);
  });
});

describe('--debug', () => {
  it.each([
    ['--debug', ['--debug'], {}],
    ['AGENCY_DEBUG=1', [], { AGENCY_DEBUG: '1' }],
  ])('%s logs method, URL and status to stderr with the key redacted', async (_how, flags, env) => {
    const plain = await h.run(['companies', 'list', '--limit', '2']);
    h.sandbox.reset();

    const r = await h.run([...flags, 'companies', 'list', '--limit', '2'], { env });

    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(plain.stdout);
    expect(r.stderr).toContain(`GET ${h.sandbox.baseUrl}/v2/agency/companies?page=1`);
    expect(r.stderr).toMatch(/\b200\b/);
    expect(r.stderr).toMatch(/x-api-key: \S+/);
    expect(r.stderr).not.toContain(CANARY_KEY);
  });

  it('redacts a key given in AGENCY_API_KEY, also on a 401', async () => {
    const wrong = 'wpk_hq_DEBUGWRONG_00000000000000';
    const r = await h.run(['--debug', 'me'], { env: { AGENCY_API_KEY: wrong } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('401');
    expect(r.stderr).toContain(`GET ${h.sandbox.baseUrl}/v1/me`);
    expect(r.stderr).not.toContain(wrong);
  });
});

// ---- helpers ----

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(condition()).toBe(true);
}

/**
 * Runs agency in this process with stdout and stderr as a terminal 200 columns wide (the binary's own
 * terminal is test/e2e/tty.test.ts's), by default without colour, so any escape sequence in the output
 * came from the server.
 */
function onTerminal(args: string[], env: Record<string, string> = { NO_COLOR: '1' }) {
  return runOnTerminal(h, args, { columns: 200, env });
}
