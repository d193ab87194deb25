/** The retry schedule of the contract, kept free of I/O so it can be unit-tested. */

export interface RetryPolicy {
  /** Total attempts, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** No retry starts once this much time has passed since the first attempt. */
  budgetMs: number;
  /** Upper bound for a server's Retry-After. */
  maxRetryAfterMs: number;
  random: () => number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 300,
  maxDelayMs: 5_000,
  budgetMs: 45_000,
  maxRetryAfterMs: 30_000,
  random: Math.random,
};

/** Statuses that mean "not processed, try later" for a GET. A POST is retried on 429 only. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 502 || status === 503 || status === 504;
}

/** Exponential backoff with full jitter; a server's Retry-After wins when it is given. */
export function computeBackoff(policy: RetryPolicy, attempt: number, retryAfterMs: number | undefined): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxRetryAfterMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  // Half fixed, half random: never zero, and concurrent clients spread out.
  return Math.round(ceiling / 2 + (policy.random() * ceiling) / 2);
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text.trim())) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
