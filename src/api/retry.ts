/**
 * The retry schedule of the contract, kept free of I/O so it can be unit-tested.
 *
 * Two kinds of failure, two schedules (defaults):
 * - "busy" (429, or a v1 E_TOO_MANY_REQUESTS): the account's queue is shared with the agency's other
 *   integrations and a queued request may wait 15 s there, so the tool waits about 1, 2, 4 and 8 s
 *   (each ±25 % jitter: 0.75–1.25, 1.5–2.5, 3–5, 6–10 s), at most 5 tries, or what Retry-After asks.
 * - "gateway" (500, 502, 503, 504, and connection errors for a GET: a 500 is often one bad moment of
 *   one server, and a GET changes nothing): 150–300, 300–600, 600–1200 ms, at most
 *   4 tries, or what Retry-After asks.
 * A Retry-After is honoured up to 20 s; a longer one is not shortened: the tool gives up at once and
 * says how long the service asked to wait. No retry starts that would begin later than 45 s after
 * the first try, so the whole request is bounded by 45 s plus one request's deadline (--timeout).
 */

export interface RetryPolicy {
  /** Tries in all (the first included) when the failures are gateway or connection errors. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Tries in all when the service answered "too many requests". */
  busyAttempts: number;
  /** First wait after a 429; each further one doubles (with ±25 % jitter). */
  busyBaseDelayMs: number;
  /** No retry starts later than this after the first attempt. */
  budgetMs: number;
  /** The longest Retry-After we are willing to honour; a longer one ends the retries. */
  maxRetryAfterMs: number;
  random: () => number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 300,
  maxDelayMs: 5_000,
  busyAttempts: 5,
  busyBaseDelayMs: 1_000,
  budgetMs: 45_000,
  maxRetryAfterMs: 20_000,
  random: Math.random,
};

/** "busy": the service did not process the request (429); "gateway": a gateway or the connection failed. */
export type FailureKind = 'busy' | 'gateway';

/** Statuses that mean "not processed, try later" for a GET. A POST is retried on 429 only. */
function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 500 || status === 502 || status === 503 || status === 504;
}

/** May this answer be tried again? A GET (or HEAD) on the retryable statuses; anything else only on 429. */
export function mayRetryStatus(method: string, status: number): boolean {
  if (status === 429) return true;
  return isIdempotent(method) && isRetryableStatus(status);
}

/** Only a request that changes nothing may be repeated after a lost answer. */
export function isIdempotent(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

/**
 * The wait before the next try, after the `failures`-th failure of this kind (1-based).
 * A server's Retry-After wins when it is given.
 */
export function computeBackoff(
  policy: RetryPolicy,
  failures: number,
  retryAfterMs: number | undefined,
  kind: FailureKind = 'gateway',
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxRetryAfterMs);
  if (kind === 'busy') {
    const nominal = policy.busyBaseDelayMs * 2 ** (failures - 1);
    return Math.round(nominal * (0.75 + policy.random() * 0.5));
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (failures - 1));
  // Half fixed, half random: never zero, and concurrent clients spread out.
  return Math.round(ceiling / 2 + (policy.random() * ceiling) / 2);
}

export type RetryDecision =
  | { retry: true; delayMs: number }
  | { retry: false; reason: 'attempts' | 'budget' | 'retry-after'; retryAfterMs?: number };

/**
 * Whether to try again after the `failures`-th failure of `kind` (1-based), `elapsedMs` after the
 * first try began. The caller has already decided that the failure is retryable for this method.
 */
export function planRetry(
  policy: RetryPolicy,
  failures: number,
  elapsedMs: number,
  retryAfterMs: number | undefined,
  kind: FailureKind = 'gateway',
): RetryDecision {
  const attempts = kind === 'busy' ? policy.busyAttempts : policy.maxAttempts;
  if (failures >= attempts) return { retry: false, reason: 'attempts' };
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) {
    return { retry: false, reason: 'retry-after', retryAfterMs };
  }
  const delayMs = computeBackoff(policy, failures, retryAfterMs, kind);
  if (elapsedMs + delayMs > policy.budgetMs) {
    return retryAfterMs === undefined
      ? { retry: false, reason: 'budget' }
      : { retry: false, reason: 'retry-after', retryAfterMs };
  }
  return { retry: true, delayMs };
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (text === undefined || text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // A date must look like one: Date.parse also accepts "1" or "-5", which are not HTTP dates.
  if (!/[a-z]/i.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
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

/** A connection failure after which a GET may safely be tried again. */
export function isRetryableNetworkError(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  if (code && RETRYABLE_CODES.has(code)) return true;
  const cause = (error as { cause?: unknown }).cause as NodeJS.ErrnoException | undefined;
  return Boolean(cause?.code && RETRYABLE_CODES.has(cause.code));
}
