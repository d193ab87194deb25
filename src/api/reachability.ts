/**
 * Whether the service can be reached at all (contract, "Fleet changes"): when the connection is
 * refused or reset, or the host is not found, after retries, for 5 accounts in a row, a fleet command
 * starts no further accounts and says "the service is unreachable: N of M done".
 *
 * The HTTP layer tells the run's tracker about every request's last try (an answer of any status, or
 * no answer because nothing could be reached); the fan-outs (mapPool, mapInOrder) run each account's
 * work so that its requests count as that account's (AsyncLocalStorage: the requests of a worker
 * are its own, whatever else runs at once), and the tracker counts the accounts lost in a row. One
 * tracker per run, like the account gates: every client of the process feeds it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { hasCauseCode, NetworkError } from '../errors.js';
import { command } from '../terms.js';
import { perRun } from './per-run.js';

/** Accounts in a row that met an unreachable service before a fleet command stops. */
const UNREACHABLE_ACCOUNTS = 5;

/** The failures that mean the service itself is not there: refused, reset, unknown host, closed early. */
const UNREACHABLE_CODES = ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'UND_ERR_SOCKET', 'EPIPE'];

export function isUnreachable(error: unknown): boolean {
  return UNREACHABLE_CODES.some((code) => hasCauseCode(error, code));
}

/** The run stopped starting accounts: the service could not be reached. Exit 1. */
export class ServiceUnreachableError extends NetworkError {
  constructor(
    readonly done: number,
    readonly total: number | undefined,
  ) {
    super(`the service is unreachable: ${total === undefined ? done : `${done} of ${total}`} done`, {
      hint: `Nothing answered (connection refused or reset, or the host not found, after retries): check the network and the profile's base URL (${command('profiles list')}). What was done is reported.`,
    });
  }
}

/** What one account's requests met: answers, and requests that found nothing to talk to. */
interface AccountTally {
  answered: number;
  lost: number;
}

/** The account whose work a request belongs to: set by the fan-out around each account's work. */
const account = new AsyncLocalStorage<AccountTally>();

export class Reachability {
  #lostInARow = 0;
  #wake: (() => void) | undefined;
  #stop: Promise<void> | undefined;

  /** Settles when the fan-outs stop: a retry waiting for its turn ends at once instead. */
  get whenStopped(): Promise<void> {
    this.#stop ??= new Promise((resolve) => {
      this.#wake = resolve;
    });
    return this.#stop;
  }

  /** A request got an answer (any status): the service is there. */
  answered(): void {
    const tally = account.getStore();
    if (tally) tally.answered += 1;
    // A long-lived host (agency mcp) serves the next call normally once the service is back.
    this.#lostInARow = 0;
  }

  /** A request's last try found nothing to talk to. */
  lost(): void {
    const tally = account.getStore();
    if (tally) tally.lost += 1;
  }

  /** True once 5 accounts in a row met no service: no fan-out starts another, no request waits. */
  get stopped(): boolean {
    return this.#lostInARow >= UNREACHABLE_ACCOUNTS;
  }

  /**
   * Runs one account's work, its requests counted as its own. The account met an unreachable service
   * when a request of it was lost and none was answered; an answer breaks the row; an account that
   * sent nothing (skipped) leaves it as it is. `ended` is told whether the account was lost.
   */
  async account<R>(work: () => Promise<R>, ended: (lost: boolean) => void): Promise<R> {
    const tally: AccountTally = { answered: 0, lost: 0 };
    try {
      return await account.run(tally, work);
    } finally {
      const lost = tally.lost > 0 && tally.answered === 0;
      if (lost) this.#lostInARow += 1;
      if (this.stopped) {
        this.#wake?.();
        this.#stop = undefined;
      }
      ended(lost);
    }
  }
}

/**
 * One fan-out's view of the tracker: each account's work goes through `run`; once `stopped`, the
 * fan-out starts no further account and ends with `failure()` (N of M done).
 */
export class AccountWatch {
  #done = 0;
  readonly #tracker = reachability();

  constructor(readonly total: number | undefined) {}

  get stopped(): boolean {
    return this.#tracker.stopped;
  }

  run<R>(work: () => Promise<R>): Promise<R> {
    return this.#tracker.account(work, (lost) => {
      if (!lost) this.#done += 1;
    });
  }

  failure(): ServiceUnreachableError {
    return new ServiceUnreachableError(this.#done, this.total);
  }
}

/** The tracker of this run, and a fresh one when a run starts. */
const runReachability = perRun(() => new Reachability());
export const reachability = (): Reachability => runReachability.get();
export const resetReachability = (): void => runReachability.reset();
