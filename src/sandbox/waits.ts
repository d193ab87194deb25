/**
 * The sandbox's simulated time (processing latency, network round trip), as waits the server owns.
 * Closing the server ends them all at once, so no request has to listen on a shared "closing" signal:
 * one listener per request in progress there was what made Node warn of a leak
 * (MaxListenersExceededWarning) when many clients waited under --latency.
 */
export interface Waits {
  /** Resolves true after `ms`; false at once if `gone` aborts (the client left) or the server closes. */
  sleep(ms: number, gone?: AbortSignal): Promise<boolean>;
  /** The server is closing: every wait ends (false) and later ones end at once. */
  endAll(): void;
  readonly ended: boolean;
}

export function createWaits(): Waits {
  const pending = new Set<() => void>();
  let ended = false;
  return {
    get ended() {
      return ended;
    },
    sleep(ms, gone) {
      if (ended || gone?.aborted) return Promise.resolve(false);
      return new Promise((resolve) => {
        const finish = (elapsed: boolean) => {
          clearTimeout(timer);
          pending.delete(stop);
          gone?.removeEventListener('abort', stop);
          resolve(elapsed);
        };
        const stop = () => finish(false);
        const timer = setTimeout(() => finish(true), ms);
        pending.add(stop);
        // `gone` belongs to this one request: its listener is the only one on it.
        gone?.addEventListener('abort', stop, { once: true });
      });
    },
    endAll() {
      ended = true;
      for (const stop of [...pending]) stop();
    },
  };
}
