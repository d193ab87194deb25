/**
 * One API request, from arrival to answer: recording, faults, routing, the key and the account it
 * acts on, the account's queue (the rate limit), processing time, and the rule itself.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requireHq, resolveContext } from './access.js';
import { dialectOf, errorIn } from './error-body.js';
import { answerAfterProcessing, answerBeforeProcessing, answersInsteadOfService } from './fault-answers.js';
import type { FaultList } from './faults.js';
import { type ConcurrencyLimiter, LimitRejected } from './ratelimit.js';
import { type Body, type Counters, findRoute, type Input, type Result, type Route } from './routing.js';
import type { RequestLogEntry } from './server.js';
import type { Store } from './store.js';
import { type HqContext, type RequestContext, SandboxError } from './types.js';
import type { Waits } from './waits.js';
import { apiKeyOf, headersOf, parseBody, queryOf, readBody, send, sendError } from './wire.js';

export interface RecordedRequest {
  method: string;
  /** Full path as received, without the query string (e.g. '/rest/v2/agency/companies'). */
  path: string;
  /** The whole request URL as the client addressed it (scheme, Host header, path and query). */
  url: string;
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

export interface ApiDeps {
  onRequest: ((entry: RequestLogEntry) => void) | undefined;
  store: Store;
  routes: readonly Route[];
  faults: FaultList;
  limiter: ConcurrencyLimiter;
  counters: Counters & { requests: number; rejected429: number };
  requests: RecordedRequest[];
  latencyMs: number;
  /** Network round trip outside the account's slot: half before a request reaches the queue, half after its answer. */
  rttMs: number;
  /** Per-account counters of the control API's stats: account → requests, 429 answers, time served. */
  byAccount: Record<'requests' | 'rejected429' | 'servedMs', Record<string, number>>;
  /** v1 paths answer errors in the v1 envelope and an empty list as 204 (else as v2 does). */
  v1Dialect: boolean;
  queueLimit: number;
  queueTimeoutMs: number;
  /** Simulated time; all of it ends when the sandbox closes. */
  waits: Waits;
}

type Processed = (Result & { route?: Route }) | undefined;

export function createApiHandler(deps: ApiDeps) {
  const { store, faults, limiter, counters } = deps;
  /** `${account} ${path}` → the last 200 answered there, which 'repeat-page' answers again. */
  const lastAnswers = new Map<string, unknown>();

  /** Half the round trip (the network, outside the account's slot); false when the client left meanwhile. */
  async function travel(gone: AbortSignal): Promise<boolean> {
    if (deps.rttMs <= 0) return true;
    return deps.waits.sleep(deps.rttMs / 2, gone);
  }

  /** Routing, auth, context, limiter and handler; undefined when the client is gone. */
  async function processApi(
    req: IncomingMessage,
    relPath: string,
    url: URL,
    body: Body,
    record: RecordedRequest,
    gone: AbortSignal,
    served: { from?: number; to?: number },
  ): Promise<Processed> {
    const method = req.method ?? 'GET';
    const dialect = deps.v1Dialect ? dialectOf(relPath) : 'v2';
    const error = (status: number, detail: string, code?: string): Result => ({
      status,
      body: errorIn(dialect, status, detail, code),
    });
    const found = findRoute(deps.routes, relPath);
    if (!found) return error(404, `No endpoint at ${url.pathname}`);
    const { route, params } = found;
    if (!route.methods.includes(method)) {
      return {
        ...error(405, `${method} is not allowed on ${url.pathname}`),
        headers: { allow: route.methods.join(', ') },
      };
    }
    const fail = (e: SandboxError): Result => error(e.status, e.detail, e.code);
    const key = apiKeyOf(req, relPath.startsWith('/v1/'), store);
    if (!key) return error(401, 'Missing api key');
    const principal = store.authenticate(key);
    if (!principal) return error(401, 'Invalid api key');
    let context: RequestContext;
    let hq: HqContext | undefined;
    try {
      const header = req.headers['x-company-id'];
      context = resolveContext(store, principal, Array.isArray(header) ? header.join(', ') : header);
      if (route.agency) hq = requireHq(context);
    } catch (thrown) {
      if (thrown instanceof SandboxError) return fail(thrown);
      throw thrown;
    }
    record.account = context.account;
    bump(deps.byAccount.requests, context.account);

    let release: () => void;
    try {
      release = await limiter.acquire(context.account, gone);
    } catch (thrown) {
      if (!(thrown instanceof LimitRejected)) throw thrown;
      if (thrown.reason === 'aborted') return undefined;
      counters.rejected429 += 1;
      bump(deps.byAccount.rejected429, context.account);
      const detail =
        thrown.reason === 'queue-full'
          ? `Too many concurrent requests for account ${context.account}: one in progress and ${deps.queueLimit} waiting`
          : `Request waited more than ${deps.queueTimeoutMs} ms for account ${context.account}`;
      return error(429, detail);
    }
    const slotFrom = performance.timeOrigin + performance.now();
    served.from = slotFrom;
    try {
      if (deps.latencyMs > 0) await processingTime(deps.latencyMs, deps.waits);
      const input: Input = { method, params, query: queryOf(url), body };
      const env = { store, counters, v1Dialect: deps.v1Dialect };
      const result = route.agency
        ? route.handle(hq as HqContext, input, env)
        : route.handle(context, input, env);
      return { ...result, route };
    } catch (thrown) {
      if (thrown instanceof SandboxError) return fail(thrown);
      if (deps.waits.ended) return undefined;
      throw thrown;
    } finally {
      served.to = performance.timeOrigin + performance.now();
      bump(deps.byAccount.servedMs, context.account, served.to - slotFrom);
      release();
    }
  }

  return async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    const record: RecordedRequest = {
      method,
      path: url.pathname,
      url: requestUrl(req),
      query: queryOf(url),
      headers: headersOf(req),
      body: undefined,
      status: 0,
      account: '',
      startedAt: Date.now(),
    };
    deps.requests.push(record);
    counters.requests += 1;
    const goneController = new AbortController();
    const arrived = performance.now();
    const served: { from?: number; to?: number } = {};
    // Reported when the answer is handed to the network ('finish'), or when the request ends without
    // one ('close'): a later event would make the request look longer than it was.
    let reported = false;
    const report = () => {
      if (reported || !deps.onRequest) return;
      reported = true;
      const ended = performance.now();
      deps.onRequest({
        method,
        path: req.url ?? url.pathname,
        status: res.headersSent ? record.status : 0,
        ms: ended - arrived,
        startedAt: performance.timeOrigin + arrived,
        endedAt: performance.timeOrigin + ended,
        ...(record.fault ? { fault: record.fault } : {}),
        account: record.account,
        ...(served.from === undefined ? {} : { servedFrom: served.from, servedTo: served.to }),
      });
    };
    res.once('finish', report);
    res.once('close', () => {
      goneController.abort();
      report();
    });
    const gone = goneController.signal;

    const underRest = url.pathname === '/rest' || url.pathname.startsWith('/rest/');
    const relPath = underRest ? url.pathname.slice('/rest'.length) || '/' : undefined;
    const companyHeader = req.headers['x-company-id'];
    const companyId = Array.isArray(companyHeader) ? companyHeader.join(', ') : companyHeader;
    const fault = relPath === undefined ? undefined : faults.take(method, relPath, companyId);
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
    const dialect = deps.v1Dialect ? dialectOf(relPath) : 'v2';
    if (record.url.length > MAX_URL_LENGTH) {
      record.status = 414;
      const detail = `The request URL is ${record.url.length} characters long; at most ${MAX_URL_LENGTH} are allowed`;
      send(res, 414, errorIn(dialect, 414, detail));
      return;
    }
    // The request travels to the service, and an answer that skips the service travels back.
    if (!(await travel(gone))) return;
    if (answersInsteadOfService(fault) && !(await travel(gone))) return;
    if (await answerBeforeProcessing(fault, res, record, dialect, gone)) return;

    const result = await processApi(req, relPath, url, body, record, gone, served);
    if (!result || !(await travel(gone))) {
      if (!res.headersSent) res.destroy();
      return;
    }
    record.status = result.status;
    const slot = `${record.account} ${relPath}`;
    const previous = lastAnswers.get(slot);
    if (method === 'GET' && result.status === 200 && fault?.kind !== 'repeat-page')
      lastAnswers.set(slot, result.body);
    answerAfterProcessing(fault, req, res, result, record, dialect, previous);
  };
}

/** The service refuses a longer request URL (documented with the blacklist's email_filter). */
const MAX_URL_LENGTH = 4100;

function requestUrl(req: IncomingMessage): string {
  return `http://${req.headers.host ?? ''}${req.url ?? '/'}`;
}

function bump(counts: Record<string, number>, account: string, by = 1): void {
  counts[account] = (counts[account] ?? 0) + by;
}

/**
 * Waits `ms` as exactly as the event loop allows. A plain timer fires up to a millisecond early or late,
 * which over 100 pages of 20 ms is a 5 % error in what the benchmark compares against: sleep to 1 ms
 * before the deadline, then yield until it has passed. (Yielding from 2 ms before cost twice the CPU for
 * the same exactness: at 5 ms a request, 40 % of a core while requests were in flight.)
 */
async function processingTime(ms: number, waits: Waits): Promise<void> {
  const deadline = performance.now() + ms;
  if (ms > 2 && !(await waits.sleep(ms - 1))) throw new Error('the sandbox is closing');
  while (performance.now() < deadline) {
    if (waits.ended) throw new Error('the sandbox is closing');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
