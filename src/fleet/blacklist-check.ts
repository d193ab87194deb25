/**
 * `blacklist check`: whether each value is on the agency blacklist, asked of the service with
 * `email_filter=a,b,...` rather than by reading the whole list. Each value goes to the list its form
 * names (an address to the e-mails, a domain to the domains), and an address's domain to the domains
 * too: outreach to an address is blocked when it is listed or its domain is (contract, "Fleet
 * changes": `value, listed, blocked, by`). The values are split into requests so
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
import { option } from '../terms.js';
import { type BlacklistKind, listOf } from './blacklist.js';

export interface BlacklistReader {
  blacklisted(kind: BlacklistKind, values: readonly string[]): Promise<string[]>;
}

export interface CheckRow {
  value: string;
  /** The value itself is on the list its form names. */
  listed: boolean;
  /** Outreach to it is blocked: it is listed, or (an address) its domain is on the domains list. */
  blocked: boolean;
  /** Which entry blocks it; null when nothing does. */
  by: 'email' | 'domain' | null;
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
        { hint: `Use a shorter ${option('base-url')}.` },
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
  const kindOf = (value: string): BlacklistKind => listOf(value) ?? 'domains';
  const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1);
  const asked: Record<BlacklistKind, Set<string>> = { emails: new Set(), domains: new Set() };
  for (const value of values) asked[kindOf(value)].add(value);
  // The domains of the addresses, after the domains given (each asked once).
  for (const value of values) if (kindOf(value) === 'emails') asked.domains.add(domainOf(value));
  const listed: Record<BlacklistKind, Set<string>> = { emails: new Set(), domains: new Set() };
  for (const kind of ['emails', 'domains'] as const) {
    for (const batch of filterBatches(baseUrl, kind, [...asked[kind]])) {
      // The service answers the values found; they compare lower-cased, as the values are.
      for (const found of await api.blacklisted(kind, batch)) listed[kind].add(found.trim().toLowerCase());
    }
  }
  return values.map((value) => {
    const kind = kindOf(value);
    const itself = listed[kind].has(value);
    const byDomain = kind === 'emails' && listed.domains.has(domainOf(value));
    const by = itself ? (kind === 'emails' ? 'email' : 'domain') : byDomain ? 'domain' : null;
    return { value, listed: itself, blocked: by !== null, by };
  });
}
