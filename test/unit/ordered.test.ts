/** mapInOrder: results handed on in input order as soon as every earlier one is done. */
import { describe, expect, it } from 'vitest';
import { mapInOrder, mapPool } from '../../src/fleet/ordered.js';

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('mapInOrder', () => {
  it('emits in input order although later items finish first, each as soon as it can', async () => {
    const emitted: string[] = [];
    const finished: number[] = [];
    const run = await mapInOrder(
      [30, 5, 5, 5],
      4,
      async (ms, i) => {
        await later(ms);
        finished.push(i);
        return i;
      },
      (result) => emitted.push(`${result} after ${finished.length} finished`),
    );
    expect(run).toEqual({ results: [0, 1, 2, 3] });
    expect(finished).toEqual([1, 2, 3, 0]);
    // Item 0 was last to finish: nothing was emitted before it, then everything at once.
    expect(emitted).toEqual([
      '0 after 4 finished',
      '1 after 4 finished',
      '2 after 4 finished',
      '3 after 4 finished',
    ]);
  });

  it('emits a row as soon as it and every row before it are done, not at the end', async () => {
    const emitted: number[] = [];
    let emittedWhenLastStarted = -1;
    await mapInOrder(
      [0, 1, 2],
      1,
      async (i) => {
        if (i === 2) emittedWhenLastStarted = emitted.length;
        return i;
      },
      (result) => emitted.push(result),
    );
    expect(emittedWhenLastStarted).toBe(2);
  });

  it('after an error: no new work, the rows before the failed one still emitted, the error returned', async () => {
    const started: number[] = [];
    const boom = new Error('boom');
    const run = await mapInOrder(
      [0, 1, 2, 3, 4, 5],
      2,
      async (i) => {
        started.push(i);
        if (i === 2) throw boom;
        await later(i === 1 ? 20 : 1);
        return i;
      },
      () => {},
    );
    expect(run.error).toBe(boom);
    expect(run.results).toEqual([0, 1]);
    expect(started).not.toContain(5);
  });

  it('stopped by an error: the results done behind the gap are returned apart (heldBack), in input order, not emitted', async () => {
    const emitted: number[] = [];
    const stop = new Error('interrupted');
    let failSecond = () => {};
    const run = await mapInOrder(
      [0, 1, 2, 3, 4],
      2,
      async (i) => {
        // Item 1 holds a lane until the other lane has done items 2, 3 and 4, then fails.
        if (i === 1) return new Promise<number>((_, reject) => (failSecond = () => reject(stop)));
        if (i === 4) setImmediate(() => failSecond());
        return i;
      },
      (result) => emitted.push(result),
    );
    expect(run.error).toBe(stop);
    expect(run.results).toEqual([0]);
    expect(emitted).toEqual([0]);
    expect(run.heldBack).toEqual([2, 3, 4]);
  });

  it('stops starting work once the signal is aborted', async () => {
    const controller = new AbortController();
    const run = await mapInOrder(
      [0, 1, 2, 3],
      1,
      async (i) => {
        if (i === 1) controller.abort();
        return i;
      },
      () => {},
      controller.signal,
    );
    expect(run.results).toEqual([0, 1]);
  });
});

describe('mapInOrder over items still coming in (an async iterable)', () => {
  async function* arriving(ids: number[], failAfter?: number) {
    for (const id of ids) {
      await later(3);
      if (id === failAfter) throw new Error('page 2 could not be read');
      yield id;
    }
  }

  it('lanes take each item as it arrives; results in order', async () => {
    const emitted: number[] = [];
    const run = await mapInOrder(
      arriving([1, 2, 3, 4, 5]),
      2,
      async (id) => id * 10,
      (r) => emitted.push(r),
    );
    expect(run).toEqual({ results: [10, 20, 30, 40, 50] });
    expect(emitted).toEqual([10, 20, 30, 40, 50]);
  });

  it("the items' own error ends the run after what was done, and is returned", async () => {
    const run = await mapInOrder(
      arriving([1, 2, 3, 4], 3),
      2,
      async (id) => id,
      () => {},
    );
    expect(run.results).toEqual([1, 2]);
    expect((run.error as Error).message).toBe('page 2 could not be read');
  });

  it('a run stopped early closes the items (no further page is asked for)', async () => {
    let closed = false;
    async function* endless() {
      try {
        for (let i = 0; ; i++) yield i;
      } finally {
        closed = true;
      }
    }
    const controller = new AbortController();
    const run = await mapInOrder(
      endless(),
      1,
      async (i) => {
        if (i === 2) controller.abort();
        return i;
      },
      () => {},
      controller.signal,
    );
    expect(run.results).toEqual([0, 1, 2]);
    expect(closed).toBe(true);
  });
});

describe('mapPool', () => {
  it('throws a worker error only once the workers in flight have ended, and starts nothing new', async () => {
    const ended: number[] = [];
    const started: number[] = [];
    const run = mapPool([0, 1, 2, 3, 4], 2, async (item) => {
      started.push(item);
      if (item === 0) throw new Error('first failed');
      await new Promise((resolve) => setTimeout(resolve, 20));
      ended.push(item);
      return item;
    });
    await expect(run).rejects.toThrow('first failed');
    // Item 1 was in flight when item 0 failed: it ended before the error came out.
    expect(ended).toContain(1);
    expect(started).not.toContain(4);
  });

  it('keeps the input order', async () => {
    const delays = [30, 0, 10];
    const run = await mapPool(delays, 3, async (ms, i) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return i;
    });
    expect(run).toEqual([0, 1, 2]);
  });
});
