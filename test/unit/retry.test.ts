import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeBackoff,
  DEFAULT_RETRY,
  isIdempotent,
  isRetryableNetworkError,
  mayRetryStatus,
  parseRetryAfter,
  planRetry,
  type RetryPolicy,
} from '../../src/api/retry.js';

const fixed = (random: number): RetryPolicy => ({ ...DEFAULT_RETRY, random: () => random });

describe('which answers are retried (the contract)', () => {
  const table: [method: string, status: number, retried: boolean][] = [
    ['GET', 429, true],
    ['GET', 502, true],
    ['GET', 503, true],
    ['GET', 504, true],
    ['GET', 500, true],
    ['GET', 501, false],
    ['GET', 400, false],
    ['GET', 401, false],
    ['GET', 403, false],
    ['GET', 404, false],
    ['GET', 409, false],
    ['HEAD', 503, true],
    ['POST', 429, true],
    ['POST', 500, false],
    ['POST', 502, false],
    ['POST', 503, false],
    ['POST', 504, false],
    ['PUT', 503, false],
    ['PATCH', 502, false],
    ['DELETE', 504, false],
    ['DELETE', 429, true],
  ];
  it.each(table)('%s answered %i: retried = %s', (method, status, retried) => {
    expect(mayRetryStatus(method, status)).toBe(retried);
  });

  it('repeats a request after a lost answer only for GET and HEAD', () => {
    expect(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].filter(isIdempotent)).toEqual(['GET', 'HEAD']);
  });
});

describe('computeBackoff', () => {
  it('doubles from the base delay, with jitter between half and the whole of each step', () => {
    expect([1, 2, 3].map((a) => computeBackoff(fixed(0), a, undefined))).toEqual([150, 300, 600]);
    expect([1, 2, 3].map((a) => computeBackoff(fixed(1), a, undefined))).toEqual([300, 600, 1200]);
  });

  it('never exceeds the largest step', () => {
    expect(computeBackoff(fixed(1), 30, undefined)).toBe(DEFAULT_RETRY.maxDelayMs);
  });

  it("uses the server's Retry-After instead of its own schedule", () => {
    expect(computeBackoff(fixed(1), 1, 0)).toBe(0);
    expect(computeBackoff(fixed(1), 3, 7_000)).toBe(7_000);
  });
});

describe('planRetry', () => {
  it('retries until the attempts are used up', () => {
    const policy = fixed(0.5);
    expect(planRetry(policy, 1, 0, undefined)).toEqual({ retry: true, delayMs: 225 });
    expect(planRetry(policy, 3, 0, undefined).retry).toBe(true);
    expect(planRetry(policy, 4, 0, undefined)).toEqual({ retry: false, reason: 'attempts' });
  });

  it('starts no retry that would end after the total budget', () => {
    expect(planRetry(fixed(0), 1, DEFAULT_RETRY.budgetMs - 150, undefined).retry).toBe(true);
    expect(planRetry(fixed(0), 1, DEFAULT_RETRY.budgetMs - 149, undefined)).toEqual({
      retry: false,
      reason: 'budget',
    });
  });

  it('gives up at once, instead of shortening it, when the server asks for a longer wait than allowed', () => {
    expect(planRetry(DEFAULT_RETRY, 1, 0, 3_600_000)).toEqual({
      retry: false,
      reason: 'retry-after',
      retryAfterMs: 3_600_000,
    });
    expect(planRetry(DEFAULT_RETRY, 1, 40_000, 10_000)).toEqual({
      retry: false,
      reason: 'retry-after',
      retryAfterMs: 10_000,
    });
    expect(planRetry(DEFAULT_RETRY, 1, 0, DEFAULT_RETRY.maxRetryAfterMs)).toEqual({
      retry: true,
      delayMs: DEFAULT_RETRY.maxRetryAfterMs,
    });
  });

  it('bounds the total wait whatever the server answers and however long requests take', () => {
    const outcome = fc.record({
      // undefined: no Retry-After; otherwise what the server asked, up to an hour.
      retryAfterMs: fc.option(fc.integer({ min: 0, max: 3_600_000 }), { nil: undefined }),
      requestMs: fc.integer({ min: 0, max: 30_000 }),
    });
    fc.assert(
      fc.property(
        fc.array(outcome, { minLength: 1, maxLength: 10 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (outcomes, r) => {
          const policy = fixed(r);
          let clock = 0;
          let waited = 0;
          let attempts = 0;
          for (const { retryAfterMs, requestMs } of outcomes) {
            attempts++;
            clock += requestMs;
            const decision = planRetry(policy, attempts, clock, retryAfterMs);
            if (!decision.retry) break;
            expect(decision.delayMs).toBeLessThanOrEqual(Math.max(policy.maxDelayMs, policy.maxRetryAfterMs));
            waited += decision.delayMs;
            clock += decision.delayMs;
            // Every retry starts within the budget.
            expect(clock).toBeLessThanOrEqual(policy.budgetMs);
          }
          expect(attempts).toBeLessThanOrEqual(policy.maxAttempts);
          expect(waited).toBeLessThanOrEqual(policy.budgetMs);
        },
      ),
    );
  });

  it('keeps the default schedule short when the server gives no Retry-After (at most 2.1 s in all)', () => {
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      const decision = planRetry(fixed(1), attempt, waited, undefined);
      if (!decision.retry) break;
      waited += decision.delayMs;
    }
    expect(waited).toBe(2_100);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');
  it.each([
    ['0', 0],
    ['2', 2_000],
    [' 3 ', 3_000],
    ['1.5', 1_500],
    ['Sun, 01 Jun 2025 12:00:10 GMT', 10_000],
    ['Sun, 01 Jun 2025 11:00:00 GMT', 0],
  ])('reads %j as %i ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it.each([undefined, '', '   ', 'soon', '-1', '1e3', '5 seconds', '12abc'])('ignores %j', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });

  it('takes the first of repeated headers', () => {
    expect(parseRetryAfter(['4', '9'], now)).toBe(4_000);
  });

  it('never returns a negative or non-finite wait', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const ms = parseRetryAfter(value, now);
        if (ms !== undefined) {
          expect(Number.isFinite(ms)).toBe(true);
          expect(ms).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });
});

describe('isRetryableNetworkError', () => {
  const withCode = (code: string) => Object.assign(new Error(code), { code });
  it('a reset, refusal or timeout, as the error or as its cause, may be tried again', () => {
    expect(isRetryableNetworkError(withCode('ECONNRESET'))).toBe(true);
    expect(isRetryableNetworkError(new Error('fetch failed', { cause: withCode('ECONNREFUSED') }))).toBe(
      true,
    );
    expect(isRetryableNetworkError(withCode('UND_ERR_HEADERS_TIMEOUT'))).toBe(true);
  });
  it('a host that does not exist, or an error without a code, is not retried', () => {
    expect(isRetryableNetworkError(withCode('ENOTFOUND'))).toBe(false);
    expect(isRetryableNetworkError(new Error('boom'))).toBe(false);
  });
});
