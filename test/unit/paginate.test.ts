import { describe, expect, it } from 'vitest';
import { collect, MAX_PAGES, paginate, paginateZeroBased } from '../../src/api/paginate.js';
import type { Page } from '../../src/api/types.js';
import { ResponseError } from '../../src/errors.js';

/**
 * A fake service with `total` items, `pageSize` a page, recording which pages were asked for and how
 * many were outstanding at once. Answers take a pseudo-random few milliseconds, so pages asked ahead
 * come back out of order.
 */
function service(total: number, pageSize = 50, options: { failOn?: number; slow?: boolean } = {}) {
  const asked: number[] = [];
  let outstanding = 0;
  let peak = 0;
  const peaks: number[] = [];
  let seed = 7;
  const fetchPage = async (page: number): Promise<Page<number>> => {
    asked.push(page);
    outstanding++;
    peak = Math.max(peak, outstanding);
    peaks.push(outstanding);
    seed = (seed * 48271) % 2147483647;
    if (options.slow !== false) await new Promise((r) => setTimeout(r, seed % 7));
    outstanding--;
    if (page === options.failOn) throw new ResponseError(`page ${page} failed`, 500);
    const start = (page - 1) * pageSize;
    const content = Array.from(
      { length: Math.max(0, Math.min(pageSize, total - start)) },
      (_, i) => start + i + 1,
    );
    const total_pages = Math.ceil(total / pageSize);
    return {
      content,
      pagination_data: { total_elements: total, total_pages, current_page_number: page, page_size: pageSize },
    };
  };
  return { asked, fetchPage, peak: () => peak, peaks };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('paginate, one page after another (depth 1)', () => {
  const one = { inFlight: 1 };

  it('fetches every page in order and stops at the last', async () => {
    const s = service(120);
    expect(await collect(paginate(s.fetchPage, one))).toEqual(range(120));
    expect(s.asked).toEqual([1, 2, 3]);
    expect(s.peak()).toBe(1);
  });

  it('asks once for an empty list', async () => {
    const s = service(0);
    expect(await collect(paginate(s.fetchPage, one))).toEqual([]);
    expect(s.asked).toEqual([1]);
  });

  it('fetches only the requested page with `page`', async () => {
    const s = service(120);
    const items = await collect(paginate(s.fetchPage, { page: 2 }));
    expect(items[0]).toBe(51);
    expect(items).toHaveLength(50);
    expect(s.asked).toEqual([2]);
  });

  it('starts at `from` and continues to the end', async () => {
    const s = service(120);
    expect(await collect(paginate(s.fetchPage, { from: 2, inFlight: 3 }))).toHaveLength(70);
    expect(s.asked).toEqual([2, 3]);
  });

  it('treats a list without pagination data as one page', async () => {
    let calls = 0;
    const items = await collect(
      paginate(async (): Promise<Page<string>> => {
        calls++;
        return { content: ['a', 'b'], pagination_data: undefined };
      }),
    );
    expect(items).toEqual(['a', 'b']);
    expect(calls).toBe(1);
  });

  it('tells onPage the pagination data and the items so far, once per page', async () => {
    const s = service(120);
    const seen: [number | undefined, number][] = [];
    await collect(paginate(s.fetchPage, { onPage: (p, n) => seen.push([p?.current_page_number, n]) }));
    expect(seen).toEqual([
      [1, 50],
      [2, 100],
      [3, 120],
    ]);
  });
});

describe('paging always ends', () => {
  it('stops on an empty page even if the totals promise more (a normal end)', async () => {
    const asked: number[] = [];
    const items = await collect(
      paginate(
        async (page): Promise<Page<number>> => {
          asked.push(page);
          return {
            content: page === 1 ? [1, 2] : [],
            pagination_data: {
              total_elements: 500,
              total_pages: 10,
              current_page_number: page,
              page_size: 2,
            },
          };
        },
        { inFlight: 1 },
      ),
    );
    expect(items).toEqual([1, 2]);
    expect(asked).toEqual([1, 2]);
  });

  it('a page that repeats the previous page is an error, after at most the pages asked ahead', async () => {
    let calls = 0;
    const stuck = async (page: number): Promise<Page<number>> => {
      calls++;
      return {
        content: [1, 2],
        pagination_data: { total_elements: 200, total_pages: 100, current_page_number: page, page_size: 2 },
      };
    };
    const error = await collect(paginate(stuck, { inFlight: 3 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseError);
    expect((error as ResponseError).exitCode).toBe(1);
    expect((error as Error).message).toMatch(/page 2 with the same items as page 1/);
    // Page 1, then pages asked ahead while its items were handed on: up to twice the depth are held.
    expect(calls).toBeLessThanOrEqual(1 + 2 * 3);
  });

  it('a server that ignores the page parameter is an error, not a loop', async () => {
    let calls = 0;
    const stuck = async (): Promise<Page<number>> => {
      calls++;
      return {
        content: [1],
        pagination_data: { total_elements: 100, total_pages: 100, current_page_number: 1, page_size: 1 },
      };
    };
    await expect(collect(paginate(stuck, { inFlight: 1 }))).rejects.toBeInstanceOf(ResponseError);
    expect(calls).toBe(2);
  });

  it(`the ${MAX_PAGES + 1}th page is an error and is never asked for`, async () => {
    let highest = 0;
    const endless = async (page: number): Promise<Page<number>> => {
      highest = Math.max(highest, page);
      return {
        content: [page],
        pagination_data: {
          total_elements: 10 ** 9,
          total_pages: 10 ** 9,
          current_page_number: page,
          page_size: 1,
        },
      };
    };
    const error = await collect(paginate(endless, { inFlight: 3 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseError);
    expect((error as Error).message).toMatch(/after 10,000 pages/);
    expect(highest).toBe(MAX_PAGES);
  });

  it(`exactly ${MAX_PAGES} pages are a complete listing`, async () => {
    const s = service(MAX_PAGES, 1, { slow: false });
    expect(await collect(paginate(s.fetchPage, { inFlight: 3 }))).toHaveLength(MAX_PAGES);
  });
});

describe('paginate with pages in flight (depth 3)', () => {
  it('keeps up to 3 pages in flight, never more, and delivers every item once, in order', async () => {
    const s = service(1000, 50);
    expect(await collect(paginate(s.fetchPage, { inFlight: 3 }))).toEqual(range(1000));
    expect(s.asked).toEqual(range(20));
    expect(s.peak()).toBe(3);
  });

  it.each([1, 2, 3, 5, 7])('depth %i is never exceeded', async (depth) => {
    const s = service(2000, 50);
    expect(await collect(paginate(s.fetchPage, { inFlight: depth }))).toHaveLength(2000);
    expect(s.peak()).toBe(depth);
  });

  it('the first page goes alone: the page count is not known before it', async () => {
    const s = service(500, 50);
    await collect(paginate(s.fetchPage, { inFlight: 3 }));
    expect(s.peaks[0]).toBe(1);
  });

  it.each([
    [1, [1]],
    [50, [1]],
    [51, [1, 2]],
    [120, [1, 2, 3]],
    [150, [1, 2, 3]],
    [151, [1, 2, 3, 4]],
  ])('--limit %i asks exactly for pages %j', async (limit, pages) => {
    const s = service(1000, 50);
    expect(await collect(paginate(s.fetchPage, { inFlight: 3, limit }))).toEqual(range(limit));
    expect([...s.asked].sort((a, b) => a - b)).toEqual(pages);
  });

  it('an error on page k delivers pages 1..k-1 once, in order, and then the error', async () => {
    const s = service(1000, 50, { failOn: 5 });
    const delivered: number[] = [];
    const error = await (async () => {
      for await (const item of paginate(s.fetchPage, { inFlight: 3 })) delivered.push(item);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseError);
    expect((error as Error).message).toBe('page 5 failed');
    expect(delivered).toEqual(range(200));
    // Pages asked ahead of the failure: at most the depth beyond it, never more.
    expect(Math.max(...s.asked)).toBeLessThanOrEqual(7);
  });

  it('follows a depth that drops to 1 (a 429 elsewhere in the run)', async () => {
    const s = service(1500, 50);
    let depth = 3;
    const items: number[] = [];
    for await (const item of paginate(s.fetchPage, { inFlight: () => depth })) {
      items.push(item);
      if (item === 250) {
        depth = 1;
        s.peaks.length = 0;
      }
    }
    expect(items).toEqual(range(1500));
    // Pages already asked for finish; once they have, never more than 1 again.
    expect(s.peaks.slice(3).every((p) => p === 1)).toBe(true);
  });

  it('stopping early (a consumer that breaks) leaves no failure behind', async () => {
    const s = service(1000, 50, { failOn: 3 });
    for await (const item of paginate(s.fetchPage, { inFlight: 3 })) {
      if (item === 10) break;
    }
    await new Promise((r) => setTimeout(r, 20));
    expect(s.asked.length).toBeLessThanOrEqual(4);
  });
});

describe('paginateZeroBased (the blacklist)', () => {
  function blacklist(total: number, options: { shortAt?: number; cap?: number } = {}) {
    const asked: [number, number][] = [];
    let outstanding = 0;
    let peak = 0;
    const fetchPage = async (page0: number, perPage: number) => {
      asked.push([page0, perPage]);
      outstanding++;
      peak = Math.max(peak, outstanding);
      await new Promise((r) => setTimeout(r, 1 + (page0 % 3)));
      outstanding--;
      const served = Math.min(perPage, options.cap ?? perPage);
      const start = page0 * served;
      const size = page0 === options.shortAt ? 3 : Math.max(0, Math.min(served, total - start));
      return { items: Array.from({ length: size }, (_, i) => `d${start + i}.example`), total };
    };
    return { asked, fetchPage, peak: () => peak };
  }

  it('starts at page 0, stops when the items seen reach the total', async () => {
    const b = blacklist(2500);
    const values = await collect(paginateZeroBased(b.fetchPage, { perPage: 1000, inFlight: 3 }));
    expect(values).toHaveLength(2500);
    expect(values[0]).toBe('d0.example');
    expect(values[2499]).toBe('d2499.example');
    expect(b.asked.map(([p]) => p).sort()).toEqual([0, 1, 2]);
    expect(b.asked.every(([, per]) => per === 1000)).toBe(true);
  });

  it('a total on a page boundary asks for no extra page', async () => {
    const b = blacklist(2000);
    await collect(paginateZeroBased(b.fetchPage, { perPage: 1000 }));
    expect(b.asked.map(([p]) => p).sort()).toEqual([0, 1]);
  });

  it('an empty blacklist is one request', async () => {
    const b = blacklist(0);
    expect(await collect(paginateZeroBased(b.fetchPage, { perPage: 100 }))).toEqual([]);
    expect(b.asked).toEqual([[0, 100]]);
  });

  it('a short page ends the listing', async () => {
    const b = blacklist(10_000, { shortAt: 1 });
    const values = await collect(paginateZeroBased(b.fetchPage, { perPage: 100, inFlight: 1 }));
    expect(values).toHaveLength(103);
    expect(b.asked.map(([p]) => p)).toEqual([0, 1]);
  });

  it('a service that serves fewer per page than asked is followed to the total', async () => {
    const b = blacklist(250, { cap: 100 });
    const values = await collect(paginateZeroBased(b.fetchPage, { perPage: 1000, inFlight: 1 }));
    expect(values).toHaveLength(250);
    expect(new Set(values).size).toBe(250);
    expect(b.asked.map(([p]) => p)).toEqual([0, 1, 2]);
  });

  it('keeps up to the depth in flight and honours a limit', async () => {
    const b = blacklist(50_000);
    const values = await collect(paginateZeroBased(b.fetchPage, { perPage: 100, inFlight: 3, limit: 450 }));
    expect(values).toHaveLength(450);
    expect(b.asked.map(([p]) => p).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(b.peak()).toBeLessThanOrEqual(3);
  });
});

describe('paginate asks ahead as pages come back, in whatever order', () => {
  it('a page answered before an earlier one frees its place at once (depth 3)', async () => {
    const asked: number[] = [];
    const answers = new Map<number, () => void>();
    const fetchPage = (page: number) =>
      new Promise<Page<number>>((resolve) => {
        asked.push(page);
        answers.set(page, () =>
          resolve({
            content: [page],
            pagination_data: { total_elements: 6, total_pages: 6, current_page_number: page, page_size: 1 },
          }),
        );
      });
    const tick = () => new Promise((r) => setTimeout(r, 5));
    const listing = collect(paginate(fetchPage, { inFlight: 3 }));
    await tick();
    answers.get(1)?.();
    await tick();
    expect(asked).toEqual([1, 2, 3, 4]);
    // Page 3 comes back before page 2: page 5 is asked for then, not once page 2 is in.
    answers.get(3)?.();
    await tick();
    expect(asked).toEqual([1, 2, 3, 4, 5]);
    for (const page of [2, 4, 5]) answers.get(page)?.();
    await tick();
    answers.get(6)?.();
    expect(await listing).toEqual([1, 2, 3, 4, 5, 6]);
    expect(asked).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
