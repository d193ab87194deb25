/** Parsers for user input. Each throws UsageError (exit 2) so that nothing is sent for bad input. */
import { exactInteger } from '../api/json.js';
import { textOf, UsageError } from '../errors.js';
import { looseName } from '../fleet/names.js';
import { hasControlCharacters, quoted } from '../output/text.js';
import { inputLine, option } from '../terms.js';

/**
 * An id (of a company, a guest, a campaign): a positive whole number, held exactly beyond 2^53 as the
 * service's ids are (an ExactInteger; a double would be a neighbour's id).
 */
export function parseCompanyId(value: string, what = 'company id'): number {
  const text = value.trim();
  if (!/^\d+$/.test(text) || /^0+$/.test(text)) {
    throw new UsageError(
      `Invalid ${what} ${JSON.stringify(value)}: expected a positive whole number, such as 1042.`,
    );
  }
  return exactInteger(text);
}

/** --page and --limit: whole numbers from 1. */
export function parsePositiveInt(value: string, option: string): number {
  const text = value.trim();
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`Invalid ${option} ${JSON.stringify(value)}: expected a whole number from 1.`);
  }
  return Number(text);
}

export const MAX_NAME_LENGTH = 255;

/**
 * A company name as the user gave it: trimmed, not empty, no control characters (they would be
 * invisible in the panel and in tables, and two names would look equal while being different).
 */
export function normalizeName(raw: string, where: string): string {
  const name = raw.trim();
  if (name === '') throw new UsageError(`Empty company name (${where}).`);
  // Also invisible format characters: bidi overrides and marks, line separators, zero-width space, BOM.
  if (hasControlCharacters(name)) {
    throw new UsageError(`The company name ${quoted(name)} (${where}) contains control characters.`);
  }
  if (name.length > MAX_NAME_LENGTH) {
    throw new UsageError(`The company name (${where}) is longer than ${MAX_NAME_LENGTH} characters.`);
  }
  return name;
}

/**
 * Within one input, names that differ only in case or spacing are refused as duplicates (the safe side
 * if the service folds case): the look-alike form of the one names rule in fleet/names.ts.
 */
export const nameKey = looseName;

/** Lines of a names file: whitespace trimmed, blank lines and `#` comments skipped. */
export function parseNameLines(text: string, source: string): { name: string; where: string }[] {
  const result: { name: string; where: string }[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    result.push({ name: trimmed, where: inputLine(source, index + 1) });
  });
  return result;
}

/**
 * Every problem of a list of names at once: empty names, control characters, and each name given
 * more than once (compared by nameKey), with where each copy came from.
 */
export function validateNames(entries: readonly { name: string; where: string }[]): string[] {
  const problems: string[] = [];
  const names: string[] = [];
  const seen = new Map<string, { name: string; where: string }[]>();
  for (const entry of entries) {
    let name: string;
    try {
      name = normalizeName(entry.name, entry.where);
    } catch (error) {
      problems.push(textOf(error));
      continue;
    }
    names.push(name);
    const key = nameKey(name);
    const copies = seen.get(key) ?? [];
    copies.push({ name, where: entry.where });
    seen.set(key, copies);
  }
  for (const copies of seen.values()) {
    if (copies.length > 1) {
      problems.push(
        `Duplicate company name: ${copies.map((c) => `${JSON.stringify(c.name)} (${c.where})`).join(', ')}.`,
      );
    }
  }
  if (problems.length > 0) {
    throw new UsageError(
      problems.length === 1
        ? (problems[0] as string)
        : `${problems.length} problems with the names:\n  ${problems.join('\n  ')}`,
      {
        hint: 'Nothing was sent.',
      },
    );
  }
  return names;
}

/** A key label: trimmed, not empty, printable, at most 255 characters. */
export function validateLabel(raw: string): string {
  const label = raw.trim();
  if (label === '')
    throw new UsageError('The key label is empty.', { hint: `Use e.g. ${option('label')} zapier.` });
  if (hasControlCharacters(label)) throw new UsageError('The key label contains control characters.');
  if (label.length > 255) throw new UsageError('The key label is longer than 255 characters.');
  return label;
}

/** Options that take a count (--port aside): parsed only when given. */
export function optionalPositiveInt(value: string | undefined, option: string): number | undefined {
  return value === undefined ? undefined : parsePositiveInt(value, option);
}

/** Client accounts a fleet command works on at once: each has its own rate limit, the HQ key has one. */
export const DEFAULT_CONCURRENCY = 4;
const MAX_CONCURRENCY = 32;

/** `--concurrency`: a whole number from 1 to MAX_CONCURRENCY; default DEFAULT_CONCURRENCY. */
export function parseConcurrency(value: string | undefined): number {
  const n = optionalPositiveInt(value, option('concurrency')) ?? DEFAULT_CONCURRENCY;
  if (n > MAX_CONCURRENCY) throw new UsageError(`${option('concurrency')} is at most ${MAX_CONCURRENCY}.`);
  return n;
}
