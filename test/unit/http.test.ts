/**
 * The HTTP layer against a tiny scripted server: each request the server receives takes the next
 * planned answer (the last one repeats), so a test says exactly what the network does and counts
 * how often the client asked.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Http, type HttpOptions, type Method } from '../../src/api/http.js';
import { AccountGates } from '../../src/api/limit.js';
import type { RetryPolicy } from '../../src/api/retry.js';
import { ApiError, InterruptedError, NetworkError, ResponseError, UsageError } from '../../src/errors.js';

const KEY = 'wpk_unit_SECRET_0123456789abcdef';

/** The real rules with tiny waits, so that a test of four attempts takes milliseconds. */
const FAST: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 2,
  maxDelayMs: 10,
  busyAttempts: 5,
  busyBaseDelayMs: 2,
  budgetMs: 10_000,
  maxRetryAfterMs: 2_000,
  random: () => 0.5,
};

type Plan =
  | { status: number; body?: string; headers?: Record<string, string> }
  | { reset: 'before-body' }
  | { truncate: number; body: string }
  | { stall: true }
  | { raw: string };

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let baseUrl: string;
let plans: Plan[] = [];
let seen: Seen[] = [];
const openClients: Http[] = [];

function json(status: number, value: unknown, headers: Record<string, string> = {}): Plan {
  return { status, body: JSON.stringify(value), headers: { 'content-type': 'application/json', ...headers } };
}

function problem(status: number, title: string, detail: string, headers: Record<string, string> = {}): Plan {
  return json(status, { title, status, detail, timestamp: '2025-06-01 12:00:00' }, headers);
}

function answer(req: IncomingMessage, res: ServerResponse, body: string): void {
  seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
  const plan =
    (seen.length <= plans.length ? plans[seen.length - 1] : plans[plans.length - 1]) ?? json(200, {});
  if ('reset' in plan) {
    req.socket.destroy();
  } else if ('truncate' in plan) {
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(plan.body)),
    });
    res.write(plan.body.slice(0, plan.truncate), () => req.socket.destroy());
  } else if ('raw' in plan) {
    req.socket.end(plan.raw);
  } else if ('stall' in plan) {
    // Never answers; the client's deadline must end it.
  } else {
    res.writeHead(plan.status, plan.headers ?? {});
    res.end(plan.body ?? '');
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => answer(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rest`;
});

afterEach(async () => {
  await Promise.all(openClients.splice(0).map((c) => c.close()));
  plans = [];
  seen = [];
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function client(options: Partial<HttpOptions> = {}): Http {
  const http = new Http({
    baseUrl,
    apiKey: KEY,
    timeoutMs: 5_000,
    userAgent: 'agency-cli/test',
    retry: FAST,
    gates: new AccountGates(),
    ...options,
  });
  openClients.push(http);
  return http;
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the request to fail');
}

const list = { content: [{ id: 1 }], pagination_data: { current_page_number: 1, total_pages: 1 } };

describe('retry rules', () => {
  const cases: [Method, number, number][] = [
    ['GET', 429, 5],
    ['GET', 502, 4],
    ['GET', 503, 4],
    ['GET', 504, 4],
    ['GET', 500, 4],
    ['GET', 400, 1],
    ['GET', 404, 1],
    ['POST', 429, 5],
    ['POST', 500, 1],
    ['POST', 502, 1],
    ['POST', 503, 1],
    ['POST', 504, 1],
  ];
  it.each(cases)(
    '%s answered %i forever is sent %i time(s), then fails naming the status',
    async (method, status, sent) => {
      plans = [problem(status, 'Status', `answer ${status}`)];
      const error = await failure(
        client().request({
          method,
          path: '/v2/agency/companies',
          body: method === 'POST' ? { companies: [] } : undefined,
        }),
      );
      expect(seen).toHaveLength(sent);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(status);
      expect(error.message).toContain(String(status));
      if (sent > 1) expect(error.message).toContain(`tried ${sent} times`);
    },
  );

  it('a GET that gets a 503 and then an answer returns the answer', async () => {
    plans = [problem(503, 'Service unavailable', 'busy'), json(200, list)];
    const res = await client().request({ method: 'GET', path: '/v2/agency/companies' });
    expect(res.data).toEqual(list);
    expect(seen).toHaveLength(2);
  });

  it('a POST answered 429 is sent again with the same body', async () => {
    plans = [problem(429, 'Too many requests', 'queue full'), json(201, { companies: [] })];
    await client().request({
      method: 'POST',
      path: '/v2/agency/companies',
      body: { companies: [{ name: 'A' }] },
    });
    expect(seen.map((s) => s.body)).toEqual([
      JSON.stringify({ companies: [{ name: 'A' }] }),
      JSON.stringify({ companies: [{ name: 'A' }] }),
    ]);
  });

  it('a GET whose connection is reset is tried again', async () => {
    plans = [{ reset: 'before-body' }, { reset: 'before-body' }, json(200, list)];
    const res = await client().request({ method: 'GET', path: '/v2/agency/companies' });
    expect(res.data).toEqual(list);
    expect(seen).toHaveLength(3);
  });

  it('a POST whose connection is reset is never repeated, and says it may have happened', async () => {
    plans = [{ reset: 'before-body' }, json(201, {})];
    const error = await failure(client().request({ method: 'POST', path: '/v2/agency/companies', body: {} }));
    expect(seen).toHaveLength(1);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(/connection/);
    expect((error as NetworkError).hint).toMatch(/may or may not have processed/);
  });

  it('honours Retry-After: 0 by retrying at once', async () => {
    plans = [problem(429, 'Too many requests', 'busy', { 'retry-after': '0' }), json(200, list)];
    await client().request({ method: 'GET', path: '/v2/agency/companies' });
    expect(seen).toHaveLength(2);
  });

  it('does not wait when the server asks for longer than the tool waits, and says so', async () => {
    plans = [problem(503, 'Service unavailable', 'maintenance', { 'retry-after': '3600' })];
    const error = await failure(client().request({ method: 'GET', path: '/v2/agency/companies' }));
    expect(seen).toHaveLength(1);
    expect(error.message).toMatch(/503/);
    expect(error.message).toMatch(/asked to retry after 3600 s/);
  });

  it('a connection refused is retried for a GET, then reported as such', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const lines: string[] = [];
    const error = await failure(
      client({ baseUrl: `http://127.0.0.1:${port}/rest`, debug: (l) => lines.push(l) }).request({
        method: 'GET',
        path: '/v1/me',
      }),
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(/connection refused \(tried 4 times\)/);
    expect(lines.filter((l) => l.startsWith('retry GET'))).toHaveLength(3);
  });
});

describe('answers that are not what they claim', () => {
  it('a body cut short after the status is retried for a GET, and the error names the status', async () => {
    const body = JSON.stringify(list);
    plans = [{ truncate: 10, body }];
    const error = await failure(client().request({ method: 'GET', path: '/v2/agency/companies' }));
    expect(seen).toHaveLength(4);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(/answered 200, but the connection closed before the whole answer arrived/);
  });

  it('a body cut short is not repeated for a POST', async () => {
    plans = [{ truncate: 5, body: JSON.stringify({ companies: [] }) }];
    const error = await failure(client().request({ method: 'POST', path: '/v2/agency/companies', body: {} }));
    expect(seen).toHaveLength(1);
    expect(error.message).toMatch(/answered 200/);
    expect((error as NetworkError).hint).toMatch(/may or may not/);
  });

  it('complete but truncated JSON is an error naming the status, not retried', async () => {
    plans = [
      { status: 200, body: '{"content": [{"id": 1}', headers: { 'content-type': 'application/json' } },
    ];
    const error = await failure(client().request({ method: 'GET', path: '/v2/agency/companies' }));
    expect(seen).toHaveLength(1);
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.message).toMatch(/answered 200 with a body that is not valid JSON/);
  });

  it('an HTML gateway page on 502 names the status and the HTML', async () => {
    plans = [
      {
        status: 502,
        body: '<html><body>Bad Gateway</body></html>',
        headers: { 'content-type': 'text/html' },
      },
    ];
    const error = await failure(client().request({ method: 'GET', path: '/v1/me' }));
    expect(seen).toHaveLength(4);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toMatch(/answered 502 with an HTML page instead of JSON/);
  });

  it('an HTML page on 200 is a ResponseError naming the status', async () => {
    plans = [{ status: 200, body: '<!DOCTYPE html><p>Login</p>', headers: { 'content-type': 'text/html' } }];
    const error = await failure(client().request({ method: 'GET', path: '/v1/me' }));
    expect(error).toBeInstanceOf(ResponseError);
    expect((error as ResponseError).status).toBe(200);
    expect(error.message).toMatch(/answered 200 with an HTML page/);
  });

  it('a redirect is not followed (the key must not go to another host), and names the status', async () => {
    plans = [{ status: 302, headers: { location: 'https://elsewhere.example/rest/v1/me' } }];
    const error = await failure(client().request({ method: 'GET', path: '/v1/me' }));
    expect(seen).toHaveLength(1);
    expect(error).toBeInstanceOf(ResponseError);
    expect(error.message).toMatch(
      /answered 302, a redirect to https:\/\/elsewhere\.example\/rest\/v1\/me, which is not followed/,
    );
  });

  it('an answer that is not HTTP at all is a clear error, not a crash', async () => {
    plans = [{ raw: 'SSH-2.0-OpenSSH_9.6\r\n\r\n' }];
    const error = await failure(client().request({ method: 'POST', path: '/v1/me', body: {} }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(/^POST \/v1\/me failed: the answer was not valid HTTP: /);
    expect(seen).toHaveLength(1);
  });

  it('a long, multi-line detail is quoted on one line and clipped', async () => {
    plans = [problem(400, 'Bad request', `first line\nerror: forged line\n${'x'.repeat(5000)}`)];
    const error = await failure(client().request({ method: 'GET', path: '/v1/me' }));
    expect(error.message.split('\n')).toHaveLength(1);
    expect(error.message.length).toBeLessThan(700);
    expect((error as ApiError).detail).toContain('\nerror: forged line\n');
  });

  it('a stalled answer ends at the deadline; a GET is retried, a POST is not', async () => {
    plans = [{ stall: true }];
    const get = await failure(client({ timeoutMs: 100 }).request({ method: 'GET', path: '/v1/me' }));
    expect(get.message).toMatch(/no answer within 0.1 s \(tried 4 times\)/);
    expect(seen).toHaveLength(4);
    seen = [];
    const post = await failure(
      client({ timeoutMs: 100 }).request({ method: 'POST', path: '/v1/me', body: {} }),
    );
    expect(post).toBeInstanceOf(NetworkError);
    expect(seen).toHaveLength(1);
  });
});

describe('the key', () => {
  it('is sent in x-api-key and redacted from the debug trace', async () => {
    plans = [json(200, { ok: true }, { 'x-echo': `you sent ${KEY}` })];
    const lines: string[] = [];
    await client({ debug: (l) => lines.push(l) }).request({ method: 'GET', path: '/v1/me' });
    expect(seen[0]?.headers['x-api-key']).toBe(KEY);
    expect(lines).toContain('  x-api-key: [redacted]');
    expect(lines.some((l) => l.includes('x-echo: you sent [redacted]'))).toBe(true);
    expect(lines.join('\n')).not.toContain(KEY);
  });

  it('is redacted from error text a server echoes back, plain or URL-encoded', async () => {
    const key = 'wpk_with/slash+plus_0123456789';
    plans = [problem(401, `Unauthorized ${key}`, `Invalid api key ${key} (${encodeURIComponent(key)})`)];
    const error = (await failure(
      client({ apiKey: key }).request({ method: 'GET', path: '/v1/me' }),
    )) as ApiError;
    expect(error.status).toBe(401);
    expect(error.exitCode).toBe(3);
    for (const text of [error.message, error.title, error.detail]) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(encodeURIComponent(key));
    }
    expect(error.detail).toBe('Invalid api key [redacted] ([redacted])');
  });

  it.each([
    ['a line break', 'wpk_abc\ndef_0123456789'],
    ['a space', 'wpk_abc def_0123456789'],
    ['a non-ASCII letter', 'wpk_abcé_0123456789'],
    ['nothing at all', ''],
  ])('with %s is refused before anything is sent, and not quoted', async (_what, key) => {
    const error = await failure(client({ apiKey: key }).request({ method: 'GET', path: '/v1/me' }));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    expect(seen).toHaveLength(0);
    if (key) expect(error.message).not.toContain(key);
  });
});

describe('interruption', () => {
  it('Ctrl-C during a retry wait ends with InterruptedError without another attempt', async () => {
    plans = [problem(503, 'Service unavailable', 'busy', { 'retry-after': '2' })];
    const abort = new AbortController();
    const pending = failure(client({ signal: abort.signal }).request({ method: 'GET', path: '/v1/me' }));
    while (seen.length === 0) await new Promise((r) => setTimeout(r, 5));
    abort.abort();
    expect(await pending).toBeInstanceOf(InterruptedError);
    expect(seen).toHaveLength(1);
  });

  it('Ctrl-C during a request that hangs ends with InterruptedError', async () => {
    plans = [{ stall: true }];
    const abort = new AbortController();
    const pending = failure(client({ signal: abort.signal }).request({ method: 'GET', path: '/v1/me' }));
    while (seen.length === 0) await new Promise((r) => setTimeout(r, 5));
    abort.abort();
    expect(await pending).toBeInstanceOf(InterruptedError);
  });
});
