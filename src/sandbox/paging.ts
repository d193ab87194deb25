/** The service's 1-based pages of 50: query parsing and slicing, shared by every paged list. */
import { SandboxError } from './types.js';

const PAGE_SIZE = 50;

export interface PageBody<T> {
  content: T[];
  pagination_data: {
    total_elements: number;
    total_pages: number;
    current_page_number: number;
    page_size: number;
  };
}

/** 1-based page number from the query; absent = 1. */
export function parsePage(raw: string | undefined): number {
  if (raw === undefined) return 1;
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new SandboxError(400, `page must be a positive integer (got "${raw}")`);
  }
  return n;
}

export function parseActive(raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new SandboxError(400, `active must be true or false (got "${raw}")`);
}

/** One page out of a list that is already in order: O(page), whatever the list's length. */
export function pageOf<T, U>(items: readonly T[], page: number, map: (item: T) => U): PageBody<U> {
  const start = (page - 1) * PAGE_SIZE;
  return {
    content: items.slice(start, start + PAGE_SIZE).map(map),
    pagination_data: {
      total_elements: items.length,
      total_pages: Math.ceil(items.length / PAGE_SIZE),
      current_page_number: page,
      page_size: PAGE_SIZE,
    },
  };
}
