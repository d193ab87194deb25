import { describe, expect, it } from 'vitest';
import { call, OLIVIA_ACTIVE, sandboxesClosedAfterEach } from './helpers.js';

/** The network model (rttMs) and the queue statistics that tests of pipelining read. */
describe('network round trip and queue statistics', () => {
  const start = sandboxesClosedAfterEach();

  it('adds the round trip to every answer, outside the account slot (no queue needed for requests in flight)', async () => {
    // No waiting place at all: were the round trip spent holding the slot, the 2nd to 5th would be 429.
    const sb = await start({ rttMs: 300, queueLimit: 0, queueTimeoutMs: 10 });
    const t0 = performance.now();
    const single = await call(sb, '/v1/me');
    expect(single.status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(295);
    const statuses = (
      await Promise.all(Array.from({ length: 5 }, () => call(sb, '/v2/agency/companies')))
    ).map((a) => a.status);
    expect(statuses).toEqual(Array(5).fill(200));
    expect(sb.stats()).toMatchObject({ rejected429: 0, maxQueuedByAccount: { 'hq:1': 1 } });
  });

  it('counts per account: requests, the most in its queue at once (1 + 6), and the 429s answered', async () => {
    const sb = await start({ latencyMs: 300, queueTimeoutMs: 5000 });
    const hq = Array.from({ length: 10 }, () => call(sb, '/v2/agency/companies'));
    const client = Array.from({ length: 2 }, () => call(sb, '/v2/mailboxes', { company: OLIVIA_ACTIVE }));
    await Promise.all([...hq, ...client]);
    await call(sb, '/v1/me', { key: 'wpk_nope' }); // reaches no account
    const stats = sb.stats();
    expect(stats.requestsByAccount).toEqual({ 'hq:1': 10, [`company:${OLIVIA_ACTIVE}`]: 2 });
    expect(stats.maxQueuedByAccount).toEqual({ 'hq:1': 7, [`company:${OLIVIA_ACTIVE}`]: 2 });
    expect(stats.maxConcurrentByAccount).toEqual({ 'hq:1': 1, [`company:${OLIVIA_ACTIVE}`]: 1 });
    expect(stats.rejected429ByAccount).toEqual({ 'hq:1': 3 });
    expect(stats.rejected429).toBe(3);
    // The service's own work: 7 HQ requests served (3 refused), 300 ms each; 2 on the client account.
    expect(stats.servedMsByAccount['hq:1']).toBeGreaterThanOrEqual(7 * 299);
    expect(stats.servedMsByAccount['hq:1']).toBeLessThan(7 * 300 + 500);
    expect(stats.servedMsByAccount[`company:${OLIVIA_ACTIVE}`]).toBeGreaterThanOrEqual(2 * 299);
    const viaHttp = await (await fetch(`${sb.url}/_sandbox/stats`)).json();
    expect(viaHttp).toMatchObject({
      maxQueuedByAccount: stats.maxQueuedByAccount,
      rejected429ByAccount: { 'hq:1': 3 },
    });
    sb.reset();
    expect(sb.stats()).toMatchObject({
      requestsByAccount: {},
      maxQueuedByAccount: {},
      rejected429ByAccount: {},
      servedMsByAccount: {},
    });
  });

  it('gives up the round trip of a client that left, and still answers faults after it', async () => {
    const sb = await start({ rttMs: 200 });
    const abort = new AbortController();
    const quitter = call(sb, '/v1/me', { signal: abort.signal }).catch(() => 'aborted');
    setTimeout(() => abort.abort(), 30);
    expect(await quitter).toBe('aborted');
    // (another path: under load the quitter may reach the server late, and must not take this rule)
    sb.addFault({ kind: 'status', status: 503, path: '/v2/mailboxes' });
    expect((await call(sb, '/v2/mailboxes')).status).toBe(503);
    expect(sb.stats().requestsByAccount).toEqual({});
  });
});
