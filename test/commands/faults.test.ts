/**
 * Hostile conditions, end to end: the sandbox drops, stalls, truncates and answers with gateway pages,
 * and each test checks what the user gets — the retry rules of the contract (a GET is retried, a POST
 * only after 429, counted by what the sandbox received and created), a message naming the status, the
 * documented exit code, no stack trace, and nothing half-written on stdout.
 *
 * Waits stay short without a test-only knob: 429 and 503 faults carry `Retry-After: 0`, the others use
 * the real schedule (at most 2.1 s for four attempts), and stalls use a sub-second --timeout.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID, type RecordedRequest, type SandboxOptions } from '../../src/sandbox/index.js';
import { CANARY_KEY, type Harness, jsonError, type RunResult, startHarness } from '../helpers/cli.js';

/** The program runs in this process (test/helpers/in-process.ts); spawn() still starts the binary. */
const IN_PROCESS = { inProcess: true };

const COMPANIES = '/rest/v2/agency/companies';
const STACK_LINE = /^\s+at /m;

/** Each test gets its own sandbox (faults and the request log are per sandbox), so tests run concurrently. */
function withSandbox(test: (h: Harness) => Promise<void>, options: SandboxOptions = {}): () => Promise<void> {
  return async () => {
    const h = await startHarness(options, IN_PROCESS);
    try {
      await test(h);
    } finally {
      await h.close();
    }
  };
}

function received(h: Harness, method: string, path = COMPANIES): RecordedRequest[] {
  return h.requests().filter((q) => q.method === method && q.path === path);
}

const allIds = (h: Harness) => h.sandbox.store.companies(MAIN_AGENCY_ID).map((c) => String(c.id));
const firstColumn = (stdout: string) =>
  stdout === ''
    ? []
    : stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split('\t')[0]);
const named = (h: Harness, name: string) =>
  h.sandbox.store.companies(MAIN_AGENCY_ID).filter((c) => c.name === name);

function expectFailure(r: RunResult, code: number, message: RegExp): void {
  expect(r.code, r.stderr).toBe(code);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(STACK_LINE);
  expect(r.stdout, 'nothing half-written on stdout').toBe('');
}

describe.concurrent('GET: retried on 429, 500, 502, 503, 504 and connection errors, then a clear failure', () => {
  it(
    'a burst of 429 is waited out and the listing is complete',
    withSandbox(async (h) => {
      h.sandbox.addFault({
        kind: 'status',
        status: 429,
        method: 'GET',
        path: '/v2/agency/companies',
        times: 3,
        retryAfter: 0,
      });
      const r = await h.run(['companies', 'list']);
      expect(r.code, r.stderr).toBe(0);
      expect(firstColumn(r.stdout)).toEqual(allIds(h));
      // Page 1 was asked four times (three 429s), the other pages once.
      expect(received(h, 'GET').map((q) => `${q.query.page}:${q.status}`)).toEqual([
        '1:429',
        '1:429',
        '1:429',
        '1:200',
        '2:200',
        '3:200',
      ]);
    }),
  );

  // 429 gets 5 tries (waits of about 1, 2, 4, 8 s: a shared queue), the gateways 4 (shorter waits).
  it.each([
    [429, 'Too many requests', 5],
    [502, 'Bad gateway', 4],
    [503, 'Service unavailable', 4],
    [504, 'Gateway timeout', 4],
  ])('%i forever (%s): %i attempts, exit 1, the status in the message', (status, title, tries) =>
    withSandbox(async (h) => {
      h.sandbox.addFault({
        kind: 'status',
        status,
        method: 'GET',
        path: '/v2/agency/companies',
        times: 0,
        retryAfter: 0,
      });
      const r = await h.run(['companies', 'list']);
      expectFailure(r, 1, new RegExp(`answered ${status} ${title}.*\\(tried ${tries} times\\)`, 'i'));
      expect(received(h, 'GET')).toHaveLength(tries);
    })(),
  );

  it.each([500, 502, 504])(
    '%i once, without Retry-After, is retried with backoff and the listing is complete',
    (status) =>
      withSandbox(async (h) => {
        h.sandbox.addFault({ kind: 'status', status, method: 'GET', path: '/v2/agency/companies' });
        const r = await h.run(['companies', 'list']);
        expect(r.code, r.stderr).toBe(0);
        expect(firstColumn(r.stdout)).toEqual(allIds(h));
        expect(received(h, 'GET').map((q) => q.status)).toEqual([status, 200, 200, 200]);
      })(),
  );

  it.each([501, 400])('%i is not retried: one request, exit 1', (status) =>
    withSandbox(async (h) => {
      h.sandbox.addFault({ kind: 'status', status, method: 'GET', path: '/v2/agency/companies', times: 0 });
      const r = await h.run(['companies', 'list']);
      expectFailure(r, 1, new RegExp(`answered ${status}`));
      expect(received(h, 'GET')).toHaveLength(1);
    })(),
  );

  it('a failure on a later page prints none of the earlier pages', async () => {
    // Page 1 succeeds; the fault is armed as soon as it has arrived (each request takes 300 ms). The
    // later pages fail after their 300 ms ('status-after'): failed at once, page 2's answer could come
    // back before page 3 had left a busy machine, and the run ended without sending it.
    const slow = await startHarness({ latencyMs: 300 }, IN_PROCESS);
    try {
      // In this process too: the run goes on while this test waits for page 1 to arrive.
      const running = slow.run(['companies', 'list']);
      while (slow.requests().length === 0) await new Promise((r) => setTimeout(r, 5));
      slow.sandbox.addFault({
        kind: 'status-after',
        status: 501,
        method: 'GET',
        path: '/v2/agency/companies',
        times: 0,
      });
      const r = await running;
      expectFailure(r, 1, /page 2.*answered 501/);
      // Pages 2 and 3 were asked for together (pipelined); the listing stops at the first failure.
      expect(
        slow
          .requests()
          .map((q) => `${q.query.page}:${q.status}`)
          .sort(),
      ).toEqual(['1:200', '2:501', '3:501']);
    } finally {
      await slow.close();
    }
  });

  it(
    'an HTML gateway page on 502 is retried, then named as such',
    withSandbox(async (h) => {
      h.sandbox.addFault({
        kind: 'html',
        status: 502,
        method: 'GET',
        path: '/v2/agency/companies',
        times: 0,
      });
      const r = await h.run(['companies', 'list']);
      expectFailure(r, 1, /answered 502 with an HTML page instead of JSON \(tried 4 times\)/);
      expect(received(h, 'GET')).toHaveLength(4);
    }),
  );

  it(
    'an HTML page on 200 (a captive portal) is an error naming the status, not retried',
    withSandbox(async (h) => {
      h.sandbox.addFault({
        kind: 'html',
        status: 200,
        method: 'GET',
        path: '/v2/agency/companies',
        times: 0,
      });
      const r = await h.run(['companies', 'list']);
      expectFailure(r, 1, /answered 200 with an HTML page instead of JSON/);
      expect(received(h, 'GET')).toHaveLength(1);
    }),
  );

  it(
    'an HTML page on 403 is an authorisation failure (exit 3)',
    withSandbox(async (h) => {
      h.sandbox.addFault({
        kind: 'html',
        status: 403,
        method: 'GET',
        path: '/v2/agency/companies',
        times: 0,
      });
      const r = await h.run(['companies', 'list']);
      expectFailure(r, 3, /answered 403 with an HTML page/);
      expect(received(h, 'GET')).toHaveLength(1);
    }),
  );

  it.each(['reset-before', 'reset-after'] as const)('a connection %s once is retried transparently', (kind) =>
    withSandbox(async (h) => {
      h.sandbox.addFault({ kind, method: 'GET', path: '/v2/agency/companies' });
      const r = await h.run(['companies', 'list']);
      expect(r.code, r.stderr).toBe(0);
      expect(firstColumn(r.stdout)).toEqual(allIds(h));
      expect(received(h, 'GET')).toHaveLength(4);
    })(),
  );

  it.each(['reset-before', 'reset-after'] as const)(
    'a connection %s every time: four attempts, exit 1',
    (kind) =>
      withSandbox(async (h) => {
        h.sandbox.addFault({ kind, method: 'GET', path: '/v2/agency/companies', times: 0 });
        const r = await h.run(['companies', 'list']);
        expectFailure(r, 1, /connection closed before any answer arrived \(tried 4 times\)/);
        expect(received(h, 'GET')).toHaveLength(4);
      })(),
  );

  it(
    'a body cut short is retried; every time, the message names the status that was received',
    withSandbox(async (h) => {
      h.sandbox.addFault({ kind: 'truncated', method: 'GET', path: '/v2/agency/companies', times: 0 });
      const r = await h.run(['companies', 'list']);
      expectFailure(
        r,
        1,
        /answered 200, but the connection closed before the whole answer arrived \(tried 4 times\)/,
      );
      expect(received(h, 'GET')).toHaveLength(4);
    }),
  );

  it(
    'a JSON content type with a body that is not JSON is an error naming the status, not retried',
    withSandbox(async (h) => {
      h.sandbox.addFault({ kind: 'not-json', method: 'GET', path: '/v2/agency/companies', times: 0 });
      const r = await h.run(['companies', 'list', '--json']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /answered 200 with a body that is not valid JSON instead of JSON \(application\/json\)/,
      );
      expect(jsonError(r.stderr).error).toMatchObject({ status: 200 });
      expect(received(h, 'GET')).toHaveLength(1);
    }),
  );

  it(
    'an answer that stalls past --timeout (decimal seconds) is abandoned and retried, then exit 1',
    withSandbox(async (h) => {
      h.sandbox.addFault({
        kind: 'stall',
        method: 'GET',
        path: '/v2/agency/companies',
        times: 0,
        stallMs: 20_000,
      });
      const r = await h.run(['--timeout', '0.4', 'companies', 'list']);
      expectFailure(r, 1, /no answer within 0\.4 s \(tried 4 times\)/);
      expect(received(h, 'GET')).toHaveLength(4);
    }),
  );

  it(
    'a stall once is survived when the retry answers',
    withSandbox(async (h) => {
      h.sandbox.addFault({ kind: 'stall', method: 'GET', path: '/v2/agency/companies', stallMs: 20_000 });
      // A deadline long enough for a normal answer on a loaded machine.
      const r = await h.run(['companies', 'list'], { env: { AGENCY_TIMEOUT: '2' } });
      expect(r.code, r.stderr).toBe(0);
      expect(firstColumn(r.stdout)).toEqual(allIds(h));
    }),
  );

  it(
    'a very large page is printed whole, as TSV and as JSON',
    withSandbox(async (h) => {
      // 2000 companies in one answer: 40 pages' worth, and more than a pipe holds (64 KiB) as TSV.
      h.sandbox.addFault({
        kind: 'large-page',
        method: 'GET',
        path: '/v2/agency/companies',
        times: 2,
        size: 2000,
      });
      const tsv = await h.run(['companies', 'list']);
      expect(tsv.code, tsv.stderr).toBe(0);
      expect(tsv.stdout.length).toBeGreaterThan(65_536);
      const rows = tsv.stdout.trimEnd().split('\n');
      expect(rows).toHaveLength(2000);
      expect(rows[0]).toBe('900001\tSynthetic Company 1\tOlivia Owner\ttrue\t0\t0\t0');
      expect(rows[1999]?.split('\t')[0]).toBe('902000');
      const json = await h.run(['companies', 'list', '--json']);
      expect(json.code, json.stderr).toBe(0);
      const items = JSON.parse(json.stdout) as { id: number }[];
      expect(items).toHaveLength(2000);
      expect(items[1999]?.id).toBe(902_000);
    }),
  );

  it(
    'a Retry-After longer than the tool waits ends at once, saying what the service asked',
    withSandbox(async (h) => {
      h.sandbox.addFault({
        kind: 'status',
        status: 503,
        method: 'GET',
        path: '/v2/agency/companies',
        times: 0,
        retryAfter: 3600,
      });
      const r = await h.run(['companies', 'list']);
      expectFailure(r, 1, /answered 503 .*asked to retry after 3600 s/);
      expect(received(h, 'GET')).toHaveLength(1);
    }),
  );

  it(
    'a refused connection is retried, then reported with the base URL',
    withSandbox(async (h) => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const r = await h.run(['--debug', 'companies', 'list'], {
        env: { AGENCY_BASE_URL: `http://127.0.0.1:${port}/rest` },
      });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/connection refused \(tried 4 times\)/);
      expect(r.stderr).toContain(`http://127.0.0.1:${port}/rest`);
      expect(r.stderr.match(/\[debug\] retry GET/g)).toHaveLength(3);
      expect(r.stderr).not.toMatch(STACK_LINE);
    }),
  );

  it(
    'with --json, a network failure is one JSON error object with a null status',
    withSandbox(async (h) => {
      h.sandbox.addFault({ kind: 'reset-before', method: 'GET', path: '/v2/agency/companies', times: 0 });
      const r = await h.run(['--json', 'companies', 'list']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(jsonError(r.stderr).error).toMatchObject({
        status: null,
        message: expect.stringMatching(/tried 4 times/),
      });
    }),
  );
});

describe.concurrent('POST: never repeated unless the service answered 429', () => {
  it(
    'a burst of 429 is retried and the company is created exactly once',
    withSandbox(async (h) => {
      const name = '429 burst';
      h.sandbox.addFault({
        kind: 'status',
        status: 429,
        method: 'POST',
        path: '/v2/agency/companies',
        times: 2,
        retryAfter: 0,
      });
      const r = await h.run(['companies', 'create', '--name', name]);
      expect(r.code, r.stderr).toBe(0);
      expect(received(h, 'POST').map((q) => q.status)).toEqual([429, 429, 201]);
      expect(h.sandbox.stats().createdCompanies).toBe(1);
      expect(named(h, name)).toHaveLength(1);
      expect(firstColumn(r.stdout)).toEqual([String(named(h, name)[0]?.id)]);
    }),
  );

  it(
    '429 forever: five attempts, nothing created, exit 1 naming 429',
    withSandbox(async (h) => {
      const name = '429 forever';
      h.sandbox.addFault({
        kind: 'status',
        status: 429,
        method: 'POST',
        path: '/v2/agency/companies',
        times: 0,
        retryAfter: 0,
      });
      const r = await h.run(['companies', 'create', '--name', name]);
      expectFailure(r, 1, /answered 429.*\(tried 5 times\)/);
      expect(received(h, 'POST')).toHaveLength(5);
      expect(h.sandbox.stats().createdCompanies).toBe(0);
      expect(named(h, name)).toHaveLength(0);
    }),
  );

  it.each([500, 502, 503, 504])('%i is not retried: one POST, nothing created, exit 1', (status) =>
    withSandbox(async (h) => {
      const name = `post ${status}`;
      h.sandbox.addFault({
        kind: 'status',
        status,
        method: 'POST',
        path: '/v2/agency/companies',
        retryAfter: 0,
      });
      const r = await h.run(['companies', 'create', '--name', name]);
      expectFailure(r, 1, new RegExp(`answered ${status}`));
      expect(received(h, 'POST')).toHaveLength(1);
      expect(named(h, name)).toHaveLength(0);
    })(),
  );

  it(
    'an HTML 502 page is not retried for a POST',
    withSandbox(async (h) => {
      const name = 'post html';
      h.sandbox.addFault({
        kind: 'html',
        status: 502,
        method: 'POST',
        path: '/v2/agency/companies',
        times: 0,
      });
      const r = await h.run(['companies', 'create', '--name', name]);
      expectFailure(r, 1, /answered 502 with an HTML page/);
      expect(received(h, 'POST')).toHaveLength(1);
    }),
  );

  it(
    'a reset before the request was read: not repeated, checked, reported as not created',
    withSandbox(async (h) => {
      const name = 'reset before';
      h.sandbox.addFault({ kind: 'reset-before', method: 'POST', path: '/v2/agency/companies' });
      const r = await h.run(['companies', 'create', '--name', name]);
      expectFailure(r, 1, /connection closed before any answer arrived/);
      expect(r.stderr).toContain(name);
      expect(received(h, 'POST')).toHaveLength(1);
      expect(named(h, name)).toHaveLength(0);
    }),
  );

  it.each(['reset-after', 'truncated'] as const)(
    'a %s after the company was made: not repeated; the company exists once, reported as created (the list read before says it is new)',
    (kind) =>
      withSandbox(async (h) => {
        const name = kind;
        h.sandbox.addFault({ kind, method: 'POST', path: '/v2/agency/companies' });
        const r = await h.run(['companies', 'create', '--name', name]);
        expect(received(h, 'POST')).toHaveLength(1);
        expect(h.sandbox.stats().createdCompanies).toBe(1);
        expect(named(h, name)).toHaveLength(1);
        // The list was read before the request: a company with the name and an id not seen then is the
        // one the lost request created.
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toMatch(new RegExp(`^${named(h, name)[0]?.id}\t${name}\t.*\tcreated\n$`));
        expect(r.stderr).toContain('was lost');
        expect(r.stderr).not.toMatch(STACK_LINE);
      })(),
  );

  it(
    'a 500 on creating a name that no listing showed, found nowhere afterwards: "Not created", exit 1',
    withSandbox(async (h) => {
      h.sandbox.addFault({ kind: 'status', status: 500, method: 'POST', path: '/v2/agency/companies' });
      const r = await h.run(['companies', 'create', '--name', 'Five Hundred Co']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('Not created (1):\n    Five Hundred Co');
      expect(received(h, 'POST')).toHaveLength(1);
    }),
  );

  it(
    'a POST answer that stalls past --timeout is not repeated',
    withSandbox(async (h) => {
      const name = 'stall';
      h.sandbox.addFault({ kind: 'stall', method: 'POST', path: '/v2/agency/companies', stallMs: 20_000 });
      const r = await h.run(['--timeout', '0.5', 'companies', 'create', '--name', name]);
      expectFailure(r, 1, /no answer within 0\.5 s/);
      expect(received(h, 'POST')).toHaveLength(1);
      expect(named(h, name)).toHaveLength(0);
    }),
  );

  it(
    'a body that is not JSON: not repeated, exit 1 naming the status',
    withSandbox(async (h) => {
      const name = 'not json';
      h.sandbox.addFault({ kind: 'not-json', method: 'POST', path: '/v2/agency/companies' });
      const r = await h.run(['companies', 'create', '--name', name]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/answered 200 with a body that is not valid JSON/);
      expect(received(h, 'POST')).toHaveLength(1);
    }),
  );

  it(
    'keys create: a lost answer is never repeated (the keys are read back; test/commands/lost-answers.test.ts)',
    withSandbox(async (h) => {
      const company = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true })[0];
      const path = `/v2/agency/companies/${company?.id}/api_keys`;
      h.sandbox.addFault({ kind: 'reset-after', method: 'POST', path });
      const r = await h.run(['keys', 'create', String(company?.id), '--label', 'lost-answer']);
      // The keys read before the POST and again after it show the new one: created, printed.
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^\S+\n$/);
      expect(r.stderr).toMatch(/was lost, but its keys, read again, show the new key/);
      expect(received(h, 'POST', `/rest${path}`)).toHaveLength(1);
      expect(h.sandbox.stats().createdKeys).toBe(1);
    }),
  );

  it(
    'keys create: 429 then success creates one key and prints it alone',
    withSandbox(async (h) => {
      const company = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true })[1];
      const path = `/v2/agency/companies/${company?.id}/api_keys`;
      h.sandbox.addFault({ kind: 'status', status: 429, method: 'POST', path, retryAfter: 0 });
      const r = await h.run(['keys', 'create', String(company?.id), '--label', 'after-429']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^\S+\n$/);
      expect(received(h, 'POST', `/rest${path}`).map((q) => q.status)).toEqual([429, 201]);
      expect(h.sandbox.stats().createdKeys).toBe(1);
    }),
  );
});

describe.concurrent('the key never leaks', () => {
  let hostile: Server;
  let hostileUrl: string;
  beforeAll(async () => {
    // A server that echoes the key everywhere it can: in the error detail, a header, and an HTML page.
    hostile = createServer((req, res) => {
      const key = String(req.headers['x-api-key'] ?? '');
      if (req.url?.startsWith('/rest/v1/echo')) {
        res.writeHead(200, { 'content-type': 'application/json', 'x-echo': key });
        res.end(JSON.stringify({ echoed: true }));
        return;
      }
      if (req.url?.startsWith('/rest/v1/me')) {
        res.writeHead(401, { 'content-type': 'application/json', 'x-echo': key });
        res.end(
          JSON.stringify({ title: `Unauthorized ${key}`, status: 401, detail: `Invalid api key ${key}` }),
        );
        return;
      }
      res.writeHead(502, { 'content-type': 'text/html', 'set-cookie': `k=${key}`, 'retry-after': '0' });
      res.end(`<html><body>Bad gateway for ${key}</body></html>`);
    });
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}/rest`;
  });
  afterAll(async () => {
    hostile.closeAllConnections();
    await new Promise((resolve) => hostile.close(resolve));
  });

  // The harness fails any run whose stdout or stderr contains CANARY_KEY; these tests add the places
  // where a leak is most likely and check that the redaction is visible.
  it(
    '--debug logs each request with the key redacted',
    withSandbox(async (h) => {
      const r = await h.run(['--debug', 'companies', 'list', '--limit', '1']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /\[debug\] → GET http:\/\/127\.0\.0\.1:\d+\/rest\/v2\/agency\/companies\?page=1/,
      );
      expect(r.stderr).toContain('x-api-key: [redacted]');
      expect(r.stderr).toMatch(/\[debug\] ← 200 GET/);
    }),
  );

  it(
    'a server that echoes the key in its error, headers and HTML page never gets it printed',
    withSandbox(async (h) => {
      const me = await h.run(['--debug', '--json', 'me'], { env: { AGENCY_BASE_URL: hostileUrl } });
      expect(me.code).toBe(3);
      expect(me.stderr).toContain('Invalid api key [redacted]');
      expect(me.stderr).toContain('x-echo: [redacted]');
      expect(jsonError(me.stderr).error.detail).toBe('Invalid api key [redacted]');
      const list = await h.run(['--debug', 'companies', 'list'], { env: { AGENCY_BASE_URL: hostileUrl } });
      expect(list.code).toBe(1);
      expect(list.stderr).toMatch(/answered 502 with an HTML page/);
      expect(list.stderr).toContain('set-cookie: [redacted]');
    }),
  );

  it(
    'api -i prints the response headers with an echoed key redacted',
    withSandbox(async (h) => {
      const r = await h.run(['api', '/v1/echo', '-i'], { env: { AGENCY_BASE_URL: hostileUrl } });
      expect(r.code, r.stderr).toBe(0);
      const [head, body] = r.stdout.split(/\r?\n\r?\n/, 2);
      expect(head).toMatch(/^HTTP\/1\.1 200/);
      expect(head?.toLowerCase()).toContain('x-echo: [redacted]');
      expect(JSON.parse(body ?? '')).toEqual({ echoed: true });
    }),
  );

  it(
    'AGENCY_DEBUG=1 with retries and a failure still shows no key',
    withSandbox(async (h) => {
      h.sandbox.addFault({
        kind: 'status',
        status: 503,
        method: 'GET',
        path: '/v2/agency/companies',
        times: 0,
        retryAfter: 0,
      });
      const r = await h.run(['companies', 'list'], { env: { AGENCY_DEBUG: '1' } });
      expect(r.code).toBe(1);
      expect(r.stderr.match(/x-api-key: \[redacted\]/g)).toHaveLength(4);
    }),
  );

  it(
    'profiles list shows at most the first and last 4 characters of the key',
    withSandbox(async (h) => {
      const masked = `${CANARY_KEY.slice(0, 4)}…${CANARY_KEY.slice(-4)}`;
      const tsv = await h.run(['profiles', 'list']);
      expect(tsv.code, tsv.stderr).toBe(0);
      expect(tsv.stdout).toContain(masked);
      const json = await h.run(['profiles', 'list', '--json']);
      expect(json.code, json.stderr).toBe(0);
      expect(json.stdout).toContain(masked);
    }),
  );

  it(
    'a refused key is not quoted in the --json error',
    withSandbox(async (h) => {
      // Another sandbox does not know the canary key: 401.
      const other = await startHarness({ hqKey: 'wpk_hq_some_other_key_0123456789' }, IN_PROCESS);
      try {
        const r = await h.run(['--json', 'companies', 'list'], {
          env: { AGENCY_BASE_URL: other.sandbox.baseUrl },
        });
        expect(r.code).toBe(3);
        expect(jsonError(r.stderr).error.status).toBe(401);
        expect(other.requests()[0]?.headers['x-api-key']).toBe(CANARY_KEY);
      } finally {
        await other.close();
      }
    }),
  );

  it(
    'login with the key on stdin: verified, saved, and not echoed',
    withSandbox(async (h) => {
      const r = await h.run(['login', '-p', 'canary-login', '--base-url', h.sandbox.baseUrl], {
        input: `${CANARY_KEY}\n`,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/Key verified/);
      expect(
        (h.readConfig() as { profiles: Record<string, { api_key: string }> }).profiles['canary-login']
          ?.api_key,
      ).toBe(CANARY_KEY);
    }),
  );

  it(
    'a key that cannot be sent in a header is refused locally, without quoting it',
    withSandbox(async (h) => {
      const r = await h.run(['companies', 'list'], { env: { AGENCY_API_KEY: `${CANARY_KEY}\n` } });
      expectFailure(
        r,
        2,
        /The API key contains spaces, line breaks or characters that are not printable ASCII/,
      );
      expect(h.requests()).toHaveLength(0);
    }),
  );
});
