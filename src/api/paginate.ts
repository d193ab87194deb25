/** Page iteration shared by every list: one page after another (the service works one request at a time). */
import { ResponseError } from '../errors.js';
import type { Page, PaginationData } from './types.js';

export interface PageOptions {
  /** Fetch only this page. */
  page?: number | undefined;
  /** Start at this page and go on to the last (default 1). */
  from?: number | undefined;
  /** Stop after this many items. */
  limit?: number | undefined;
  /** Told after each page, e.g. for a progress line. */
  onPage?: ((pagination: PaginationData | undefined, itemsSoFar: number) => void) | undefined;
}

/** A server that keeps answering must not keep us forever. */
const MAX_PAGES = 100_000;

export async function* paginate<T>(
  fetchPage: (page: number) => Promise<Page<T>>,
  options: PageOptions = {},
): AsyncGenerator<T> {
  const { limit } = options;
  if (limit !== undefined && limit <= 0) return;
  let yielded = 0;
  let page = options.page ?? options.from ?? 1;
  for (;;) {
    const result = await fetchPage(page);
    const info = result.pagination_data;
    if (info && info.current_page_number !== page && result.content.length > 0) {
      throw new ResponseError(
        `Asked for page ${page} but the service answered page ${info.current_page_number}; stopped to avoid repeating items.`,
        null,
      );
    }
    for (const item of result.content) {
      yield item;
      yielded++;
      if (limit !== undefined && yielded >= limit) return;
    }
    options.onPage?.(info, yielded);
    const last = !info || result.content.length === 0 || info.current_page_number >= info.total_pages;
    if (options.page !== undefined || last || page >= MAX_PAGES) return;
    page++;
  }
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const result: T[] = [];
  for await (const item of items) result.push(item);
  return result;
}
