/**
 * The HTTP layer; with its helpers dispatcher.ts (the connection pool, through a proxy or not) and
 * network-errors.ts, the only code that imports undici. It owns headers, the per-request deadline, the
 * retry rules of the contract, each account's turn (limit.ts), and the --debug trace (key redacted).
 * What an answer means (data or which error) is decided in response.ts.
 * It is loaded lazily (import() on the first request) because undici is the heaviest module we have.
 */
import { type Dispatcher, request } from 'undici';
import { onAbort } from '../abort-watch.js';
import { InterruptedError, ResponseError, UsageError } from '../errors.js';
import { hasKeyShape } from '../input/api-key.js';
import { HEADER_CONTROL } from '../input/header.js';
import { run, variable } from '../terms.js';
import { createDispatcher, MAX_ANSWER_BYTES } from './dispatcher.js';
import { maskKeyInUse } from './key-in-results.js';
import { type AccountGates, sharedGates } from './limit.js';
import { describeNetworkError, isTooLarge } from './network-errors.js';
import { BodyError, noAnswer } from './no-answer.js';
import { bypassesProxy, localThroughProxyHint, type ProxySettings } from './proxy.js';
import { isUnreachable, reachability } from './reachability.js';
import {
  type AnswerContext,
  failed,
  type HttpResponse,
  type ReadAnswer,
  readAnswer,
  settle,
} from './response.js';
import {
  DEFAULT_RETRY,
  type FailureKind,
  isIdempotent,
  isRetryableNetworkError,
  mayRetryStatus,
  parseRetryAfter,
  planRetry,
  type RetryDecision,
  type RetryPolicy,
} from './retry.js';
import { bodyLines, headerLines, target } from './trace.js';
import { type Query, requestUrl } from './url.js';

export type { HttpResponse } from './response.js';

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
  /** Accounts a command works on at once (fan-out across client companies); 1 by default. Each may
   * have up to maxInFlight requests in flight, each on its own kept-alive connection. */
  connections?: number | undefined;
  /** Reads in flight per account, 1..7 (AGENCY_MAX_IN_FLIGHT); default 3. */
  maxInFlight?: number | undefined;
  /** Each account's turn; the run's shared gates by default (tests pass their own). */
  gates?: AccountGates | undefined;
  /** The proxy for the base URL (proxy.ts); undefined = direct. */
  proxy?: ProxySettings | undefined;
  /** The largest answer read, in bytes (default 128 MiB): a bigger one is "not understood", not a crash. */
  maxAnswerBytes?: number | undefined;
  /** Waits between tries; tests pass one that does not really sleep. */
  sleep?: ((ms: number, signal: AbortSignal | undefined) => Promise<void>) | undefined;
}

export interface RequestSpec {
  method: Method;
  /** Path under the base URL, starting with '/', e.g. '/v2/agency/companies'. */
  path: string;
  query?: Query;
  body?: unknown;
  /** Sent as x-company-id only when given. */
  companyId?: number | undefined;
  /** The company the request is about (path or header), for error hints. */
  company?: number | undefined;
  /** What the request does in the user's terms ("list the keys of company 1042"), for error messages. */
  action?: string | undefined;
  /** More headers (`api -H`); they may not set x-api-key. */
  headers?: Record<string, string> | undefined;
  /** An empty body (204, or an empty 200) is the service's "nothing" (v1 list reads): data undefined, no error. */
  emptyIsNothing?: boolean | undefined;
  /** The answer is keys a command exists to show (a key list, a new key): the key in use is not masked in it. */
  showsKeys?: boolean | undefined;
}

/** Headers the tool sets itself or the connection owns: `api -H` cannot replace them. */
const RESERVED_HEADERS = new Set(['x-api-key', 'host', 'content-length', 'connection', 'transfer-encoding']);

type Attempt = { kind: 'response'; answer: ReadAnswer } | { kind: 'network'; error: Error };

export class Http {
  readonly #options: HttpOptions;
  readonly #agent: Dispatcher;
  readonly #retry: RetryPolicy;
  readonly #gates: AccountGates;
  readonly #sleep: NonNullable<HttpOptions['sleep']>;
  readonly #debug: ((line: string) => void) | undefined;

  constructor(options: HttpOptions) {
    this.#options = options;
    this.#retry = options.retry ?? DEFAULT_RETRY;
    this.#gates = options.gates ?? sharedGates();
    if (options.maxInFlight !== undefined) this.#gates.configure(options.maxInFlight);
    this.#sleep = options.sleep ?? sleep;
    const { debug } = options;
    // Every debug line goes through the redaction, whatever the server echoed back.
    this.#debug = debug ? (line) => debug(this.redact(line)) : undefined;
    this.#agent = createDispatcher(options, this.#gates.configuredDepth(), this.#debug);
  }

  /** --debug is on (so advice to run with --debug would be noise). */
  get debugging(): boolean {
    return this.#debug !== undefined;
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }

  async request(spec: RequestSpec): Promise<HttpResponse> {
    this.checkKey();
    const headers = this.headers(spec);
    const url = this.url(spec);
    const account = this.#gates.account(this.#options.baseUrl, this.#options.apiKey, headers['x-company-id']);
    const access = isIdempotent(spec.method) ? 'read' : 'write';
    const started = Date.now();
    const failures: Record<FailureKind, number> = { busy: 0, gateway: 0 };
    let release: (() => void) | undefined;
    try {
      for (let attempt = 1; ; attempt++) {
        release ??= await this.#gates.acquire(account, access, this.#options.signal, attempt > 1);
        let outcome: Attempt;
        try {
          outcome = await this.attempt(spec, url, headers);
        } catch (error) {
          // Interrupted, or an answer that cannot be held (not retried: it would come back the same).
          if (error instanceof InterruptedError || error instanceof ResponseError) throw error;
          outcome = { kind: 'network', error: error as Error };
        }
        // A read gives its turn back at once, also while it waits to try again (the depth may have
        // dropped to 1); a write keeps its account to itself until it is done, so that nothing asked
        // after it overtakes it during a retry wait.
        if (access === 'read') {
          release();
          release = undefined;
        }
        // Once a fleet run found the service gone, a connection that fails is not tried again: the
        // accounts still in flight end at once instead of each waiting through its retries.
        const kind =
          outcome.kind === 'network' && reachability().stopped ? undefined : failureKind(spec, outcome);
        if (kind === undefined) return this.finish(spec, outcome, attempt);
        if (kind === 'busy') this.#gates.slowDown();
        failures[kind] += 1;
        const retryAfter =
          outcome.kind === 'response' ? parseRetryAfter(outcome.answer.headers['retry-after']) : undefined;
        const decision = planRetry(this.#retry, failures[kind], Date.now() - started, retryAfter, kind);
        if (!decision.retry) return this.finish(spec, outcome, attempt, decision);
        const tries = kind === 'busy' ? this.#retry.busyAttempts : this.#retry.maxAttempts;
        this.#debug?.(
          `retry ${spec.method} ${target(url)} in ${decision.delayMs} ms (attempt ${attempt + 1} of ${tries})`,
        );
        const waited = await Promise.race([
          this.#sleep(decision.delayMs, this.#options.signal).then(() => true),
          outcome.kind === 'network'
            ? reachability().whenStopped.then(() => false)
            : new Promise<never>(() => {}),
        ]);
        if (!waited) return this.finish(spec, outcome, attempt);
      }
    } finally {
      release?.();
    }
  }

  /** A key that cannot travel in a header is a local input error: nothing is sent, and it is never quoted. */
  private checkKey(): void {
    if (!hasKeyShape(this.#options.apiKey)) {
      throw new UsageError(
        'The API key contains spaces, line breaks or characters that are not printable ASCII; nothing was sent.',
        { hint: `Check ${variable('AGENCY_API_KEY')}, or save the key again: ${run('login')}.` },
      );
    }
  }

  /** Removes the key from text that is about to be shown, in case the server (or a proxy) echoed it. */
  private redact(text: string): string {
    const key = this.#options.apiKey;
    // The proxy's password too, should any message quote its URL.
    const password = this.#options.proxy?.url.password;
    if (password) text = text.split(password).join('[redacted]');
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
    return requestUrl(this.#options.baseUrl, spec.path, spec.query);
  }

  private headers(spec: RequestSpec): Record<string, string> {
    const headers: Record<string, string> = {
      'x-api-key': this.#options.apiKey,
      accept: 'application/json',
      'user-agent': this.#options.userAgent,
    };
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    if (spec.companyId !== undefined) headers['x-company-id'] = String(spec.companyId);
    for (const [rawName, value] of Object.entries(spec.headers ?? {})) {
      const name = rawName.trim().toLowerCase();
      if (RESERVED_HEADERS.has(name)) {
        throw new UsageError(`The header ${rawName} cannot be set with -H: the tool sets it itself.`);
      }
      if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name) || HEADER_CONTROL.test(value)) {
        throw new UsageError(`Invalid header ${JSON.stringify(rawName)}: use -H 'Name: value' on one line.`);
      }
      headers[name] = value.trim();
    }
    return headers;
  }

  private async attempt(spec: RequestSpec, url: URL, headers: Record<string, string>): Promise<Attempt> {
    const debug = this.#debug;
    const body = spec.body === undefined ? null : JSON.stringify(spec.body);
    if (debug) {
      debug(`→ ${spec.method} ${url.href}`);
      for (const line of [...headerLines(headers), ...bodyLines(body ?? undefined)]) debug(line);
    }
    // One controller, a timer and a listener: AbortSignal.timeout and AbortSignal.any cost more per request.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.#options.timeoutMs);
    const interrupt = this.#options.signal;
    if (interrupt?.aborted) controller.abort();
    const stopWatching = interrupt ? onAbort(interrupt, () => controller.abort()) : undefined;
    const { signal } = controller;
    const started = Date.now(); // not performance.now(): loading perf_hooks costs ~1.5 ms
    const seconds = `${this.#options.timeoutMs / 1000} s`;
    let status: number | undefined;
    try {
      const res = await request(url, { dispatcher: this.#agent, method: spec.method, headers, body, signal });
      status = res.statusCode;
      let text: string;
      try {
        text = await res.body.text();
      } catch (error) {
        if (isTooLarge(error)) throw this.tooLarge(spec, res.statusCode);
        throw new BodyError(res.statusCode, 'the connection closed before the whole answer arrived', error);
      }
      // One turn of the event loop lets undici put the connection back in its pool; a request sent
      // sooner would open another connection (one connection per request in flight, not more).
      await new Promise((resolve) => setImmediate(resolve));
      if (debug) {
        debug(
          `← ${res.statusCode} ${spec.method} ${target(url)} (${Date.now() - started} ms, ${text.length} bytes)`,
        );
        for (const line of [...headerLines(res.headers), ...bodyLines(text)]) debug(line);
      }
      return { kind: 'response', answer: readAnswer({ status: res.statusCode, headers: res.headers, text }) };
    } catch (error) {
      if (interrupt?.aborted) throw new InterruptedError();
      if (error instanceof ResponseError) throw error;
      if (timedOut) {
        const reason =
          status === undefined
            ? `no answer within ${seconds}`
            : `the rest of the answer did not arrive within ${seconds}`;
        const err: Error = status === undefined ? new Error(reason) : new BodyError(status, reason, error);
        (err as { code?: string }).code = 'ETIMEDOUT';
        debug?.(
          `✗ ${spec.method} ${target(url)}: timed out${status === undefined ? '' : ` after status ${status}`}`,
        );
        throw err;
      }
      debug?.(`✗ ${spec.method} ${target(url)}: ${describeNetworkError(error)}`);
      throw error;
    } finally {
      clearTimeout(timer);
      stopWatching?.();
    }
  }

  /** An answer bigger than the tool holds: not retried, and said in the user's terms. */
  private tooLarge(spec: RequestSpec, status: number): ResponseError {
    const bytes = this.#options.maxAnswerBytes ?? MAX_ANSWER_BYTES;
    const limit =
      bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
    return new ResponseError(
      failed(
        { ...spec, redact: (text) => this.redact(text) },
        `the service's answer was not understood (larger than ${limit})`,
      ),
      status,
      { hint: 'No agency endpoint answers that much; check the base URL and any proxy in between.' },
    );
  }

  private finish(
    spec: RequestSpec,
    outcome: Attempt,
    attempts: number,
    gaveUp?: RetryDecision,
  ): HttpResponse {
    const context: AnswerContext = {
      method: spec.method,
      path: spec.path,
      baseUrl: this.#options.baseUrl,
      action: spec.action,
      company: spec.company ?? spec.companyId,
      companyHeader:
        spec.companyId !== undefined ||
        Object.keys(spec.headers ?? {}).some((name) => name.trim().toLowerCase() === 'x-company-id'),
      emptyIsNothing: spec.emptyIsNothing,
      attempts,
      refusedRetryAfterMs:
        gaveUp && !gaveUp.retry && gaveUp.reason === 'retry-after' ? gaveUp.retryAfterMs : undefined,
      debugging: this.debugging,
      redact: (text) => this.redact(text),
      proxyHint: localThroughProxyHint(this.#options.baseUrl, this.#proxyInUse),
      proxy: this.#proxyInUse,
    };
    if (outcome.kind === 'response') {
      reachability().answered();
      const settled = settle(outcome.answer, context);
      if (spec.showsKeys) return settled;
      return { ...settled, data: maskKeyInUse(settled.data, outcome.answer.text, this.#options.apiKey) };
    }
    if (isUnreachable(outcome.error)) reachability().lost();
    throw noAnswer(outcome.error, {
      context,
      attempts,
      idempotent: isIdempotent(spec.method),
      proxy: this.#proxyInUse,
    });
  }

  /** The proxy the base URL goes through: none when NO_PROXY sends it direct. */
  get #proxyInUse(): ProxySettings | undefined {
    const { proxy, baseUrl } = this.#options;
    return proxy && !bypassesProxy(baseUrl, proxy.noProxy) ? proxy : undefined;
  }
}

/** Which schedule a failed try is retried on, or undefined when it is not retried. */
function failureKind(spec: RequestSpec, outcome: Attempt): FailureKind | undefined {
  if (outcome.kind === 'network') {
    return isIdempotent(spec.method) && isRetryableNetworkError(outcome.error) ? 'gateway' : undefined;
  }
  const status = outcome.answer.meaning;
  if (status === 429) return 'busy';
  return mayRetryStatus(spec.method, status) ? 'gateway' : undefined;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new InterruptedError());
    const timer = setTimeout(() => {
      stopWatching?.();
      resolve();
    }, ms);
    const stopWatching = signal
      ? onAbort(signal, () => {
          clearTimeout(timer);
          reject(new InterruptedError());
        })
      : undefined;
  });
}
