/**
 * The HTTP layer against a server that takes its time and counts what it holds: requests in flight
 * per account (x-company-id or none), connections, the waits between tries (an injected sleep, so
 * nothing really waits), extra headers, and the --debug trace.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Http, type HttpOptions } from '../../src/api/http.js';
import { AccountGates } from '../../src/api/limit.js';
import { DEFAULT_RETRY } from '../../src/api/retry.js';
import { ApiError, UsageError } from '../../src/errors.js';

const KEY = 'wpk_unit_SECRET_0123456789abcdef';

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

let server: Server;
let baseUrl: string;
/** What the server answers to request number n (1-based); 200 {} by default. */
let reply: (n: number, req: IncomingMessage) => Reply = () => ({ status: 200, body: {} });
let delayMs = 0;
let received: { method: string; url: string; account: string; headers: IncomingMessage['headers'] }[] = [];
let inFlight = new Map<string, number>();
let peak = new Map<string, number>();
let sockets = 0;
const open: Http[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const account = String(req.headers['x-company-id'] ?? 'hq');
    received.push({ method: req.method ?? '', url: req.url ?? '', account, headers: req.headers });
    const n = received.length;
    inFlight.set(account, (inFlight.get(account) ?? 0) + 1);
    peak.set(account, Math.max(peak.get(account) ?? 0, inFlight.get(account) ?? 0));
    req.resume();
    req.on('end', () =>
      setTimeout(() => {
        inFlight.set(account, (inFlight.get(account) ?? 1) - 1);
        const r = reply(n, req);
        res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
        res.end(r.body === undefined ? '' : JSON.stringify(r.body));
      }, delayMs),
    );
  });
  server.on('connection', () => sockets++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rest`;
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  reply = () => ({ status: 200, body: {} });
  delayMs = 0;
  received = [];
  inFlight = new Map();
  peak = new Map();
  sockets = 0;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function http(options: Partial<HttpOptions> = {}) {
  const waits: number[] = [];
  const client = new Http({
    baseUrl,
    apiKey: KEY,
    timeoutMs: 5_000,
    userAgent: 'agency-cli/test',
    retry: { ...DEFAULT_RETRY, random: () => 0.5 },
    gates: new AccountGates(options.maxInFlight ?? 3),
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
  open.push(client);
  return { client, waits };
}

const get = (client: Http, companyId?: number) =>
  client.request({ method: 'GET', path: '/v1/me', companyId });
const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as Error,
  );

describe('requests in flight per account', () => {
  it('reads keep up to 3 in flight on one account, over at most 3 connections', async () => {
    delayMs = 30;
    const { client } = http({ connections: 1 });
    await Promise.all(Array.from({ length: 10 }, () => get(client)));
    expect(peak.get('hq')).toBe(3);
    expect(sockets).toBeLessThanOrEqual(3);
  });

  it('requests one after another reuse one kept-alive connection', async () => {
    const { client } = http({ connections: 4 });
    for (let i = 0; i < 20; i++) await get(client);
    expect(received).toHaveLength(20);
    expect(sockets).toBe(1);
  });

  it.each([1, 2, 7])('AGENCY_MAX_IN_FLIGHT=%i is the most in flight', async (depth) => {
    // Long enough for every connection to be open before the first answer, even on a busy machine. Three
    // more requests than the depth: one beyond it would be seen in flight (each answer takes 150 ms).
    delayMs = 150;
    const { client } = http({ maxInFlight: depth });
    await Promise.all(Array.from({ length: depth + 3 }, () => get(client)));
    expect(peak.get('hq')).toBe(depth);
  });

  it('each client account (x-company-id) is counted on its own', async () => {
    delayMs = 30;
    const { client } = http({ connections: 3 });
    await Promise.all([1, 2, 3].flatMap((cid) => Array.from({ length: 5 }, () => get(client, cid))));
    for (const cid of ['1', '2', '3']) expect(peak.get(cid)).toBe(3);
    expect(sockets).toBeLessThanOrEqual(9);
  });

  it('a POST waits for the reads in flight and goes alone; reads asked after it wait for it', async () => {
    delayMs = 20;
    const { client } = http();
    const order: string[] = [];
    const track = (name: string, p: Promise<unknown>) => p.then(() => order.push(name));
    await Promise.all([
      track('r1', get(client)),
      track('r2', get(client)),
      track('w', client.request({ method: 'POST', path: '/v2/agency/companies', body: { companies: [] } })),
      track('r3', get(client)),
    ]);
    expect(received.map((r) => r.method)).toEqual(['GET', 'GET', 'POST', 'GET']);
    expect(order.indexOf('w')).toBeGreaterThan(Math.max(order.indexOf('r1'), order.indexOf('r2')));
    expect(order.at(-1)).toBe('r3');
  });

  it('a POST waiting to retry after a 429 keeps its account: a read asked after it is not sent before it', async () => {
    delayMs = 5;
    reply = (n, req) =>
      n === 1 && req.method === 'POST'
        ? { status: 429, body: {} }
        : { status: req.method === 'POST' ? 201 : 200, body: {} };
    const { client } = http({
      sleep: () => new Promise((resolve) => setTimeout(resolve, 80)),
    });
    const post = client.request({ method: 'POST', path: '/v2/agency/companies', body: { companies: [] } });
    while (received.length === 0) await new Promise((r) => setTimeout(r, 2));
    await Promise.all([post, get(client)]);
    expect(received.map((r) => r.method)).toEqual(['POST', 'POST', 'GET']);
  });

  it('after a 429 the depth is 1 for the rest of the run, on every account', async () => {
    delayMs = 20;
    reply = (n) =>
      n === 1
        ? { status: 429, body: { title: 'Too many requests', status: 429 } }
        : { status: 200, body: {} };
    const gates = new AccountGates(3);
    const { client } = http({ gates });
    await get(client);
    expect(gates.depth()).toBe(1);
    peak = new Map();
    await Promise.all([...Array.from({ length: 6 }, () => get(client)), get(client, 5), get(client, 5)]);
    expect(peak.get('hq')).toBe(1);
    expect(peak.get('5')).toBe(1);
  });
});

describe('retries sized for a shared queue', () => {
  it('429 waits about 1, 2, 4 and 8 s (5 tries), then fails naming it', async () => {
    reply = () => ({ status: 429, body: { title: 'Too many requests', status: 429, detail: 'queue full' } });
    const { client, waits } = http();
    const error = await fail(get(client));
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
    expect(received).toHaveLength(5);
    expect(error.message).toMatch(/answered 429 .*\(tried 5 times\)/);
  });

  it('the 429 waits have jitter of ±25 %', async () => {
    reply = () => ({ status: 429, body: {} });
    const low = http({ retry: { ...DEFAULT_RETRY, random: () => 0 } });
    await fail(get(low.client));
    const high = http({ retry: { ...DEFAULT_RETRY, random: () => 1 } });
    await fail(get(high.client));
    expect(low.waits).toEqual([750, 1500, 3000, 6000]);
    expect(high.waits).toEqual([1250, 2500, 5000, 10000]);
  });

  it('a gateway keeps its shorter waits (4 tries)', async () => {
    reply = () => ({ status: 503, body: {} });
    const { client, waits } = http();
    await fail(get(client));
    expect(waits).toEqual([225, 450, 900]);
    expect(received).toHaveLength(4);
  });

  it("a 429's Retry-After is what the tool waits", async () => {
    reply = (n) =>
      n === 1 ? { status: 429, body: {}, headers: { 'retry-after': '3' } } : { status: 200, body: {} };
    const { client, waits } = http();
    await get(client);
    expect(waits).toEqual([3000]);
  });

  it('a v1 E_TOO_MANY_REQUESTS answered 409 is a 429: a POST is sent again, and the run slows down', async () => {
    const busy = { status: { status: 'ERROR', code: 'E_TOO_MANY_REQUESTS', msg: 'Too many requests' } };
    reply = (n) => (n === 1 ? { status: 409, body: busy } : { status: 201, body: { ok: true } });
    const gates = new AccountGates(3);
    const { client, waits } = http({ gates });
    const res = await client.request({
      method: 'POST',
      path: '/v1/webhooks/subscribe',
      body: { event: 'x' },
    });
    expect(res.status).toBe(201);
    expect(received.map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(waits).toEqual([1000]);
    expect(gates.slowedDown).toBe(true);
  });

  it('E_TOO_MANY_REQUESTS forever ends as a 429 error (exit 1)', async () => {
    const busy = { status: { status: 'ERROR', code: 'E_TOO_MANY_REQUESTS', msg: 'Slow down' } };
    reply = () => ({ status: 409, body: busy });
    const { client } = http();
    const error = (await fail(get(client))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(429);
    expect(error.exitCode).toBe(1);
    expect(received).toHaveLength(5);
  });

  it('a POST answered 503 is not sent again', async () => {
    reply = () => ({ status: 503, body: {} });
    const { client, waits } = http();
    await fail(client.request({ method: 'POST', path: '/v2/agency/companies', body: {} }));
    expect(received).toHaveLength(1);
    expect(waits).toEqual([]);
  });
});

describe('api -H and -i', () => {
  it('extra headers are sent; the answer carries its status text and headers', async () => {
    reply = () => ({ status: 200, body: { ok: true }, headers: { 'x-request-id': 'r-1' } });
    const { client } = http();
    const res = await client.request({ method: 'GET', path: '/v1/me', headers: { 'X-Trace': 'abc' } });
    expect(received[0]?.headers['x-trace']).toBe('abc');
    expect(received[0]?.headers['x-api-key']).toBe(KEY);
    expect(res.statusText).toBe('OK');
    expect(res.headers['x-request-id']).toBe('r-1');
  });

  it.each(['x-api-key', 'X-API-Key', ' x-api-key'])(
    '-H %j is refused before anything is sent',
    async (name) => {
      const { client } = http();
      const error = await fail(
        client.request({ method: 'GET', path: '/v1/me', headers: { [name]: 'other' } }),
      );
      expect(error).toBeInstanceOf(UsageError);
      expect(received).toHaveLength(0);
    },
  );

  it('a header value with a line break is refused', async () => {
    const { client } = http();
    const error = await fail(
      client.request({ method: 'GET', path: '/v1/me', headers: { 'x-a': 'b\r\nx-api-key: y' } }),
    );
    expect(error).toBeInstanceOf(UsageError);
    expect(received).toHaveLength(0);
  });

  it('x-company-id given with -H counts as a company context (its own account)', async () => {
    delayMs = 20;
    const { client } = http({ maxInFlight: 1 });
    await Promise.all([
      get(client),
      client.request({ method: 'GET', path: '/v1/me', headers: { 'x-company-id': '9' } }),
    ]);
    expect(peak.get('hq')).toBe(1);
    expect(peak.get('9')).toBe(1);
    expect(received[0]?.account !== received[1]?.account).toBe(true);
  });
});

describe('--debug', () => {
  it('logs the request, the response line with its query string and timing, headers and bodies, keys redacted', async () => {
    const keys = { content: [{ api_key: 'wpk_client_key_value_9876', label: 'zapier' }], note: KEY };
    reply = () => ({ status: 200, body: keys });
    const lines: string[] = [];
    const { client } = http({ debug: (l) => lines.push(l) });
    await client.request({
      method: 'POST',
      path: '/v2/agency/companies/42/api_keys',
      query: { page: 2 },
      body: { label: 'x', api_key: 'wpk_sent_secret_555' },
    });
    const text = lines.join('\n');
    expect(text).toContain(`→ POST ${baseUrl}/v2/agency/companies/42/api_keys?page=2`);
    expect(text).toMatch(
      /← 200 POST \/rest\/v2\/agency\/companies\/42\/api_keys\?page=2 \(\d+ ms, \d+ bytes\)/,
    );
    expect(text).toContain('  x-api-key: [redacted]');
    expect(text).toContain('"label":"zapier"');
    expect(text).toContain('"api_key":"[redacted]"');
    expect(text).not.toContain('wpk_client_key_value_9876');
    expect(text).not.toContain('wpk_sent_secret_555');
    expect(text).not.toContain(KEY);
  });

  it('names each retry with the query string, the wait and the attempt', async () => {
    reply = (n) => (n === 1 ? { status: 429, body: {} } : { status: 200, body: {} });
    const lines: string[] = [];
    const { client } = http({ debug: (l) => lines.push(l) });
    await client.request({ method: 'GET', path: '/v2/agency/companies', query: { page: 3 } });
    expect(lines).toContain('retry GET /rest/v2/agency/companies?page=3 in 1000 ms (attempt 2 of 5)');
  });

  it('shows the first 2 KB of a body and says how much was left out', async () => {
    reply = () => ({ status: 200, body: { big: 'x'.repeat(10_000) } });
    const lines: string[] = [];
    const { client } = http({ debug: (l) => lines.push(l) });
    await get(client);
    const body = lines.filter((l) => l.startsWith('  | '));
    expect(body.join('').length).toBeLessThan(2200);
    expect(body.at(-1)).toMatch(/more characters not shown/);
  });
});
