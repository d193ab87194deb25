import { describe, expect, it } from 'vitest';
import {
  type Answer,
  call,
  clientKey,
  expectError,
  OLIVIA_ACTIVE,
  sandboxesClosedAfterEach,
  TOM_ACTIVE,
  tomKey,
} from './helpers.js';

describe('rate limit', () => {
  const start = sandboxesClosedAfterEach();

  it('serves one in progress plus 6 queued per account and answers 429 to the rest at once', async () => {
    const sb = await start({ latencyMs: 300, queueTimeoutMs: 5000 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => call(sb, '/v2/agency/companies')));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(7);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    const rejected = answers.find((a) => a.status === 429) as Answer;
    expectError(rejected, 429);
    expect(rejected.body.title).toBe('Too many requests');
    expect(rejected.headers.get('retry-after')).toBeNull();
    const stats = sb.stats();
    expect(stats.rejected429).toBe(3);
    expect(stats.maxConcurrentByAccount).toEqual({ 'hq:1': 1 });
  });

  it('answers 429 to a request that waits longer than the queue timeout', async () => {
    const sb = await start({ latencyMs: 200, queueTimeoutMs: 40 });
    const statuses = (await Promise.all([1, 2, 3].map(() => call(sb, '/v1/me')))).map((a) => a.status);
    expect(statuses.sort()).toEqual([200, 429, 429]);
  });

  it('keeps separate limits for the HQ account and each client account', async () => {
    const sb = await start({ latencyMs: 30, queueTimeoutMs: 5000 });
    // 7 per account fill each lane exactly; a shared lane would refuse 7 of these 21.
    const calls = [
      ...Array.from({ length: 7 }, () => call(sb, '/v2/agency/companies')),
      ...Array.from({ length: 7 }, () => call(sb, '/v2/mailboxes', { company: OLIVIA_ACTIVE })),
      ...Array.from({ length: 7 }, () => call(sb, '/v2/mailboxes', { key: clientKey(sb, TOM_ACTIVE) })),
    ];
    const statuses = (await Promise.all(calls)).map((a) => a.status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(sb.stats().maxConcurrentByAccount).toEqual({
      'hq:1': 1,
      [`company:${OLIVIA_ACTIVE}`]: 1,
      [`company:${TOM_ACTIVE}`]: 1,
    });
    expect(sb.stats().rejected429).toBe(0);
  });

  it('shares one HQ account between both users of the agency', async () => {
    // Long enough that all three arrive while the first is answered, even on a busy machine.
    const sb = await start({ latencyMs: 250, queueLimit: 1, queueTimeoutMs: 5000 });
    const statuses = (
      await Promise.all([
        call(sb, '/v1/me'),
        call(sb, '/v1/me', { key: tomKey(sb) }),
        call(sb, '/v2/agency/companies', { key: tomKey(sb) }),
      ])
    ).map((a) => a.status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
  });

  it('never answers 429 to a client that sends one request at a time', async () => {
    const sb = await start({ latencyMs: 2, queueLimit: 0, queueTimeoutMs: 10 });
    for (let page = 1; page <= 10; page++) {
      expect((await call(sb, `/v2/agency/companies?page=${page}`)).status).toBe(200);
    }
    expect(sb.stats().rejected429).toBe(0);
  });

  it('does not hold a queue place for a request whose client gave up', async () => {
    const sb = await start({ latencyMs: 200, queueLimit: 2, queueTimeoutMs: 5000 });
    const first = call(sb, '/v1/me');
    const abort = new AbortController();
    const quitters = Array.from({ length: 2 }, () =>
      call(sb, '/v1/me', { signal: abort.signal }).catch(() => 'aborted'),
    );
    await new Promise((r) => setTimeout(r, 30));
    abort.abort();
    expect(await Promise.all(quitters)).toEqual(Array(2).fill('aborted'));
    await new Promise((r) => setTimeout(r, 30)); // let the server see those sockets close
    // Were the quitters still queued, these would find the queue full and get 429 at once.
    const later = Array.from({ length: 2 }, () => call(sb, '/v1/me'));
    expect((await first).status).toBe(200);
    expect((await Promise.all(later)).map((a) => a.status)).toEqual(Array(2).fill(200));
    expect(sb.stats().rejected429).toBe(0);
  });

  it('lets authentication errors through without taking a slot', async () => {
    const sb = await start({ latencyMs: 100, queueLimit: 0, queueTimeoutMs: 10 });
    const busy = call(sb, '/v1/me');
    await new Promise((r) => setTimeout(r, 20));
    expect((await call(sb, '/v1/me', { key: 'bad' })).status).toBe(401);
    expect((await busy).status).toBe(200);
  });
});
