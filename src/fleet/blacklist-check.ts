/**
 * `blacklist check`: whether each value is on the agency blacklist, asked of the service with
 * `email_filter=a,b,...` rather than by reading the whole list. Each value goes to the list its form
 * names (an address to the e-mails, a domain to the domains). The values are split into requests so
 * that no request URL exceeds the service's limit (measured exactly as it will be sent) and one page
 * holds every answer.
 */
import {
  blacklistCheckPath,
  blacklistFilterQuery,
  MAX_BLACKLIST_PER_PAGE,
} from '../api/resources/blacklist.js';
import { MAX_REQUEST_URL_LENGTH } from '../api/resources/endpoint.js';
import { requestUrl } from '../api/url.js';
import { UsageError } from '../errors.js';
import { type BlacklistKind, listOf } from './blacklist.js';

export interface BlacklistReader {
  blacklisted(kind: BlacklistKind, values: readonly string[]): Promise<string[]>;
}

export interface CheckRow {
  value: string;
  listed: boolean;
}

/** Consecutive batches of values whose request URL stays within `maxLength` characters. */
export function filterBatches(
  baseUrl: string,
  kind: BlacklistKind,
  values: readonly string[],
  maxLength = MAX_REQUEST_URL_LENGTH,
): string[][] {
  const length = (batch: readonly string[]) =>
    requestUrl(baseUrl, blacklistCheckPath(kind), blacklistFilterQuery(batch)).href.length;
  const batches: string[][] = [];
  let current: string[] = [];
  for (const value of values) {
    const next = [...current, value];
    if (current.length > 0 && (current.length >= MAX_BLACKLIST_PER_PAGE || length(next) > maxLength)) {
      batches.push(current);
      current = [value];
    } else {
      current = next;
    }
    if (current.length === 1 && length(current) > maxLength) {
      throw new UsageError(
        `${value} cannot be checked: the request URL would be longer than ${maxLength} characters.`,
        { hint: 'Use a shorter --base-url.' },
      );
    }
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** One row per value, in the order given; `values` are checked and lower-cased already. */
export async function checkBlacklist(
  api: BlacklistReader,
  baseUrl: string,
  values: readonly string[],
): Promise<CheckRow[]> {
  const byKind: Record<BlacklistKind, string[]> = { emails: [], domains: [] };
  for (const value of values) byKind[listOf(value) ?? 'domains'].push(value);
  const listed = new Set<string>();
  for (const kind of ['emails', 'domains'] as const) {
    for (const batch of filterBatches(baseUrl, kind, byKind[kind])) {
      // The service answers the values found; they compare lower-cased, as the values are.
      for (const found of await api.blacklisted(kind, batch)) listed.add(found.trim().toLowerCase());
    }
  }
  return values.map((value) => ({ value, listed: listed.has(value) }));
}
