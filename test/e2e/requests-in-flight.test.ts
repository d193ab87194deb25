/**
 * The limits of pipelined reads, proven against the sandbox's real per-account queue (not timed):
 * a queue of `depth − 1` answers 429 to any request beyond the depth, so "no 429" means "never more
 * than the depth in flight". Pages arrive in order, --limit asks for no page it does not need, an
 * error on page k ends the listing, and after a 429 the run goes one request at a time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID, type RecordedRequest, type SandboxOptions } from '../../src/sandbox/index.js';
import { type Harness, startHarness } from '../helpers/cli.js';

const COMPANIES = '/rest/v2/agency/companies';
/** 12 pages of 50. */
const SEED = { companies: 600 };

const listed = (h: Harness) => h.requests().filter((q) => q.method === 'GET' && q.path === COMPANIES);
const pagesAsked = (h: Harness) => listed(h).map((q) => Number(q.query.page));
const allIds = (h: Harness) => h.sandbox.store.companies(MAIN_AGENCY_ID).map((c) => String(c.id));
const ids = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t')[0]);

/**
 * The runs are in-process (test/helpers/in-process.ts): the depth, the pages and the retries are the
 * program's, whatever process it runs in; the queue is the sandbox's.
 */
async function harness(options: SandboxOptions): Promise<Harness> {
  return startHarness({ seed: SEED, latencyMs: 15, ...options }, { inProcess: true });
}

describe.each([
  [1, 0],
  [3, 2],
  [7, 6],
])(
  'AGENCY_MAX_IN_FLIGHT=%i against a queue of %i (one more request in flight would be a 429)',
  (depth, queue) => {
    let h: Harness;
    beforeAll(async () => {
      h = await harness({ queueLimit: queue });
    });
    afterAll(() => h.close());

    it('lists every page, in order, without a single 429, using the depth', async () => {
      h.sandbox.reset();
      const r = await h.run(['companies', 'list'], { env: { AGENCY_MAX_IN_FLIGHT: String(depth) } });
      expect(r.code, r.stderr).toBe(0);
      expect(ids(r.stdout)).toEqual(allIds(h));
      const stats = h.sandbox.stats();
      expect(stats.rejected429).toBe(0);
      // The most requests the HQ account held at once (processing + waiting): the depth, never more.
      const queued = Object.entries(stats.maxQueuedByAccount).filter(([account]) =>
        account.startsWith('hq:'),
      );
      expect(queued).toHaveLength(1);
      expect(queued[0]?.[1]).toBeLessThanOrEqual(depth);
      expect(queued[0]?.[1]).toBeGreaterThanOrEqual(Math.min(depth, 2));
      expect([...pagesAsked(h)].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      // Page 1 goes alone (the page count is not known before it).
      expect(pagesAsked(h)[0]).toBe(1);
    });
  },
);

/** [start, end] of each API request as the sandbox saw it, from its request log. */
function timeline(): {
  entries: { start: number; end: number; status: number }[];
  onRequest: SandboxOptions['onRequest'];
} {
  const entries: { start: number; end: number; status: number }[] = [];
  return {
    entries,
    onRequest: (entry) => {
      entries.push({ start: entry.startedAt, end: entry.endedAt, status: entry.status });
    },
  };
}

/** The most intervals open at once among `entries`. */
function mostAtOnce(entries: { start: number; end: number }[]): number {
  const edges = entries.flatMap((e) => [
    { t: e.start, d: 1 },
    { t: e.end, d: -1 },
  ]);
  // An interval that ends at the moment another starts does not overlap it.
  edges.sort((a, b) => a.t - b.t || a.d - b.d);
  let open = 0;
  let most = 0;
  for (const edge of edges) {
    open += edge.d;
    most = Math.max(most, open);
  }
  return most;
}

describe('after a 429, one request at a time for the rest of the run', () => {
  it('an injected 429 on a page: every request that starts after it was answered runs alone', async () => {
    const log = timeline();
    const h = await harness({ queueLimit: 6, onRequest: log.onRequest });
    try {
      const run = h.run(['companies', 'list']);
      while (h.requests().length === 0) await new Promise((r) => setTimeout(r, 2));
      h.sandbox.addFault({
        kind: 'status',
        status: 429,
        method: 'GET',
        path: '/v2/agency/companies',
      });
      const r = await run;
      expect(r.code, r.stderr).toBe(0);
      expect(ids(r.stdout)).toEqual(allIds(h));
      const answered429 = log.entries.find((e) => e.status === 429);
      expect(answered429).toBeDefined();
      // The retry waits about 1 s (0.75 s at least); what was already on its way arrives well before.
      const later = log.entries.filter((e) => e.start > (answered429?.end ?? 0) + 500);
      expect(later.length).toBeGreaterThan(5);
      expect(mostAtOnce(later)).toBe(1);
      // Until then pages had been in the queue together (the depth was in use).
      const queued = Object.entries(h.sandbox.stats().maxQueuedByAccount).find(([a]) => a.startsWith('hq:'));
      expect(queued?.[1]).toBeGreaterThanOrEqual(2);
    } finally {
      await h.close();
    }
  }, 30_000);
});

describe('the queue is really checked', () => {
  it('a depth above what the queue holds is answered 429 — then the run drops to one at a time and completes', async () => {
    const h = await harness({ queueLimit: 0 });
    try {
      const r = await h.run(['companies', 'list'], { env: { AGENCY_MAX_IN_FLIGHT: '7' } });
      expect(r.code, r.stderr).toBe(0);
      expect(ids(r.stdout)).toEqual(allIds(h));
      const refused = listed(h).filter((q) => q.status === 429);
      // Only the burst sent before the first 429 came back is refused: at most depth − 1 requests.
      expect(refused.length).toBeGreaterThan(0);
      expect(refused.length).toBeLessThanOrEqual(6);
      expect(h.sandbox.stats().rejected429).toBe(refused.length);
      // The retries (after a wait of about 1 s) and every later page came one at a time: no 429 among them.
      const first429 = Math.min(...refused.map((q) => q.startedAt));
      const later = listed(h).filter((q: RecordedRequest) => q.startedAt > first429 + 500);
      expect(later.length).toBeGreaterThan(6);
      expect(later.every((q) => q.status === 200)).toBe(true);
    } finally {
      await h.close();
    }
  }, 30_000);
});

describe('--limit and failures', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ queueLimit: 2 });
  });
  afterAll(() => h.close());

  it.each([
    [1, [1]],
    [50, [1]],
    [51, [1, 2]],
    [120, [1, 2, 3]],
    [151, [1, 2, 3, 4]],
  ])('--limit %i asks for pages %j and no other', async (limit, pages) => {
    h.sandbox.reset();
    const r = await h.run(['companies', 'list', '--limit', String(limit)]);
    expect(r.code, r.stderr).toBe(0);
    expect(ids(r.stdout)).toEqual(allIds(h).slice(0, limit));
    expect([...pagesAsked(h)].sort((a, b) => a - b)).toEqual(pages);
  });

  it('an error on a later page ends the listing: exit 1, nothing printed, no page beyond the ones in flight', async () => {
    const slow = await harness({ queueLimit: 2, latencyMs: 200 });
    try {
      const run = slow.run(['companies', 'list']);
      while (slow.requests().length === 0) await new Promise((r) => setTimeout(r, 5));
      // Page 1 is being processed: the next page to arrive fails, the others are answered.
      slow.sandbox.addFault({ kind: 'status', status: 501, method: 'GET', path: '/v2/agency/companies' });
      const r = await run;
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      const failed = listed(slow).find((q) => q.status === 501);
      expect(failed).toBeDefined();
      const k = Number(failed?.query.page);
      expect(r.stderr).toMatch(new RegExp(`page ${k}\\b.*answered 501`));
      expect(Math.max(...pagesAsked(slow))).toBeLessThanOrEqual(k + 3);
      expect(slow.sandbox.stats().rejected429).toBe(0);
    } finally {
      await slow.close();
    }
  }, 30_000);
});

describe('health against the real queue (depth 3, a queue of 2)', () => {
  it("every account within the depth: the HQ's pages and listing, each client's three reads; no 429", async () => {
    // Three pages of 50 (pages 2 and 3 can wait together in the HQ's account); in-process, as above.
    const h = await startHarness(
      { seed: { companies: 101 }, latencyMs: 15, rttMs: 10, queueLimit: 2 },
      { inProcess: true },
    );
    try {
      const r = await h.run(['health', '--json']);
      expect(r.code, r.stderr).toBe(7);
      const stats = h.sandbox.stats();
      expect(stats.rejected429).toBe(0);
      const queued = Object.entries(stats.maxQueuedByAccount);
      expect(Math.max(...queued.map(([, n]) => n))).toBeLessThanOrEqual(3);
      // Pipelined: a client's three reads wait together in its account, the HQ's pages too.
      expect(queued.find(([account]) => account.startsWith('hq:'))?.[1]).toBeGreaterThanOrEqual(2);
      expect(queued.filter(([account]) => account.startsWith('company:')).some(([, n]) => n === 3)).toBe(
        true,
      );
    } finally {
      await h.close();
    }
  });
});

describe('a wide fan-out under latency', () => {
  it('no MaxListenersExceededWarning from the tool or the sandbox, and closing the sandbox ends its waits', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    // The sandbox runs in this process: its warnings come here; the tool's are on its stderr (spawned).
    // 40 companies: more than the 32 lanes, so that every lane has a company in flight at once.
    const h = await startHarness({ seed: { companies: 40 }, latencyMs: 20, rttMs: 10 });
    try {
      const r = await h.run(['inventory', '--concurrency', '32'], { env: { AGENCY_MAX_IN_FLIGHT: '7' } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/MaxListeners|Warning/);
      const health = await h.run(['health', '--concurrency', '32']);
      expect(health.stderr).not.toMatch(/MaxListeners|Warning/);
    } finally {
      const closed = Date.now();
      await h.close();
      expect(Date.now() - closed).toBeLessThan(2000);
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.includes('MaxListeners'))).toEqual([]);
  });
});
