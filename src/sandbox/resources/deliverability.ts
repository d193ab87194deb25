/**
 * GET /v2/agency/deliverability?from=&to=&page=&per_page=: each client's counters over the period
 * against the period of the same length before it (seed/deliverability.ts). 1-based pages of
 * `per_page` (default 20, at most 50); clients with no activity, inactive or new ones are left out,
 * as the service leaves them out. The paging object uses the specification's names, or in docs mode
 * the older help article's `total_count` / `pages_count`.
 */
import { parsePage } from '../paging.js';
import { ok, type Route } from '../routing.js';
import { type DeliverabilityItem, deliverabilityOf } from '../seed/deliverability.js';
import type { Store } from '../store.js';
import { type HqContext, SandboxError } from '../types.js';

const DEFAULT_PER_PAGE = 20;
const MAX_PER_PAGE = 50;
/** The service's default window: the last 30 days. */
const DEFAULT_DAYS = 30;
const DAY_MS = 86_400_000;

function parseDate(raw: string, name: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  const time = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (!match || new Date(time).toISOString().slice(0, 10) !== raw) {
    throw new SandboxError(400, `${name} must be a date as YYYY-MM-DD (got "${raw}")`);
  }
  return time;
}

/** Days in the period the query asks for (both ends included). */
function periodDays(query: Record<string, string>): number {
  const to = query.to === undefined ? undefined : parseDate(query.to, 'to');
  const from = query.from === undefined ? undefined : parseDate(query.from, 'from');
  if (from === undefined) return DEFAULT_DAYS;
  const end = to ?? Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  if (from > end) throw new SandboxError(400, 'from must not be after to');
  return Math.round((end - from) / DAY_MS) + 1;
}

function parsePerPage(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_PER_PAGE;
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_PER_PAGE) {
    throw new SandboxError(400, `per_page must be between 1 and ${MAX_PER_PAGE} (got "${raw}")`);
  }
  return n;
}

function deliverability(store: Store, context: HqContext, query: Record<string, string>, docsMode: boolean) {
  const days = periodDays(query);
  const page = parsePage(query.page);
  const perPage = parsePerPage(query.per_page);
  const items = store
    .accessibleCompanies(context.user.id)
    .filter((c) => c.active && c.seeded)
    .map((c) => deliverabilityOf(c.id, c.name, days))
    .filter((item): item is DeliverabilityItem => item !== undefined);
  const start = (page - 1) * perPage;
  const pages = Math.ceil(items.length / perPage);
  const pagination_data = docsMode
    ? { total_count: items.length, pages_count: pages, current_page_number: page, page_size: perPage }
    : { total_elements: items.length, total_pages: pages, current_page_number: page, page_size: perPage };
  return { content: items.slice(start, start + perPage), pagination_data };
}

export function deliverabilityRoutes(options: { docsMode: boolean }): Route[] {
  return [
    {
      pattern: /^\/v2\/agency\/deliverability$/,
      methods: ['GET'],
      agency: true,
      handle: (c, { query }, { store }) => ok(deliverability(store, c, query, options.docsMode)),
    },
  ];
}
