/**
 * How many requests each account has in flight. The service works on one request per account at a
 * time and queues up to 6 more (429 beyond); the HQ account and each client account (x-company-id)
 * have separate queues. Reads may keep up to `depth` requests in an account's queue, so the network
 * round trip hides behind the service's work; a write waits until the account has nothing in
 * flight and goes alone, so writes happen one at a time and in order, and no read overtakes a write
 * that was asked for before it. After any 429 the depth is 1 for the rest of the run.
 */
import { onAbort } from '../abort-watch.js';
import { InterruptedError } from '../errors.js';
import { perRun } from './per-run.js';
import { resetReachability } from './reachability.js';

/** 1 processing + 2 waiting; AGENCY_MAX_IN_FLIGHT may choose 1 (one after another) to 7 (1 + the queue of 6). */
export const DEFAULT_MAX_IN_FLIGHT = 3;
export const MIN_IN_FLIGHT = 1;
export const MAX_IN_FLIGHT = 7;

export type Access = 'read' | 'write';

interface Waiter {
  access: Access;
  grant: () => void;
}

interface AccountQueue {
  inFlight: number;
  writing: boolean;
  waiting: Waiter[];
  peak: number;
  peakAfterSlowDown: number;
}

export class AccountGates {
  #depth: number;
  #slowedDown = false;
  readonly #accounts = new Map<string, AccountQueue>();
  readonly #identities = new Map<string, number>();

  constructor(depth = DEFAULT_MAX_IN_FLIGHT) {
    this.#depth = clampDepth(depth);
  }

  /** Reads allowed in flight per account now: the configured depth, or 1 after a 429. */
  depth(): number {
    return this.#slowedDown ? 1 : this.#depth;
  }

  configuredDepth(): number {
    return this.#depth;
  }

  configure(depth: number): void {
    this.#depth = clampDepth(depth);
  }

  /** A 429 (from us or from another integration of the account): one request at a time from now on. */
  slowDown(): void {
    if (this.#slowedDown) return;
    this.#slowedDown = true;
  }

  get slowedDown(): boolean {
    return this.#slowedDown;
  }

  /**
   * The account of a request: which key (and base URL) and which company context. The key itself is
   * only a map key here; the account name is a number.
   */
  account(baseUrl: string, apiKey: string, companyId: string | undefined): string {
    const identity = `${baseUrl}\n${apiKey}`;
    let id = this.#identities.get(identity);
    if (id === undefined) {
      id = this.#identities.size + 1;
      this.#identities.set(identity, id);
    }
    return companyId === undefined ? `key${id}` : `key${id}:company:${companyId}`;
  }

  /**
   * Waits for the account's turn; the returned function ends the request's turn (call it exactly once).
   * `first`: the request was already waiting (a retry), so it goes ahead of newer ones.
   */
  acquire(account: string, access: Access, signal?: AbortSignal, first = false): Promise<() => void> {
    const queue = this.#queue(account);
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new InterruptedError());
      const interrupted = () => {
        const index = queue.waiting.indexOf(waiter);
        if (index >= 0) queue.waiting.splice(index, 1);
        reject(new InterruptedError());
        this.#pump(queue);
      };
      const waiter: Waiter = {
        access,
        grant: () => {
          stopWatching?.();
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            queue.inFlight -= 1;
            if (access === 'write') queue.writing = false;
            this.#pump(queue);
          });
        },
      };
      const stopWatching = signal ? onAbort(signal, interrupted) : undefined;
      if (first) queue.waiting.unshift(waiter);
      else queue.waiting.push(waiter);
      this.#pump(queue);
    });
  }

  /** The most requests this account had in flight at once (as a turn was given after a 429, with `afterSlowDown`). */
  peak(account: string, afterSlowDown = false): number {
    const queue = this.#accounts.get(account);
    return (afterSlowDown ? queue?.peakAfterSlowDown : queue?.peak) ?? 0;
  }

  #queue(account: string): AccountQueue {
    let queue = this.#accounts.get(account);
    if (!queue) {
      queue = { inFlight: 0, writing: false, waiting: [], peak: 0, peakAfterSlowDown: 0 };
      this.#accounts.set(account, queue);
    }
    return queue;
  }

  /** Lets waiting requests go, strictly in the order they asked, as far as the rules allow. */
  #pump(queue: AccountQueue): void {
    for (let next = queue.waiting[0]; next; next = queue.waiting[0]) {
      if (queue.writing) return;
      if (next.access === 'write' ? queue.inFlight > 0 : queue.inFlight >= this.depth()) return;
      queue.waiting.shift();
      queue.inFlight += 1;
      if (next.access === 'write') queue.writing = true;
      queue.peak = Math.max(queue.peak, queue.inFlight);
      if (this.#slowedDown) queue.peakAfterSlowDown = Math.max(queue.peakAfterSlowDown, queue.inFlight);
      next.grant();
    }
  }
}

function clampDepth(depth: number): number {
  if (!Number.isInteger(depth)) return DEFAULT_MAX_IN_FLIGHT;
  return Math.min(MAX_IN_FLIGHT, Math.max(MIN_IN_FLIGHT, depth));
}

/**
 * The gates of this run: every client of the process shares them, so the HQ account's requests of a
 * fleet command count together, and one 429 slows the whole run down.
 */
const runGates = perRun(() => new AccountGates());
export const sharedGates = (): AccountGates => runGates.get();

/** A new run starts with fresh gates and a fresh reachability tracker. */
export function startRun(): void {
  runGates.reset();
  resetReachability();
}
