/**
 * The agency-wide blacklist: which values `blacklist add` sends, decided before anything is sent.
 * Values are checked and lower-cased locally (a typo is exit 2 with nothing sent), a value given
 * twice goes once, values already on the list are left out, and the rest goes in chunks the
 * service accepts.
 */
import { domainToASCII, domainToUnicode } from 'node:url';
import {
  type BlacklistKind,
  MAX_BLACKLIST_PER_PAGE,
  MAX_BLACKLIST_PER_REQUEST,
} from '../api/resources/blacklist.js';
import { UsageError } from '../errors.js';
import { option } from '../terms.js';

export type { BlacklistKind };

/** The service adds at most this many values per POST. */
export const BLACKLIST_CHUNK_SIZE = MAX_BLACKLIST_PER_REQUEST;
/** The largest `per_page` the service allows on the 0-based list: fewest requests for a long list. */
export const BLACKLIST_PAGE_SIZE = MAX_BLACKLIST_PER_PAGE;

/** One value as the user gave it, and where it came from ("argument 2", "list.txt line 4"). */
export interface BlacklistEntry {
  value: string;
  where: string;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
// The top-level label: letters, or an IDN in punycode (xn--...); never all digits (that is an IP address).
const TOP_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
// The unquoted local part of RFC 5321 (quoted local parts are too rare to be worth the risk of a typo).
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

/** A host name with at least two labels, as a blacklist of domains holds them (already lower case). */
export function isDomain(value: string): boolean {
  if (value.length > 253) return false;
  const labels = value.split('.');
  if (labels.length < 2) return false;
  const top = labels[labels.length - 1] as string;
  return labels.every((label) => LABEL.test(label)) && TOP_LABEL.test(top);
}

/** An address `local@domain` (already lower case). */
export function isEmailAddress(value: string): boolean {
  if (value.length > 254) return false;
  const at = value.lastIndexOf('@');
  if (at <= 0) return false;
  const local = value.slice(0, at);
  return local.length <= 64 && LOCAL_PART.test(local) && isDomain(value.slice(at + 1));
}

/**
 * An internationalised domain (bücher.example), alone or after an address's @, in its ASCII form
 * (xn--bcher-kva.example: what DNS, mail servers and the service's checks work with); any other value
 * as it is. An address's local part is never converted (not ASCII, it stays refused).
 */
export function asciiForm(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point
  if (!/[^\u0000-\u007f]/.test(value)) return value;
  const at = value.lastIndexOf('@');
  const ascii = domainToASCII(value.slice(at + 1));
  return ascii === '' ? value : value.slice(0, at + 1) + ascii;
}

/**
 * A listed value with its internationalised domain (xn--bcher-kva.example) as people write it
 * (bücher.example), so that `list --filter bücher` finds what `add` sent in its ASCII form.
 */
export function unicodeForm(value: string): string {
  if (!value.includes('xn--')) return value;
  const at = value.lastIndexOf('@');
  const unicode = domainToUnicode(value.slice(at + 1));
  return unicode === '' ? value : value.slice(0, at + 1) + unicode;
}

/** The note that a value goes in its ASCII form: "bücher.example (argument 1) is sent as xn--….". */
export function asciiFormNote(given: string, ascii: string, where: string, verb = 'sent'): string {
  return `${given} (${where}) is ${verb} in its ASCII form, ${ascii}.`;
}

/** Which list a checked value belongs on by its form: an address on the e-mails, a domain on the domains. */
export function listOf(value: string): BlacklistKind | undefined {
  if (isEmailAddress(value)) return 'emails';
  if (isDomain(value)) return 'domains';
  return undefined;
}

function problemWith(kind: BlacklistKind, value: string): string | undefined {
  if (kind === 'domains') {
    if (isDomain(value)) return undefined;
    return value.includes('@')
      ? `is an e-mail address, not a domain (use ${option('emails')})`
      : 'is not a domain (such as example.com)';
  }
  if (isEmailAddress(value)) return undefined;
  return isDomain(value.replace(/^@/, ''))
    ? `is a domain, not an e-mail address (use ${option('domains')})`
    : 'is not an e-mail address (such as name@example.com)';
}

export interface NormalizedValues {
  /** Lower-cased, each once, in the order first given. */
  values: string[];
  /** One note for each value given more than once (said on stderr; not an error). */
  notes: string[];
}

/**
 * Checks every entry at once and throws one UsageError naming each bad value and where it came
 * from; otherwise the values, lower-cased and each once.
 */
export function normalizeBlacklistEntries(
  kind: BlacklistKind | 'either',
  entries: readonly BlacklistEntry[],
  verb = 'add',
): NormalizedValues {
  const problems: string[] = [];
  const copies = new Map<string, string[]>();
  const notes: string[] = [];
  for (const entry of entries) {
    const given = entry.value.trim().toLowerCase();
    const value = asciiForm(given);
    const problem =
      value === ''
        ? 'is empty'
        : kind === 'either'
          ? listOf(value) === undefined
            ? 'is neither a domain (example.com) nor an e-mail address (name@example.com)'
            : undefined
          : problemWith(kind, value);
    if (problem) {
      problems.push(`${JSON.stringify(entry.value)} (${entry.where}) ${problem}.`);
      continue;
    }
    if (value !== given) notes.push(asciiFormNote(given, value, entry.where, pastVerb(verb)));
    const places = copies.get(value) ?? [];
    places.push(entry.where);
    copies.set(value, places);
  }
  if (problems.length > 0) {
    throw new UsageError(
      problems.length === 1
        ? (problems[0] as string)
        : `${problems.length} values are not ${kind === 'either' ? 'domains or addresses' : kind}:\n  ${problems.join('\n  ')}`,
      { hint: 'Nothing was sent.' },
    );
  }
  if (copies.size === 0) {
    const what = kind === 'either' ? 'values' : kind;
    throw new UsageError(`No ${what} to ${verb}: give them as arguments or with ${option('file')}.`);
  }
  for (const [value, places] of copies) {
    if (places.length > 1)
      notes.push(`${value} is given ${places.length} times (${places.join(', ')}); ${pastVerb(verb)} once.`);
  }
  return { values: [...copies.keys()], notes };
}

const pastVerb = (verb: string) => (verb === 'check' ? 'checked' : 'sent');

export interface BlacklistAddPlan {
  /** Values not on the list yet, in input order. */
  toAdd: string[];
  /** Values already on the list: not sent again. */
  present: string[];
}

/** `existing` is what the service lists; it is compared lower-cased, as the values are. */
export function planBlacklistAdd(values: readonly string[], existing: Iterable<string>): BlacklistAddPlan {
  const listed = new Set<string>();
  for (const value of existing) listed.add(value.trim().toLowerCase());
  const plan: BlacklistAddPlan = { toAdd: [], present: [] };
  for (const value of values) (listed.has(value) ? plan.present : plan.toAdd).push(value);
  return plan;
}

/** Consecutive slices of at most `size` items; the last one smaller. */
export function chunked<T>(items: readonly T[], size = BLACKLIST_CHUNK_SIZE): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}
