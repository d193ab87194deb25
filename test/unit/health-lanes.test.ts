/**
 * How `health` moves its lanes on (src/fleet/health.ts): a client's three reads queue in its own
 * account, so the service is done with them three service times after they were sent. Once the answers
 * have shown that time, a lane starts its next client then (here: with the first answer), instead of
 * waiting for the second answer, a round trip later.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Client } from '../../src/fleet/clients.js';
import { type AccountReader, checkClients } from '../../src/fleet/health.js';

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A service that takes SERVICE ms a request, one at a time per account, behind a round trip of RTT ms. */
function slowService(rttMs: number, serviceMs: number) {
  const started = new Map<number, number>();
  const busyUntil = new Map<number, number>();
  const read = async (companyId = 0) => {
    const now = Date.now();
    if (!started.has(companyId)) started.set(companyId, now);
    const arrives = now + rttMs / 2;
    const done = Math.max(arrives, busyUntil.get(companyId) ?? 0) + serviceMs;
    busyUntil.set(companyId, done);
    await later(done + rttMs / 2 - now);
    return [];
  };
  const api: AccountReader = { mailboxes: read, campaigns: read, webhooks: read };
  return { api, started };
}

describe('health lanes', () => {
  // The clock is the test's: the same times on a loaded machine as on a quiet one.
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a lane starts its next client when the service is about done with the current one, not an answer later', async () => {
    // Answers come 400, 500 and 600 ms after the reads are sent: the lane used to move on at 500.
    vi.useFakeTimers();
    const { api, started } = slowService(300, 100);
    const clients: Client[] = Array.from({ length: 6 }, (_, i) => ({
      id: i + 1,
      name: `c${i + 1}`,
      active: true,
    }));
    const running = checkClients(api, clients, Promise.resolve([]), {
      concurrency: 1,
      signal: new AbortController().signal,
    });
    await vi.runAllTimersAsync();
    const run = await running;
    expect(run.results.map((r) => r.client.id)).toEqual([1, 2, 3, 4, 5, 6]);
    const starts = clients.map((c) => started.get(c.id) as number);
    const gaps = starts.slice(1).map((t, i) => t - (starts[i] as number));
    // The first two clients show the service time (2 answer spacings each); from then on, 400 ms.
    expect(gaps).toEqual([500, 500, 400, 400, 400]);
  });
});
