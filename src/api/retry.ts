/**
 * The retry schedule of the contract, kept free of I/O so it can be unit-tested.
 *
 * With the defaults a request is tried at most 4 times; the waits between tries are 150–300 ms,
 * 300–600 ms and 600–1200 ms (or what the server's Retry-After asks, up to 20 s), and no retry starts
 * once 45 s have passed since the first try. A Retry-After longer than 20 s, or longer than what is left
 * of the 45 s, is not shortened: the tool gives up at once and says how long the service asked to wait.
 * So the total wait is bounded by 45 s plus one request's deadline (--timeout).
 */

export interface RetryPolicy {
  /** Total attempts, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** No retry starts once this much time has passed since the first attempt. */
  budgetMs: number;
  /** The longest Retry-After we are willing to honour; a longer one ends the retries. */
  maxRetryAfterMs: number;
  random: () => number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 300,
  maxDelayMs: 5_000,
  budgetMs: 45_000,
  maxRetryAfterMs: 20_000,
  random: Math.random,
};

/** Statuses that mean "not processed, try later" for a GET. A POST is retried on 429 only. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 502 || status === 503 || status === 504;
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

/** Exponential backoff with jitter; a server's Retry-After wins when it is given. */
export function computeBackoff(
  policy: RetryPolicy,
  attempt: number,
  retryAfterMs: number | undefined,
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxRetryAfterMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  // Half fixed, half random: never zero, and concurrent clients spread out.
  return Math.round(ceiling / 2 + (policy.random() * ceiling) / 2);
}

export type RetryDecision =
  | { retry: true; delayMs: number }
  | { retry: false; reason: 'attempts' | 'budget' | 'retry-after'; retryAfterMs?: number };

/**
 * Whether to try again after a retryable failure of `attempt` (1-based), `elapsedMs` after the first
 * try began. The caller has already decided that the failure is retryable for this method.
 */
export function planRetry(
  policy: RetryPolicy,
  attempt: number,
  elapsedMs: number,
  retryAfterMs: number | undefined,
): RetryDecision {
  if (attempt >= policy.maxAttempts) return { retry: false, reason: 'attempts' };
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) {
    return { retry: false, reason: 'retry-after', retryAfterMs };
  }
  const delayMs = computeBackoff(policy, attempt, retryAfterMs);
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
