/**
 * Fleet reads that report as they go: each item's result is handed on as soon as it and every item
 * before it are done, so that the output keeps the input's order (the company order), a pipe sees
 * rows early, and Ctrl-C keeps every row already printed. Used by `inventory` and `health`.
 */
import { AccountWatch } from '../api/reachability.js';

export interface OrderedRun<R> {
  /** The results handed on, in input order (a prefix of the input when the run stopped early). */
  results: R[];
  /** Why the run stopped before the end: the first error a worker threw (an interrupt included). */
  error?: unknown;
  /**
   * A run stopped early: the results done after the gap it stopped at (an item still running, or
   * failed), in input order. Never emitted: the caller decides whether they count (an interrupted
   * `report` prints them, so that no client that finished is lost).
   */
  heldBack?: R[];
}

/**
 * Maps items with at most `concurrency` lanes and calls `emit` in input order. The items may be an
 * async iterable that is still coming in (clients as the company list's pages arrive): a lane takes
 * the next one when it is free. A worker may call `release()` to free its lane before it is done (its
 * last request is on its way back). A worker's error, or the items' (a page that
 * could not be read), stops new work; the workers in flight are awaited, what is done in order is
 * still emitted, and the error is returned (not thrown), so that the caller prints what was done
 * before reporting it (and what was done behind the gap, `heldBack`, if it counts for it). An aborted `signal` stops new work the same way, and so do 5 items (accounts)
 * in a row that met an unreachable service: the run's error is then ServiceUnreachableError.
 */
export async function mapInOrder<T, R>(
  items: readonly T[] | AsyncIterable<T>,
  concurrency: number,
  worker: (item: T, index: number, release: () => void) => Promise<R>,
  emit: (result: R, index: number) => void,
  signal?: AbortSignal,
  /** How many items there are, when `items` is still coming in (for "N of M done"). */
  total?: number,
): Promise<OrderedRun<R>> {
  const watch = new AccountWatch(Array.isArray(items) ? items.length : total);
  const done = new Map<number, R>();
  const results: R[] = [];
  const running: Promise<void>[] = [];
  const source = puller(items);
  let error: unknown;
  let failed = false;
  const fail = (thrown: unknown) => {
    if (!failed) error = thrown;
    failed = true;
  };
  // The gap a failed item leaves stops the flush: only the rows before it are emitted.
  const flush = () => {
    while (done.has(results.length)) {
      const index = results.length;
      const result = done.get(index) as R;
      done.delete(index);
      results.push(result);
      emit(result, index);
    }
  };
  const laneCount = Math.max(1, Array.isArray(items) ? Math.min(concurrency, items.length) : concurrency);
  const lanes = Array.from({ length: laneCount }, async () => {
    while (!failed && !signal?.aborted && !watch.stopped) {
      let next: { item: T; index: number } | undefined;
      try {
        next = await source.next();
      } catch (thrown) {
        fail(thrown);
        return;
      }
      if (!next || failed || signal?.aborted || watch.stopped) return;
      const { item, index } = next;
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const work = watch
        .run(() => worker(item, index, release))
        .then((result) => {
          done.set(index, result);
          flush();
        }, fail);
      running.push(work);
      await Promise.race([work, released]);
    }
  });
  await Promise.all(lanes);
  await Promise.all(running);
  await source.close();
  flush();
  const heldBack = [...done].sort(([a], [b]) => a - b).map(([, result]) => result);
  const stoppedWith = (why: unknown): OrderedRun<R> =>
    heldBack.length > 0 ? { results, error: why, heldBack } : { results, error: why };
  // The service gone: what was done is emitted; the run ends saying so (an earlier error wins).
  if (watch.stopped && !failed) return stoppedWith(watch.failure());
  return failed ? stoppedWith(error) : { results };
}

/**
 * Maps items with at most `concurrency` lanes; results keep the input order (the lanes of mapInOrder,
 * with nothing emitted on the way). A worker's error is thrown once the workers in flight have ended,
 * so that no request is left running behind the error; an aborted `signal` starts nothing new. Each
 * item is an account of a fleet command: when 5 accounts in a row met an unreachable service, no
 * further item starts and the pool throws ServiceUnreachableError (N of M done) once those in flight
 * end; a worker that wants to keep what was done stores its results itself.
 */
export async function mapPool<T, R>(
  items: readonly T[],
  concurrency: number,
  worker: (item: T, index: number, release: () => void) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  const run = await mapInOrder(items, concurrency, worker, () => {}, signal);
  if ('error' in run) throw run.error;
  return run.results;
}

/** The items one at a time, numbered, whichever lane asks; an iterable is closed when the run ends. */
function puller<T>(items: readonly T[] | AsyncIterable<T>) {
  let index = 0;
  if (Array.isArray(items)) {
    const list = items as readonly T[];
    return {
      next: async () => (index < list.length ? { item: list[index] as T, index: index++ } : undefined),
      close: async () => {},
    };
  }
  const iterator = (items as AsyncIterable<T>)[Symbol.asyncIterator]();
  let ended = false;
  return {
    next: async () => {
      if (ended) return undefined;
      const step = await iterator.next();
      if (step.done) {
        ended = true;
        return undefined;
      }
      return { item: step.value, index: index++ };
    },
    // A run stopped early asks no further page.
    close: async () => {
      if (!ended) await iterator.return?.()?.catch(() => undefined);
    },
  };
}
