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
 * Maps items with at most `concurrency` workers at once and calls `emit` in input order. A worker's
 * error stops new work; the workers in flight are awaited, what is done in order is still emitted,
 * and the error is returned (not thrown), so that the caller prints what was done before reporting it.
 * An aborted `signal` stops new work the same way.
 */
export async function mapInOrder<T, R>(
  items: readonly T[],
  concurrency: number,
  worker: (item: T, index: number) => Promise<R>,
  emit: (result: R, index: number) => void,
  signal?: AbortSignal,
): Promise<OrderedRun<R>> {
  const done = new Map<number, R>();
  const results: R[] = [];
  let next = 0;
  let error: unknown;
  let failed = false;
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
      try {
        done.set(index, await worker(items[index] as T, index));
      } catch (thrown) {
        if (!failed) error = thrown;
        failed = true;
        return;
      }
      // After a failure, the gap it left stops the flush: only rows before it are printed.
      flush();
    }
  });
  await Promise.all(lanes);
  flush();
  return failed ? { results, error } : { results };
}
