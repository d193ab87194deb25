/**
 * Many waits on one signal share one listener. Every request of a fleet run listens for Ctrl-C (its
 * attempt, its turn in the account's queue, its pause before a retry): a listener each would put
 * dozens on the run's signal at once, which Node reports as a leak (MaxListenersExceededWarning).
 * Here the signal gets a single listener, and each wait adds and removes a callback in its set.
 */
const callbacksOf = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `callback` once when `signal` aborts; the returned function stops waiting (call it when the
 * wait ends, as with removeEventListener). A signal already aborted calls nothing: check `aborted` first.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  if (signal.aborted) return () => {};
  let callbacks = callbacksOf.get(signal);
  if (!callbacks) {
    const waiting = new Set<() => void>();
    callbacks = waiting;
    callbacksOf.set(signal, waiting);
    signal.addEventListener(
      'abort',
      () => {
        callbacksOf.delete(signal);
        for (const waiter of [...waiting]) waiter();
        waiting.clear();
      },
      { once: true },
    );
  }
  const set = callbacks;
  set.add(callback);
  return () => {
    set.delete(callback);
  };
}
