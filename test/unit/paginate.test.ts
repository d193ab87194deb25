import { describe, expect, it } from 'vitest';
import { collect, paginate } from '../../src/api/paginate.js';
import type { Page } from '../../src/api/types.js';
import { ResponseError } from '../../src/errors.js';

/** A fake service with `total` items, 50 a page, recording which pages were asked for. */
function service(total: number, pageSize = 50) {
  const asked: number[] = [];
  const fetchPage = async (page: number): Promise<Page<number>> => {
    asked.push(page);
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
  return { asked, fetchPage };
}

describe('paginate', () => {
  it('fetches every page in order and stops at the last', async () => {
    const s = service(120);
    const items = await collect(paginate(s.fetchPage));
    expect(items).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    expect(s.asked).toEqual([1, 2, 3]);
  });

  it('asks once for an empty list', async () => {
    const s = service(0);
    expect(await collect(paginate(s.fetchPage))).toEqual([]);
    expect(s.asked).toEqual([1]);
  });

  it('fetches only the requested page with `page`', async () => {
    const s = service(120);
    const items = await collect(paginate(s.fetchPage, { page: 2 }));
    expect(items[0]).toBe(51);
    expect(items).toHaveLength(50);
    expect(s.asked).toEqual([2]);
  });

  it('stops as soon as `limit` items were seen, without asking for more pages', async () => {
    const s = service(120);
    expect(await collect(paginate(s.fetchPage, { limit: 60 }))).toHaveLength(60);
    expect(s.asked).toEqual([1, 2]);
    const t = service(120);
    expect(await collect(paginate(t.fetchPage, { limit: 50 }))).toHaveLength(50);
    expect(t.asked).toEqual([1]);
  });

  it('starts at `from` and continues to the end', async () => {
    const s = service(120);
    expect(await collect(paginate(s.fetchPage, { from: 2 }))).toHaveLength(70);
    expect(s.asked).toEqual([2, 3]);
  });

  it('stops on an empty page even if the totals promise more', async () => {
    const asked: number[] = [];
    const items = await collect(
      paginate(async (page): Promise<Page<number>> => {
        asked.push(page);
        return {
          content: page === 1 ? [1, 2] : [],
          pagination_data: { total_elements: 500, total_pages: 10, current_page_number: page, page_size: 50 },
        };
      }),
    );
    expect(items).toEqual([1, 2]);
    expect(asked).toEqual([1, 2]);
  });

  it('refuses to loop on a server that ignores the page parameter', async () => {
    let calls = 0;
    const stuck = async (): Promise<Page<number>> => {
      calls++;
      return {
        content: [1],
        pagination_data: { total_elements: 100, total_pages: 100, current_page_number: 1, page_size: 1 },
      };
    };
    await expect(collect(paginate(stuck))).rejects.toBeInstanceOf(ResponseError);
    expect(calls).toBe(2);
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
});
