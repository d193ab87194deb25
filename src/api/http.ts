/**
 * The only module that imports undici. It owns headers, the per-request deadline, the retry rules
 * of the contract, turning error bodies into ApiError, and the --debug trace (with the key redacted).
 * It is loaded lazily (import() on the first request) because undici is the heaviest module we have.
 */
import { Agent, errors as undiciErrors, request } from 'undici';
import { ApiError, InterruptedError, NetworkError, ResponseError } from '../errors.js';
import { hintForStatus } from './hints.js';
import { computeBackoff, isRetryableStatus, parseRetryAfter, type RetryPolicy, DEFAULT_RETRY } from './retry.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

export interface HttpOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  userAgent: string;
  /** Receives one line per event; undefined when --debug is off. */
  debug?: ((line: string) => void) | undefined;
  /** Aborted on Ctrl-C. */
  signal?: AbortSignal | undefined;
  retry?: RetryPolicy;
  /** Connections kept open to the service; 1 unless a command fans out across client companies. */
  connections?: number;
}

export interface RequestSpec {
  method: Method;
  /** Path under the base URL, starting with '/', e.g. '/v2/agency/companies'. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Sent as x-company-id only when given. */
  companyId?: number | undefined;
  /** The company the request is about (path or header), for error hints. */
  company?: number | undefined;
  /** What the request does in the user's terms ("list the keys of company 1042"), for error messages. */
  action?: string | undefined;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, or undefined for an empty body. */
  data: unknown;
}

/** Connection-level failures that mean "no usable answer"; a GET may safely try again. */
const RETRYABLE_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

export class Http {
  readonly #options: HttpOptions;
  readonly #agent: Agent;
  readonly #retry: RetryPolicy;

  constructor(options: HttpOptions) {
    this.#options = options;
    this.#retry = options.retry ?? DEFAULT_RETRY;
    this.#agent = new Agent({
      connections: options.connections ?? 1,
      pipelining: 1,
      keepAliveTimeout: 10_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connectTimeout: Math.min(options.timeoutMs, 10_000),
    });
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }

  async request(spec: RequestSpec): Promise<HttpResponse> {
    const url = this.url(spec);
    // A GET is safe to repeat; anything else only when the service said 429 (it did not process it).
    const idempotent = spec.method === 'GET' || spec.method === 'HEAD';
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      let outcome: Attempt;
      try {
        outcome = await this.attempt(spec, url);
      } catch (error) {
        if (error instanceof InterruptedError) throw error;
        outcome = { kind: 'network', error: error as Error };
      }
      const retryable =
        outcome.kind === 'response'
          ? outcome.response.status === 429 || (idempotent && isRetryableStatus(outcome.response.status))
          : idempotent && isRetryableNetworkError(outcome.error);
      const retryAfter = outcome.kind === 'response' ? parseRetryAfter(outcome.response.headers['retry-after']) : undefined;
      const delay = computeBackoff(this.#retry, attempt, retryAfter);
      const canRetry = retryable && attempt < this.#retry.maxAttempts && Date.now() - started + delay <= this.#retry.budgetMs;
      if (!canRetry) return this.finish(spec, outcome, attempt);
      this.#options.debug?.(`retry ${spec.method} ${spec.path} in ${delay} ms (attempt ${attempt + 1} of ${this.#retry.maxAttempts})`);
      await sleep(delay, this.#options.signal);
    }
  }

  private url(spec: RequestSpec): URL {
    const url = new URL(this.#options.baseUrl.replace(/\/+$/, '') + spec.path);
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url;
  }

  private headers(spec: RequestSpec): Record<string, string> {
    const headers: Record<string, string> = {
      'x-api-key': this.#options.apiKey,
      accept: 'application/json',
      'user-agent': this.#options.userAgent,
    };
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    if (spec.companyId !== undefined) headers['x-company-id'] = String(spec.companyId);
    return headers;
  }

  private async attempt(spec: RequestSpec, url: URL): Promise<Attempt> {
    const headers = this.headers(spec);
    const debug = this.#options.debug;
    debug?.(`→ ${spec.method} ${url.href}`);
    if (debug) for (const [name, value] of Object.entries(headers)) debug(`  ${name}: ${redactHeader(name, value)}`);
    const timeout = AbortSignal.timeout(this.#options.timeoutMs);
    const signal = this.#options.signal ? AbortSignal.any([this.#options.signal, timeout]) : timeout;
    const started = performance.now();
    try {
      const res = await request(url, {
        dispatcher: this.#agent,
        method: spec.method,
        headers,
        body: spec.body === undefined ? null : JSON.stringify(spec.body),
        signal,
      });
      const text = await res.body.text();
      debug?.(`← ${res.statusCode} ${spec.method} ${url.pathname} (${Math.round(performance.now() - started)} ms, ${text.length} bytes)`);
      if (debug) for (const [name, value] of Object.entries(res.headers)) debug(`  ${name}: ${redactHeader(name, String(value))}`);
      return { kind: 'response', response: { status: res.statusCode, headers: res.headers, text } };
    } catch (error) {
      if (this.#options.signal?.aborted) throw new InterruptedError();
      if (timeout.aborted) {
        const err = new Error(`no answer within ${this.#options.timeoutMs / 1000} s`);
        (err as NodeJS.ErrnoException).code = 'ETIMEDOUT';
        debug?.(`✗ ${spec.method} ${url.pathname}: timed out`);
        throw err;
      }
      debug?.(`✗ ${spec.method} ${url.pathname}: ${describeNetworkError(error)}`);
      throw error;
    }
  }

  private finish(spec: RequestSpec, outcome: Attempt, attempts: number): HttpResponse {
    // "Could not list the keys of company 1042: ..." when the caller said what it was doing.
    const failed = (reason: string) =>
      spec.action ? `Could not ${spec.action}: ${reason}` : `${spec.method} ${spec.path} failed: ${reason}`;
    const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
    if (outcome.kind === 'network') {
      const mayHaveHappened = spec.method !== 'GET' && spec.method !== 'HEAD';
      throw new NetworkError(failed(`${describeNetworkError(outcome.error)}${tries}`), {
        hint: mayHaveHappened
          ? 'The service may or may not have processed this request: check before you run it again.'
          : `Check the base URL (${this.#options.baseUrl}) and your network.`,
        cause: outcome.error,
      });
    }
    const { status, headers, text } = outcome.response;
    const contentType = String(headers['content-type'] ?? '');
    let data: unknown;
    let parseFailed = false;
    if (text.trim() !== '') {
      try {
        data = JSON.parse(text);
      } catch {
        parseFailed = true;
      }
    }
    if (status >= 400) {
      const body = isRecord(data) ? data : {};
      const title = typeof body.title === 'string' ? body.title : undefined;
      const detail = typeof body.detail === 'string' ? body.detail : undefined;
      const served = parseFailed ? ` (the body was not JSON${contentType ? `: ${contentType}` : ''})` : '';
      const quoted = [title, detail].filter(Boolean).join(' — ');
      throw new ApiError(failed(`the service answered ${status}${quoted ? ` ${quoted}` : ''}${served}${tries}`), {
        status,
        title,
        detail,
        hint: hintForStatus(status, spec.company ?? spec.companyId),
      });
    }
    if (parseFailed) {
      const kind = /html/i.test(contentType) ? 'an HTML page' : 'a body that is not valid JSON';
      throw new ResponseError(failed(`the service answered ${status} with ${kind} instead of JSON${contentType ? ` (${contentType})` : ''}`), status, {
        hint: 'The response may have been cut short or come from a proxy; try again, or run with --debug.',
      });
    }
    return { status, headers, data };
  }
}

type Attempt =
  | { kind: 'response'; response: { status: number; headers: Record<string, string | string[] | undefined>; text: string } }
  | { kind: 'network'; error: Error };

function isRetryableNetworkError(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  if (code && RETRYABLE_CODES.has(code)) return true;
  const cause = (error as { cause?: unknown }).cause as NodeJS.ErrnoException | undefined;
  return Boolean(cause?.code && RETRYABLE_CODES.has(cause.code));
}

function describeNetworkError(error: unknown): string {
  if (error instanceof undiciErrors.UndiciError || error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    const cause = (error as { cause?: NodeJS.ErrnoException }).cause;
    const causeCode = cause?.code;
    if (causeCode === 'ECONNREFUSED' || code === 'ECONNREFUSED') return 'connection refused';
    if (causeCode === 'ECONNRESET' || code === 'ECONNRESET') return 'connection reset by the server';
    if (code === 'ETIMEDOUT') return error.message;
    if (code === 'UND_ERR_SOCKET') return 'the connection closed before the response was complete';
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'timed out waiting for the service';
    if (code === 'ENOTFOUND' || causeCode === 'ENOTFOUND') return 'host not found';
    return error.message || String(code ?? error);
  }
  return String(error);
}

function redactHeader(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (lower === 'x-api-key' || lower === 'authorization' || lower === 'cookie' || lower === 'set-cookie') {
    return '[redacted]';
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new InterruptedError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new InterruptedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
