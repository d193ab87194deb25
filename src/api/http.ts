/**
 * The only module that imports undici. It owns headers, the per-request deadline, the retry rules
 * of the contract, turning error bodies into ApiError, and the --debug trace (with the key redacted).
 * It is loaded lazily (import() on the first request) because undici is the heaviest module we have.
 */
import { Agent, request, errors as undiciErrors } from 'undici';
import { ApiError, InterruptedError, NetworkError, ResponseError, UsageError } from '../errors.js';
import { hintForStatus } from './hints.js';
import {
  DEFAULT_RETRY,
  isIdempotent,
  mayRetryStatus,
  parseRetryAfter,
  planRetry,
  type RetryDecision,
  type RetryPolicy,
} from './retry.js';

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
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);

/** Server text quoted in a message is kept to one readable line. */
const MAX_QUOTED = 300;

/** The answer's status and headers arrived, but its body did not (connection closed, deadline passed). */
class BodyError extends Error {
  readonly code: string | undefined;
  constructor(
    readonly status: number,
    readonly reason: string,
    cause: unknown,
  ) {
    super(reason, { cause });
    this.code = (cause as NodeJS.ErrnoException | undefined)?.code;
  }
}

export class Http {
  readonly #options: HttpOptions;
  readonly #agent: Agent;
  readonly #retry: RetryPolicy;
  readonly #debug: ((line: string) => void) | undefined;

  constructor(options: HttpOptions) {
    this.#options = options;
    this.#retry = options.retry ?? DEFAULT_RETRY;
    const { debug } = options;
    // Every debug line goes through the redaction, whatever the server echoed back.
    this.#debug = debug ? (line) => debug(this.redact(line)) : undefined;
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
    this.checkKey();
    const url = this.url(spec);
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      let outcome: Attempt;
      try {
        outcome = await this.attempt(spec, url);
      } catch (error) {
        if (error instanceof InterruptedError) throw error;
        outcome = { kind: 'network', error: error as Error };
      }
      // A GET is safe to repeat; anything else only when the service said 429 (it did not process it).
      const retryable =
        outcome.kind === 'response'
          ? mayRetryStatus(spec.method, outcome.response.status)
          : isIdempotent(spec.method) && isRetryableNetworkError(outcome.error);
      if (!retryable) return this.finish(spec, outcome, attempt);
      const retryAfter =
        outcome.kind === 'response' ? parseRetryAfter(outcome.response.headers['retry-after']) : undefined;
      const decision = planRetry(this.#retry, attempt, Date.now() - started, retryAfter);
      if (!decision.retry) return this.finish(spec, outcome, attempt, decision);
      this.#debug?.(
        `retry ${spec.method} ${spec.path} in ${decision.delayMs} ms (attempt ${attempt + 1} of ${this.#retry.maxAttempts})`,
      );
      await sleep(decision.delayMs, this.#options.signal);
    }
  }

  /** A key that cannot travel in a header is a local input error: nothing is sent, and it is never quoted. */
  private checkKey(): void {
    if (!/^[\x21-\x7e]+$/.test(this.#options.apiKey)) {
      throw new UsageError(
        'The API key contains spaces, line breaks or characters that are not printable ASCII; nothing was sent.',
        { hint: 'Check AGENCY_API_KEY, or save the key again with `agency login`.' },
      );
    }
  }

  /** Removes the key from text that is about to be shown, in case the server (or a proxy) echoed it. */
  private redact(text: string): string {
    const key = this.#options.apiKey;
    // A short "key" could also be part of ordinary words: there, only a whole token is the key.
    if (key.length < 8) {
      const token = new RegExp(`(?<![\\w-])${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'g');
      return text.replace(token, '[redacted]');
    }
    let result = text.split(key).join('[redacted]');
    const encoded = encodeURIComponent(key);
    if (encoded !== key) result = result.split(encoded).join('[redacted]');
    return result;
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
    const debug = this.#debug;
    debug?.(`→ ${spec.method} ${url.href}`);
    if (debug)
      for (const [name, value] of Object.entries(headers)) debug(`  ${name}: ${redactHeader(name, value)}`);
    // One controller, a timer and a listener: AbortSignal.timeout and AbortSignal.any cost more per request.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.#options.timeoutMs);
    const interrupt = this.#options.signal;
    const onInterrupt = () => controller.abort();
    if (interrupt?.aborted) controller.abort();
    else interrupt?.addEventListener('abort', onInterrupt, { once: true });
    const { signal } = controller;
    const started = Date.now(); // not performance.now(): loading perf_hooks costs ~1.5 ms
    const seconds = `${this.#options.timeoutMs / 1000} s`;
    let status: number | undefined;
    try {
      const res = await request(url, {
        dispatcher: this.#agent,
        method: spec.method,
        headers,
        body: spec.body === undefined ? null : JSON.stringify(spec.body),
        signal,
      });
      status = res.statusCode;
      let text: string;
      try {
        text = await res.body.text();
      } catch (error) {
        throw new BodyError(res.statusCode, 'the connection closed before the whole answer arrived', error);
      }
      debug?.(
        `← ${res.statusCode} ${spec.method} ${url.pathname} (${Date.now() - started} ms, ${text.length} bytes)`,
      );
      if (debug)
        for (const [name, value] of Object.entries(res.headers))
          debug(`  ${name}: ${redactHeader(name, String(value))}`);
      return { kind: 'response', response: { status: res.statusCode, headers: res.headers, text } };
    } catch (error) {
      if (interrupt?.aborted) throw new InterruptedError();
      if (timedOut) {
        const reason =
          status === undefined
            ? `no answer within ${seconds}`
            : `the rest of the answer did not arrive within ${seconds}`;
        const err: Error = status === undefined ? new Error(reason) : new BodyError(status, reason, error);
        (err as { code?: string }).code = 'ETIMEDOUT';
        debug?.(
          `✗ ${spec.method} ${url.pathname}: timed out${status === undefined ? '' : ` after status ${status}`}`,
        );
        throw err;
      }
      debug?.(`✗ ${spec.method} ${url.pathname}: ${describeNetworkError(error)}`);
      throw error;
    } finally {
      clearTimeout(timer);
      interrupt?.removeEventListener('abort', onInterrupt);
    }
  }

  private finish(
    spec: RequestSpec,
    outcome: Attempt,
    attempts: number,
    gaveUp?: RetryDecision,
  ): HttpResponse {
    // "Could not list the keys of company 1042: ..." when the caller said what it was doing.
    const failed = (reason: string) =>
      this.redact(
        spec.action ? `Could not ${spec.action}: ${reason}` : `${spec.method} ${spec.path} failed: ${reason}`,
      );
    const tries = attempts > 1 ? ` (tried ${attempts} times)` : '';
    if (outcome.kind === 'network') {
      const mayHaveHappened = !isIdempotent(spec.method);
      const error = outcome.error;
      const cutShort = error instanceof BodyError;
      const why =
        error instanceof BodyError
          ? `the service answered ${error.status}, but ${error.reason}`
          : describeNetworkError(error);
      throw new NetworkError(failed(`${why}${tries}`), {
        hint: mayHaveHappened
          ? 'The service may or may not have processed this request: check before you run it again.'
          : cutShort
            ? 'The answer was cut short on the way (a proxy or an unstable connection); try again, or run with --debug.'
            : `Check the base URL (${this.#options.baseUrl}) and your network.`,
        cause: error,
      });
    }
    const { status, headers, text } = outcome.response;
    const contentType = String(headers['content-type'] ?? '');
    const html = /html/i.test(contentType) || /^\s*<(!doctype|html)/i.test(text);
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
      const title = typeof body.title === 'string' ? this.redact(body.title) : undefined;
      const detail = typeof body.detail === 'string' ? this.redact(body.detail) : undefined;
      const served = !parseFailed
        ? ''
        : html
          ? ' with an HTML page instead of JSON'
          : ` with a body that is not JSON${contentType ? ` (${contentType})` : ''}`;
      const quoted = [title, detail]
        .filter((part): part is string => Boolean(part))
        .map(oneLine)
        .join(' — ');
      const waited =
        gaveUp && !gaveUp.retry && gaveUp.reason === 'retry-after' && gaveUp.retryAfterMs !== undefined
          ? `; it asked to retry after ${Math.ceil(gaveUp.retryAfterMs / 1000)} s, longer than this tool waits`
          : '';
      throw new ApiError(
        failed(`the service answered ${status}${quoted ? ` ${quoted}` : ''}${served}${tries}${waited}`),
        {
          status,
          title,
          detail,
          hint: hintForStatus(status, spec.company ?? spec.companyId),
        },
      );
    }
    // A redirect is never followed: it could take the key to another host.
    if (status >= 300) {
      const location =
        typeof headers.location === 'string' ? ` to ${oneLine(this.redact(headers.location))}` : '';
      throw new ResponseError(
        failed(`the service answered ${status}, a redirect${location}, which is not followed`),
        status,
        {
          hint: 'Check the base URL (it must include /rest, e.g. https://api.woodpecker.co/rest).',
        },
      );
    }
    if (parseFailed) {
      const kind = html ? 'an HTML page' : 'a body that is not valid JSON';
      throw new ResponseError(
        failed(
          `the service answered ${status} with ${kind} instead of JSON${contentType ? ` (${contentType})` : ''}`,
        ),
        status,
        {
          hint: 'The response may have been cut short or come from a proxy; try again, or run with --debug.',
        },
      );
    }
    return { status, headers, data };
  }
}

type Attempt =
  | {
      kind: 'response';
      response: { status: number; headers: Record<string, string | string[] | undefined>; text: string };
    }
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
    if (code === 'UND_ERR_SOCKET') return 'the connection closed before any answer arrived';
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
      return 'timed out waiting for the service';
    if (code === 'ENOTFOUND' || causeCode === 'ENOTFOUND') return 'host not found';
    if (error.name === 'HTTPParserError') return `the answer was not valid HTTP: ${error.message}`;
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

/** Server text on one line, clipped: a multi-line or huge detail must not swamp (or forge) our own lines. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_QUOTED ? `${flat.slice(0, MAX_QUOTED)}…` : flat;
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
