/** The agency-wide blacklist of domains and e-mail addresses: pages, a check by filter, add, remove. */

import { groupDigits } from '../../output/text.js';
import type { HttpResponse } from '../http.js';
import type { HttpLike } from '../lazy-http.js';
import { type BlacklistPage, blacklistValues, expectObject } from '../types.js';
import { debugging, type Endpoint, MAX_REQUEST_URL_LENGTH, target } from './endpoint.js';

export type BlacklistKind = 'domains' | 'emails';

/** The service takes at most this many blacklist values in one request. */
export const MAX_BLACKLIST_PER_REQUEST = 500;
/** The blacklist's page size: the service's default is 100, its maximum 1,000. */
export const MAX_BLACKLIST_PER_PAGE = 1_000;

export const BLACKLIST_ENDPOINTS = {
  list: {
    route: 'GET /v2/agency/blacklist/{kind}?page&per_page',
    does: `the list, in 0-based pages of ${groupDigits(MAX_BLACKLIST_PER_PAGE)}`,
    commands: ['blacklist list'],
  },
  check: {
    route: 'GET /v2/agency/blacklist/{kind}?email_filter&per_page',
    does: `which values are on it; URLs kept within ${groupDigits(MAX_REQUEST_URL_LENGTH)} characters`,
    commands: ['blacklist check', 'blacklist add', 'blacklist remove'],
  },
  add: {
    route: 'POST /v2/agency/blacklist/{kind}',
    does: `adds values, ${MAX_BLACKLIST_PER_REQUEST} per request`,
    commands: ['blacklist add'],
  },
  remove: {
    route: 'DELETE /v2/agency/blacklist/{kind}',
    does: `removes values, ${MAX_BLACKLIST_PER_REQUEST} per request (the body of adding)`,
    commands: ['blacklist remove'],
  },
} as const satisfies Record<string, Endpoint>;

/** The path of a check (the fleet keeps its URL within MAX_REQUEST_URL_LENGTH). */
export function blacklistCheckPath(kind: BlacklistKind): string {
  return target(BLACKLIST_ENDPOINTS.check, { kind }).path;
}

/** The query of a blacklist check: one page of the largest size holds every value asked. */
export function blacklistFilterQuery(values: readonly string[]): Record<string, string | number> {
  return { email_filter: values.join(','), per_page: MAX_BLACKLIST_PER_PAGE };
}

/** One 0-based page of the agency blacklist: {"domains"|"emails": [...], "total": N}. */
export async function listBlacklistPage(
  http: HttpLike,
  kind: BlacklistKind,
  page0: number,
  perPage: number,
): Promise<BlacklistPage> {
  const res = await http.request({
    ...target(BLACKLIST_ENDPOINTS.list, { kind }),
    query: { page: page0, per_page: perPage },
    emptyIsNothing: true,
    // Messages count pages from 1, as for every other listing.
    action: `list the blacklisted ${kind} (page ${page0 + 1})`,
  });
  if (res.data === undefined) return { items: [], total: 0 };
  const body = expectObject(res, debugging(http), `the blacklist of ${kind}`, `an object with "${kind}"`);
  const items = blacklistItems(http, res, kind);
  // Without "total" only a short page ends the listing: a full one may have more after it.
  const total =
    typeof body.total === 'number'
      ? body.total
      : items.length < perPage
        ? page0 * perPage + items.length
        : Number.POSITIVE_INFINITY;
  return { items, total };
}

/**
 * Which of `values` are on the list: GET with `email_filter=a,b,...` (the caller keeps the URL within
 * MAX_REQUEST_URL_LENGTH and the values within one page of MAX_BLACKLIST_PER_PAGE).
 */
export async function blacklisted(
  http: HttpLike,
  kind: BlacklistKind,
  values: readonly string[],
): Promise<string[]> {
  const res = await http.request({
    ...target(BLACKLIST_ENDPOINTS.check, { kind }),
    query: blacklistFilterQuery(values),
    emptyIsNothing: true,
    action: `check ${values.length} ${values.length === 1 ? kind.slice(0, -1) : kind} against the blacklist`,
  });
  return blacklistItems(http, res, kind);
}

/** Adds (POST) or removes (DELETE, the same body) at most 500 values; the caller chunks. */
export async function changeBlacklist(
  http: HttpLike,
  change: 'add' | 'remove',
  kind: BlacklistKind,
  values: readonly string[],
): Promise<void> {
  if (values.length > MAX_BLACKLIST_PER_REQUEST) {
    throw new RangeError(`at most ${MAX_BLACKLIST_PER_REQUEST} values per request, got ${values.length}`);
  }
  const what = `${values.length} ${values.length === 1 ? kind.slice(0, -1) : kind}`;
  const endpoint = BLACKLIST_ENDPOINTS[change];
  await http.request({
    ...target(endpoint, { kind }),
    body: { [kind]: values },
    action: change === 'add' ? `add ${what} to the blacklist` : `remove ${what} from the blacklist`,
  });
}

/** The values of a blacklist answer: strings, or objects holding the value. */
function blacklistItems(http: HttpLike, res: HttpResponse, kind: BlacklistKind): string[] {
  if (res.data === undefined) return [];
  const body = expectObject(res, debugging(http), `the blacklist of ${kind}`, `an object with "${kind}"`);
  return blacklistValues(body[kind] ?? [], kind, debugging(http));
}
