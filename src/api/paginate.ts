/**
 * Page iteration shared by every list. After the first page the number of pages (and the page size)
 * is known, so the next pages are asked for ahead: up to the account's depth (limit.ts) at once, so
 * the service never waits for our round trip. Items are delivered in page order; `limit` never asks
 * for a page it does not need; a failure on page k ends the listing after the items before it.
 *
 * Paging always ends: at the last page or an empty page (a normal end); a page that repeats the
 * previous page's items, or a page past MAX_PAGES, is a ResponseError.
 */
import { ResponseError } from '../errors.js';
import { groupDigits } from '../output/text.js';
import { sharedGates } from './limit.js';
import type { Page, PaginationData } from './types.js';

/** A server that keeps answering must not keep us forever: the 10,001st page is an error. */
export const MAX_PAGES = 10_000;

/** Requests kept ahead: a number, or asked each time (the run's depth, 1 after a 429). */
type Depth = number | (() => number);

export interface PageOptions {
  /** Fetch only this page. */
  page?: number | undefined;
  /** Start at this page and go on to the last (default 1). */
  from?: number | undefined;
  /** Stop after this many items. */
  limit?: number | undefined;
  /** Told after each page, e.g. for a progress line. */
  onPage?: ((pagination: PaginationData | undefined, itemsSoFar: number) => void) | undefined;
  /** Pages in flight at once; default: the run's depth per account. */
  inFlight?: Depth | undefined;
}

/** What the common loop needs to know of one fetched page. */
interface Fetched<T> {
  items: T[];
  /** The last page (in the caller's numbering) as far as this page tells. */
  lastPage: number;
  /** This page ends the listing (empty, short, or the last). */
  end: boolean;
  pagination?: PaginationData | undefined;
}

const runDepth = (): number => sharedGates().depth();

/** 1-based pages with `pagination_data` (companies, keys, users). */
export async function* paginate<T>(
  fetchPage: (page: number) => Promise<Page<T>>,
  options: PageOptions = {},
): AsyncGenerator<T> {
  const first = options.page ?? options.from ?? 1;
  const read = async (page: number): Promise<Fetched<T>> => {
    const result = await fetchPage(page);
    const info = result.pagination_data;
    if (info && info.current_page_number !== page && result.content.length > 0) {
      throw new ResponseError(
        `Asked for page ${page} but the service answered page ${info.current_page_number}; stopped to avoid repeating items.`,
        null,
      );
    }
    const end = !info || result.content.length === 0 || info.current_page_number >= info.total_pages;
    return { items: result.content, lastPage: info ? info.total_pages : page, end, pagination: info };
  };
  yield* pipeline(read, first, options.page !== undefined, options);
}

/**
 * 1-based pages for a search that may end early: the first page alone (what is sought there costs one
 * request), then the rest asked ahead as usual. The caller stops by leaving the loop.
 */
export async function* paginateSearch<T>(fetchPage: (page: number) => Promise<Page<T>>): AsyncGenerator<T> {
  let pages = 1;
  let items = 0;
  const onPage = (info: PaginationData | undefined, seen: number) => {
    pages = info?.total_pages ?? 1;
    items = seen;
  };
  yield* paginate(fetchPage, { page: 1, onPage });
  if (pages > 1 && items > 0) yield* paginate(fetchPage, { from: 2 });
}

export interface ZeroBasedOptions {
  perPage: number;
  limit?: number | undefined;
  inFlight?: Depth | undefined;
}

/** 0-based pages of `perPage` values with a `total` (the agency blacklist). */
export async function* paginateZeroBased<T>(
  fetchPage: (page0: number, perPage: number) => Promise<{ items: T[]; total: number }>,
  options: ZeroBasedOptions,
): AsyncGenerator<T> {
  const { perPage } = options;
  // The size the service really uses: a first page shorter than asked but short of `total` means the
  // service caps `per_page` lower; its pages are then that size, and the listing goes on to `total`.
  let pageSize = perPage;
  const read = async (page: number): Promise<Fetched<T>> => {
    const { items, total } = await fetchPage(page, perPage);
    if (page === 0 && items.length > 0 && items.length < perPage && items.length < total) {
      pageSize = items.length;
    }
    const lastPage = Math.max(0, Math.ceil(total / pageSize) - 1);
    const seen = page * pageSize + items.length;
    return { items, lastPage, end: items.length === 0 || items.length < pageSize || seen >= total };
  };
  yield* pipeline(read, 0, false, options);
}

/**
 * Pages asked ahead and answered, held until the consumer gets to them, at most this many times the
 * depth: a page answered out of order frees its place in the account's queue for the next page at
 * once, without the listing running away from a slow consumer.
 */
const HELD_PER_DEPTH = 2;

async function* pipeline<T>(
  read: (page: number) => Promise<Fetched<T>>,
  first: number,
  onlyFirst: boolean,
  options: { limit?: number | undefined; inFlight?: Depth | undefined; onPage?: PageOptions['onPage'] },
): AsyncGenerator<T> {
  const { limit } = options;
  if (limit !== undefined && limit <= 0) return;
  const depth = options.inFlight ?? runDepth;
  const currentDepth = () => Math.max(1, typeof depth === 'number' ? depth : depth());
  /** Pages asked for ahead and not yet delivered (in flight or answered), by page number. */
  const ahead = new Map<number, Promise<Fetched<T>>>();
  const lastAllowed = first + MAX_PAGES - 1;
  let limitCap = lastAllowed;
  let nextToAsk = first + 1;
  /** The last page to ask for, once the first page has said how many there are. */
  let lastToAsk = first;
  let inFlight = 0;
  /** The page the consumer is waiting for, if it is waiting, and the pages asked ahead answered so far. */
  let awaiting: number | undefined;
  const answered = new Set<number>();
  /** The listing ended (its end, the consumer left, or a page asked ahead failed): ask for no more. */
  let stopped = false;
  // Called after each page delivered and as each page asked ahead is answered, in whatever order.
  const askAhead = () => {
    while (
      !stopped &&
      nextToAsk <= lastToAsk &&
      inFlight < currentDepth() &&
      ahead.size < currentDepth() * HELD_PER_DEPTH
    ) {
      inFlight++;
      const page = nextToAsk;
      const pending = read(page);
      pending.then(
        (fetched) => {
          inFlight--;
          answered.add(page);
          if (fetched.end) stopped = true;
          // Once the page the consumer waits for is in, it is checked first (a repeat ends the
          // listing) and the consumer asks for more.
          else if (awaiting === undefined || !answered.has(awaiting)) askAhead();
        },
        () => {
          // The failure is thrown when the consumer gets to that page; nothing after it is needed.
          inFlight--;
          stopped = true;
        },
      );
      ahead.set(nextToAsk++, pending);
    }
  };
  let delivered = 0;
  let previous: string | undefined;
  try {
    for (let page = first; ; page++) {
      awaiting = page;
      const fetched = await (ahead.get(page) ?? read(page));
      awaiting = undefined;
      ahead.delete(page);
      answered.delete(page);
      const signature = fetched.items.length > 0 ? JSON.stringify(fetched.items) : undefined;
      if (signature !== undefined && signature === previous) {
        throw new ResponseError(
          `The service answered page ${page} with the same items as page ${page - 1}; stopped rather than repeat them.`,
          null,
        );
      }
      previous = signature;
      // After the first page the page size is known: never ask ahead for a page beyond the limit.
      if (page === first && limit !== undefined && fetched.items.length > 0) {
        limitCap = first + Math.ceil(limit / fetched.items.length) - 1;
      }
      const end =
        onlyFirst || fetched.end || (limit !== undefined && delivered + fetched.items.length >= limit);
      if (end) stopped = true;
      else {
        lastToAsk = Math.min(fetched.lastPage, limitCap, lastAllowed);
        nextToAsk = Math.max(nextToAsk, page + 1);
        askAhead();
      }
      for (const item of fetched.items) {
        yield item;
        delivered++;
        if (limit !== undefined && delivered >= limit) return;
      }
      options.onPage?.(fetched.pagination, delivered);
      if (end) return;
      if (page >= lastAllowed) {
        throw new ResponseError(
          `The service still had pages after ${groupDigits(MAX_PAGES)} pages; stopped rather than follow it forever.`,
          null,
        );
      }
    }
  } finally {
    stopped = true;
  }
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const result: T[] = [];
  for await (const item of items) result.push(item);
  return result;
}
