/**
 * The sandbox's HTTP side: routing, authentication order, the per-account limiter, fault
 * injection, request recording, and a control API under /_sandbox (outside /rest, never recorded
 * or limited). The rules themselves live in store.ts.
 */
import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { FaultList, type FaultRule, type ListRoute, largePageBody, validateFaultRule } from './faults.js';
import { ConcurrencyLimiter, LimitRejected } from './ratelimit.js';
import { loadOrSeed, saveState } from './state-file.js';
import {
  type HqContext,
  type RequestContext,
  SandboxError,
  type SeedOptions,
  Store,
  type UserRecord,
} from './store.js';

export type { FaultKind, FaultRule } from './faults.js';
export type { CompanyRecord, KeyRecord, SandboxState, UserRecord } from './store.js';
export { Store } from './store.js';

export interface SandboxOptions {
  /** 0 = ephemeral (default 0). */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Loaded if it exists; rewritten atomically (0600) after every mutation. */
  statePath?: string;
  /** Processing time of every API request, spent while holding the account's slot (default 0). */
  latencyMs?: number;
  /** Waiting requests per account beyond the one in progress (default 6). */
  queueLimit?: number;
  /** Longest wait in the queue before 429 (default 15000). */
  queueTimeoutMs?: number;
  /** Size of a fresh world (ignored when a state file is loaded). */
  seed?: SeedOptions;
  /** Fixed HQ key of the agency owner (user 1); default: the saved one, else random. */
  hqKey?: string;
}

export interface Sandbox {
  /** 'http://127.0.0.1:PORT' */
  url: string;
  /** url + '/rest' */
  baseUrl: string;
  /** HQ key of the agency owner (user 1). */
  hqKey: string;
  /** Users of the main agency, owner first. */
  users: { name: string; email: string; hqKey: string }[];
  /** Every API request received (everything except /_sandbox), in order of arrival. */
  requests: RecordedRequest[];
  stats(): SandboxStats;
  /** Clears recorded requests, stats and faults; the data stays. */
  reset(): void;
  addFault(f: FaultRule): void;
  close(): Promise<void>;
  store: Store;
}

export interface RecordedRequest {
  method: string;
  /** Full path as received, without the query string (e.g. '/rest/v2/agency/companies'). */
  path: string;
  query: Record<string, string>;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** Parsed JSON, else the raw text, else undefined when there was no body. */
  body: unknown;
  /** Status answered (or, for 'reset-after', the one that would have been); 0 when nothing was. */
  status: number;
  /** Rate-limit account ('hq:<agencyId>' or 'company:<id>'); '' when the request never got that far. */
  account: string;
  /** Date.now() on arrival. */
  startedAt: number;
  /** Kind of the fault that fired on this request, if any. */
  fault?: string;
}

export interface SandboxStats {
  /** TCP connections accepted. */
  connections: number;
  /** API requests received. */
  requests: number;
  /** Most requests in progress at once per account (the limiter makes this at most 1). */
  maxConcurrentByAccount: Record<string, number>;
  /** Requests refused by the limiter (injected 429 faults are not counted). */
  rejected429: number;
  /** Companies created through POST /v2/agency/companies. */
  createdCompanies: number;
  /** Keys created through POST .../api_keys (automatic keys of new companies are not counted). */
  createdKeys: number;
}

const MAX_BODY_BYTES = 1024 * 1024;
const KEEP_ALIVE_MS = 30_000;

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Payload too large',
  429: 'Too many requests',
};

function titleOf(status: number): string {
  const known = TITLES[status];
  if (known) return known;
  const text = (STATUS_CODES[status] ?? 'Error').toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `YYYY-MM-DD HH:MM:SS`, UTC. */
export function timestamp(date = new Date()): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

export function errorBody(status: number, detail: string) {
  return { title: titleOf(status), status, detail, timestamp: timestamp() };
}

type Body = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'invalid'; text: string };

interface Input {
  method: string;
  params: string[];
  query: Record<string, string>;
  body: Body;
}

interface Result {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

type Route = {
  pattern: RegExp;
  methods: readonly string[];
  /** For the 'large-page' fault. */
  list?: ListRoute;
} & (
  | { agency: false; handle(context: RequestContext, input: Input): Result }
  | { agency: true; handle(context: HqContext, input: Input): Result }
);

function jsonBody(body: Body): unknown {
  if (body.kind !== 'json') throw new SandboxError(400, 'Request body must be valid JSON');
  return body.value;
}

function makeRoutes(store: Store, stats: { createdCompanies: number; createdKeys: number }): Route[] {
  const ok = (body: unknown): Result => ({ status: 200, body });
  return [
    { pattern: /^\/v1\/me$/, methods: ['GET'], agency: false, handle: (c) => ok(store.me(c)) },
    {
      pattern: /^\/v2\/mailboxes$/,
      methods: ['GET'],
      agency: false,
      list: 'mailboxes',
      handle: (c) => ok(store.mailboxes(c)),
    },
    { pattern: /^\/v1\/webhooks$/, methods: ['GET'], agency: false, handle: (c) => ok(store.webhooks(c)) },
    {
      pattern: /^\/v2\/agency\/companies$/,
      methods: ['GET', 'POST'],
      agency: true,
      list: 'companies',
      handle: (c, { method, query, body }) => {
        if (method === 'GET') return ok(store.listCompanies(c, query));
        const created = store.createCompanies(c, jsonBody(body));
        stats.createdCompanies += created.companies.length;
        return { status: 201, body: created };
      },
    },
    {
      pattern: /^\/v2\/agency\/companies\/([^/]+)\/email_accounts$/,
      methods: ['GET'],
      agency: true,
      list: 'email_accounts',
      handle: (c, { params }) => ok(store.emailAccounts(c, params[0] as string)),
    },
    {
      pattern: /^\/v2\/agency\/companies\/([^/]+)\/api_keys$/,
      methods: ['GET', 'POST'],
      agency: true,
      list: 'api_keys',
      handle: (c, { method, params, query, body }) => {
        const cid = params[0] as string;
        if (method === 'GET') return ok(store.listKeys(c, cid, query));
        const created = store.createKey(c, cid, jsonBody(body));
        stats.createdKeys += 1;
        return { status: 201, body: created };
      },
    },
  ];
}

/** The key from `x-api-key`, or on v1 paths from Basic auth (the key as user name or as password). */
function apiKeyOf(req: IncomingMessage, v1: boolean, store: Store): string | undefined {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header !== '') return header;
  const auth = req.headers.authorization;
  if (!v1 || !auth || !/^basic /i.test(auth)) return undefined;
  const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return decoded || undefined;
  const user = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  if (user && store.authenticate(user)) return user;
  if (password && store.authenticate(password)) return password;
  return user || password || undefined;
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function queryOf(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of url.searchParams) if (!(name in out)) out[name] = value;
  return out;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) reject(new SandboxError(413, `Request body is larger than ${MAX_BODY_BYTES} bytes`));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('request aborted'));
    });
  });
}

function parseBody(text: string): Body {
  if (text === '') return { kind: 'none' };
  try {
    return { kind: 'json', value: JSON.parse(text) };
  } catch {
    return { kind: 'invalid', text };
  }
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

function sendError(
  res: ServerResponse,
  status: number,
  detail: string,
  headers: Record<string, string> = {},
): void {
  send(res, status, errorBody(status, detail), headers);
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const host = opts.host ?? '127.0.0.1';
  const latencyMs = opts.latencyMs ?? 0;
  const queueLimit = opts.queueLimit ?? 6;
  const queueTimeoutMs = opts.queueTimeoutMs ?? 15_000;
  const statePath = opts.statePath;

  const store = statePath ? loadOrSeed(statePath, opts.seed) : Store.seed(opts.seed);
  if (opts.hqKey !== undefined) {
    if (opts.hqKey === '') throw new TypeError('hqKey must not be empty');
    store.setHqKey(1, opts.hqKey);
  }
  if (statePath) {
    saveState(statePath, store);
    store.onChange = () => saveState(statePath, store);
  }

  const faults = new FaultList();
  const limiter = new ConcurrencyLimiter({ queueLimit, queueTimeoutMs });
  const requests: RecordedRequest[] = [];
  const zero = () => ({ connections: 0, requests: 0, rejected429: 0, createdCompanies: 0, createdKeys: 0 });
  const counters = zero();
  const stats = (): SandboxStats => ({ ...counters, maxConcurrentByAccount: { ...limiter.maxConcurrent } });
  const routes = makeRoutes(store, counters);
  const closing = new AbortController();

  const reset = () => {
    requests.length = 0;
    Object.assign(counters, zero());
    limiter.resetStats();
    faults.clear();
  };

  /** Runs one API request through routing, auth, context, limiter and handler. */
  async function processApi(
    req: IncomingMessage,
    relPath: string,
    url: URL,
    body: Body,
    record: RecordedRequest,
    gone: AbortSignal,
  ): Promise<(Result & { route?: Route }) | undefined> {
    const method = req.method ?? 'GET';
    let params: string[] | undefined;
    const route = routes.find((r) => {
      const m = r.pattern.exec(relPath);
      if (m) params = m.slice(1);
      return m !== null;
    });
    if (!route || !params) return { status: 404, body: errorBody(404, `No endpoint at ${url.pathname}`) };
    if (!route.methods.includes(method)) {
      return {
        status: 405,
        body: errorBody(405, `${method} is not allowed on ${url.pathname}`),
        headers: { allow: route.methods.join(', ') },
      };
    }
    const fail = (e: SandboxError): Result => ({ status: e.status, body: errorBody(e.status, e.detail) });
    const key = apiKeyOf(req, relPath.startsWith('/v1/'), store);
    if (!key) return { status: 401, body: errorBody(401, 'Missing api key') };
    const principal = store.authenticate(key);
    if (!principal) return { status: 401, body: errorBody(401, 'Invalid api key') };
    let context: RequestContext;
    let hq: HqContext | undefined;
    try {
      const header = req.headers['x-company-id'];
      context = store.resolveContext(principal, Array.isArray(header) ? header.join(', ') : header);
      if (route.agency) hq = store.requireHq(context);
    } catch (error) {
      if (error instanceof SandboxError) return fail(error);
      throw error;
    }
    record.account = context.account;

    let release: () => void;
    try {
      release = await limiter.acquire(context.account, gone);
    } catch (error) {
      if (!(error instanceof LimitRejected)) throw error;
      if (error.reason === 'aborted') return undefined;
      counters.rejected429 += 1;
      const detail =
        error.reason === 'queue-full'
          ? `Too many concurrent requests for account ${context.account}: one in progress and ${queueLimit} waiting`
          : `Request waited more than ${queueTimeoutMs} ms for account ${context.account}`;
      return { status: 429, body: errorBody(429, detail) };
    }
    try {
      if (latencyMs > 0) await processingTime(latencyMs, closing.signal);
      const input: Input = { method, params, query: queryOf(url), body };
      const result = route.agency ? route.handle(hq as HqContext, input) : route.handle(context, input);
      return { ...result, route };
    } catch (error) {
      if (error instanceof SandboxError) return fail(error);
      if (closing.signal.aborted) return undefined;
      throw error;
    } finally {
      release();
    }
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    const record: RecordedRequest = {
      method,
      path: url.pathname,
      query: queryOf(url),
      headers: headersOf(req),
      body: undefined,
      status: 0,
      account: '',
      startedAt: Date.now(),
    };
    requests.push(record);
    counters.requests += 1;
    const goneController = new AbortController();
    res.once('close', () => goneController.abort());
    const gone = goneController.signal;

    const underRest = url.pathname === '/rest' || url.pathname.startsWith('/rest/');
    const relPath = underRest ? url.pathname.slice('/rest'.length) || '/' : undefined;
    const fault = relPath === undefined ? undefined : faults.take(method, relPath);
    if (fault) record.fault = fault.kind;
    if (fault?.kind === 'reset-before') {
      req.socket.destroy();
      return;
    }

    let text: string;
    try {
      text = await readBody(req);
    } catch (error) {
      if (error instanceof SandboxError) {
        record.status = error.status;
        sendError(res, error.status, error.detail, { connection: 'close' });
      }
      return;
    }
    const body = parseBody(text);
    record.body = body.kind === 'json' ? body.value : body.kind === 'invalid' ? body.text : undefined;

    if (relPath === undefined) {
      record.status = 404;
      sendError(res, 404, `No endpoint at ${url.pathname}; API paths start with /rest`);
      return;
    }

    switch (fault?.kind) {
      case 'status': {
        const status = fault.status ?? 500;
        record.status = status;
        const headers: Record<string, string> = {};
        if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
        const detail =
          status === 429
            ? 'Too many concurrent requests for this account'
            : `The service answered ${status} (sandbox fault)`;
        sendError(res, status, detail, headers);
        return;
      }
      case 'html': {
        const status = fault.status ?? 502;
        record.status = status;
        const html = `<html><body><h1>${status} ${STATUS_CODES[status] ?? 'Error'}</h1></body></html>`;
        res.writeHead(status, {
          'content-type': 'text/html',
          'content-length': String(Buffer.byteLength(html)),
        });
        res.end(html);
        return;
      }
      case 'not-json': {
        record.status = 200;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '16' });
        res.end('this is not json');
        return;
      }
      case 'stall':
        try {
          await sleep(fault.stallMs ?? 60_000, undefined, { signal: gone });
        } catch {
          return;
        }
        break;
      default:
        break;
    }

    const result = await processApi(req, relPath, url, body, record, gone);
    if (!result) {
      if (!res.headersSent) res.destroy();
      return;
    }
    record.status = result.status;
    let payload = result.body;
    if (fault?.kind === 'large-page' && result.status === 200 && result.route?.list && method === 'GET') {
      payload = largePageBody(result.route.list, fault.size ?? 5000);
    }
    if (fault?.kind === 'reset-after') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'truncated') {
      const full = Buffer.from(JSON.stringify(payload));
      res.writeHead(result.status, {
        'content-type': 'application/json',
        'content-length': String(full.length),
      });
      res.write(full.subarray(0, Math.floor(full.length / 2)), () => req.socket.destroy());
      return;
    }
    send(res, result.status, payload, result.headers);
  }

  async function handleControl(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    const text = await readBody(req);
    const route = url.pathname.slice('/_sandbox'.length);
    const allowed: Record<string, string[]> = {
      '/requests': ['GET'],
      '/stats': ['GET'],
      '/reset': ['POST'],
      '/faults': ['GET', 'POST', 'DELETE'],
      '/state': ['GET'],
    };
    const methods = allowed[route];
    if (!methods) return sendError(res, 404, `No sandbox control endpoint at ${url.pathname}`);
    if (!methods.includes(method)) {
      return sendError(res, 405, `${method} is not allowed on ${url.pathname}`, {
        allow: methods.join(', '),
      });
    }
    switch (`${method} ${route}`) {
      case 'GET /requests':
        return send(res, 200, requests);
      case 'GET /stats':
        return send(res, 200, stats());
      case 'POST /reset':
        reset();
        return send(res, 200, { ok: true });
      case 'GET /faults':
        return send(res, 200, { faults: faults.list() });
      case 'DELETE /faults':
        faults.clear();
        return send(res, 200, { faults: [] });
      case 'POST /faults': {
        let rules: FaultRule[];
        try {
          const parsed: unknown = JSON.parse(text);
          rules = (Array.isArray(parsed) ? parsed : [parsed]).map(validateFaultRule);
        } catch (error) {
          return sendError(res, 400, `Invalid fault rule: ${(error as Error).message}`);
        }
        for (const rule of rules) faults.add(rule);
        return send(res, 200, { faults: faults.list() });
      }
      case 'GET /state':
        return send(res, 200, stateSummary(store));
    }
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const work =
      url.pathname === '/_sandbox' || url.pathname.startsWith('/_sandbox/')
        ? handleControl(req, res, url)
        : handleApi(req, res, url);
    work.catch((error: unknown) => {
      if (closing.signal.aborted) return;
      if (!res.headersSent && !res.destroyed)
        sendError(res, 500, `Sandbox error: ${(error as Error).message}`);
      else res.destroy();
    });
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 5_000;
  server.on('connection', (socket: Socket) => {
    counters.connections += 1;
    socket.setNoDelay(true);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const mainUsers = store.users(store.mainAgency.id);

  return {
    url,
    baseUrl: `${url}/rest`,
    hqKey: (store.user(1) as UserRecord).hqKey,
    users: mainUsers.map((u) => ({ name: u.name, email: u.email, hqKey: u.hqKey })),
    requests,
    stats,
    reset,
    addFault: (rule) => faults.add(rule),
    close: () =>
      new Promise<void>((resolve, reject) => {
        closing.abort();
        limiter.dispose();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
    store,
  };
}

/** What GET /_sandbox/state answers: enough for a test that runs the sandbox as a separate process. */
export function stateSummary(store: Store) {
  const owner = (id: number) => store.user(id)?.name ?? '';
  return {
    agencies: store.agencies().map((a) => ({ id: a.id, name: a.name, main: a.id === store.mainAgency.id })),
    users: store.users().map((u) => ({
      id: u.id,
      agency_id: u.agencyId,
      name: u.name,
      email: u.email,
      role: u.role,
      hq_key: u.hqKey,
    })),
    companies: store.companies().map((c) => ({
      id: c.id,
      agency_id: c.agencyId,
      name: c.name,
      active: c.active,
      owner: owner(c.ownerId),
      keys: store.keyCount(c.id),
    })),
  };
}

/**
 * Waits `ms` as exactly as the event loop allows. A plain timer fires 1–2 ms late, which over 100
 * pages of 20 ms is a 10 % error in what the benchmark compares against: sleep to just before the
 * deadline, then yield until it has passed.
 */
async function processingTime(ms: number, signal: AbortSignal): Promise<void> {
  const deadline = performance.now() + ms;
  if (ms > 3) await sleep(ms - 2, undefined, { signal });
  while (performance.now() < deadline) {
    if (signal.aborted) throw signal.reason;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
