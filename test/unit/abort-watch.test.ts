/**
 * Many waits on one signal share one listener (src/abort-watch.ts): a fleet run's Ctrl-C signal is
 * watched by every request, and must not collect a listener per request (MaxListenersExceededWarning).
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { onAbort } from '../../src/abort-watch.js';
import { AccountGates } from '../../src/api/limit.js';
import { InterruptedError } from '../../src/errors.js';

const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

describe('onAbort', () => {
  it('a hundred waits put one listener on the signal; abort calls those still waiting, once each', () => {
    const controller = new AbortController();
    const called: number[] = [];
    const stops = Array.from({ length: 100 }, (_, i) => onAbort(controller.signal, () => called.push(i)));
    expect(listeners(controller.signal)).toBe(1);
    for (const stop of stops.slice(0, 98)) stop();
    controller.abort();
    controller.abort();
    expect(called).toEqual([98, 99]);
    expect(listeners(controller.signal)).toBe(0);
  });

  it('an aborted signal calls nothing and adds nothing (callers check aborted first)', () => {
    const controller = new AbortController();
    controller.abort();
    let called = false;
    onAbort(controller.signal, () => {
      called = true;
    })();
    expect(called).toBe(false);
    expect(listeners(controller.signal)).toBe(0);
  });
});

describe("an account's queue under a fan-out", () => {
  it('fifty requests waiting for their turn hold one listener on the run signal, and Ctrl-C reaches them all', async () => {
    const gates = new AccountGates(1);
    const controller = new AbortController();
    const first = await gates.acquire('hq', 'read', controller.signal);
    const waiting = Array.from({ length: 50 }, () => gates.acquire('hq', 'read', controller.signal));
    expect(listeners(controller.signal)).toBeLessThanOrEqual(1);
    controller.abort();
    const outcomes = await Promise.allSettled(waiting);
    expect(outcomes.every((o) => o.status === 'rejected' && o.reason instanceof InterruptedError)).toBe(true);
    first();
  });
});
