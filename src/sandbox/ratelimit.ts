/**
 * The service's rate limit, as the public docs describe it: per account, one request in progress
 * at a time, up to `queueLimit` more waiting in FIFO order, each waiting at most `queueTimeoutMs`.
 * A request that finds the queue full, or waits too long, is refused (the server answers 429).
 */

export type RejectReason = 'queue-full' | 'queue-timeout' | 'aborted';

export class LimitRejected extends Error {
  constructor(readonly reason: RejectReason) {
    super(
      reason === 'queue-full'
        ? 'too many requests are waiting for this account'
        : reason === 'queue-timeout'
          ? 'the request waited too long for this account'
          : 'the request was abandoned while waiting',
    );
    this.name = 'LimitRejected';
  }
}

export interface LimiterOptions {
  queueLimit: number;
  queueTimeoutMs: number;
  /** Requests in progress at once per account; the service's value is 1. */
  concurrency?: number;
}

interface QueuedRequest {
  grant: () => void;
  reject: (error: LimitRejected) => void;
}

interface Lane {
  active: number;
  queue: QueuedRequest[];
}

export type Release = () => void;

export class ConcurrencyLimiter {
  private readonly lanes = new Map<string, Lane>();
  private readonly concurrency: number;
  /** Highest number of requests in progress at once, per account, since the last reset. */
  maxConcurrent: Record<string, number> = {};
  /** Highest number of requests in the account's queue at once (in progress + waiting), per account. */
  maxQueued: Record<string, number> = {};

  constructor(private readonly options: LimiterOptions) {
    this.concurrency = options.concurrency ?? 1;
  }

  /** Resolves with a release function once the request may proceed; rejects with LimitRejected. */
  acquire(account: string, signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(new LimitRejected('aborted'));
    const lane = this.lane(account);
    if (lane.active < this.concurrency) {
      this.start(account, lane);
      this.noteQueued(account, lane);
      return Promise.resolve(this.releaser(account, lane));
    }
    if (lane.queue.length >= this.options.queueLimit) {
      return Promise.reject(new LimitRejected('queue-full'));
    }
    return new Promise<Release>((resolve, reject) => {
      const leave = (reason: RejectReason) => {
        const i = lane.queue.indexOf(waiter);
        if (i >= 0) lane.queue.splice(i, 1);
        cleanup();
        reject(new LimitRejected(reason));
      };
      const onAbort = () => leave('aborted');
      const timer = setTimeout(() => leave('queue-timeout'), this.options.queueTimeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const waiter: QueuedRequest = {
        grant: () => {
          cleanup();
          this.start(account, lane);
          resolve(this.releaser(account, lane));
        },
        reject: (error) => {
          cleanup();
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      lane.queue.push(waiter);
      this.noteQueued(account, lane);
    });
  }

  /** Refuses every waiting request (used when the server closes). */
  dispose(): void {
    for (const lane of this.lanes.values()) {
      for (const waiter of lane.queue.splice(0)) waiter.reject(new LimitRejected('aborted'));
    }
  }

  resetStats(): void {
    this.maxConcurrent = {};
    this.maxQueued = {};
  }

  private noteQueued(account: string, lane: Lane): void {
    const depth = lane.active + lane.queue.length;
    if (depth > (this.maxQueued[account] ?? 0)) this.maxQueued[account] = depth;
  }

  private lane(account: string): Lane {
    let lane = this.lanes.get(account);
    if (!lane) {
      lane = { active: 0, queue: [] };
      this.lanes.set(account, lane);
    }
    return lane;
  }

  private start(account: string, lane: Lane): void {
    lane.active += 1;
    if (lane.active > (this.maxConcurrent[account] ?? 0)) this.maxConcurrent[account] = lane.active;
  }

  private releaser(account: string, lane: Lane): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      lane.active -= 1;
      const next = lane.queue.shift();
      if (next) next.grant();
      else if (lane.active === 0) this.lanes.delete(account);
    };
  }
}
