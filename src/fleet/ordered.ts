/**
 * Fleet reads that report as they go: each item's result is handed on as soon as it and every item
 * before it are done, so that the output keeps the input's order (the company order), a pipe sees
 * rows early, and Ctrl-C keeps every row already printed. Used by `inventory` and `health`.
 */

export interface OrderedRun<R> {
  /** The results handed on, in input order (a prefix of the input when the run stopped early). */
  results: R[];
  /** Why the run stopped before the end: the first error a worker threw (an interrupt included). */
  error?: unknown;
}

/**
 * Maps items with at most `concurrency` lanes and calls `emit` in input order. A worker may call
 * `release()` to free its lane before it is done (its last request is on its way back), as with
 * mapPool. A worker's error stops new work; the workers in flight are awaited, what is done in order
 * is still emitted, and the error is returned (not thrown), so that the caller prints what was done
 * before reporting it. An aborted `signal` stops new work the same way.
 */
export async function mapInOrder<T, R>(
  items: readonly T[],
  concurrency: number,
  worker: (item: T, index: number, release: () => void) => Promise<R>,
  emit: (result: R, index: number) => void,
  signal?: AbortSignal,
): Promise<OrderedRun<R>> {
  const done = new Map<number, R>();
  const results: R[] = [];
  const running: Promise<void>[] = [];
  let next = 0;
  let error: unknown;
  let failed = false;
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
  const lanes = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, async () => {
    while (next < items.length && !failed && !signal?.aborted) {
      const index = next++;
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const work = worker(items[index] as T, index, release).then(
        (result) => {
          done.set(index, result);
          flush();
        },
        (thrown: unknown) => {
          if (!failed) error = thrown;
          failed = true;
        },
      );
      running.push(work);
      await Promise.race([work, released]);
    }
  });
  await Promise.all(lanes);
  await Promise.all(running);
  flush();
  return failed ? { results, error } : { results };
}
