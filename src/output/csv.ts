/**
 * `--csv` and `--columns`: RFC 4180 text for the spreadsheets agencies live in, and the choice and
 * order of the columns a list prints (table, TSV and CSV alike).
 *
 * How values become CSV fields (also in the README):
 * - null and undefined (a field the service left out) → an empty field;
 * - booleans → `true` / `false`, numbers as JavaScript prints them;
 * - an array of plain values → its items joined with `; ` (webhook events, mailbox types);
 * - any other object → its JSON text;
 * - a field is quoted when it holds a comma, a double quote (doubled), CR or LF, or starts or ends
 *   with a space (spreadsheets would trim it). Lines end in CRLF, as RFC 4180 says; the header row
 *   comes first. Values are never altered otherwise, so a spreadsheet gets exactly what the API holds.
 */
import { UsageError } from '../errors.js';

export function csvValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object'))
    return value.map((v) => (v === null || v === undefined ? '' : String(v))).join('; ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function csvField(value: unknown): string {
  const text = csvValue(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole CSV document: the header row, then one record per row, each line ending in CRLF. */
export function toCsv(headers: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return [headers, ...rows].map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}

/**
 * The name a column goes by on the command line and in a CSV header: its header in lower case with
 * spaces as underscores (`email slots` → `email_slots`), the way the API spells its fields.
 */
export function columnName(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/**
 * The columns `--columns a,b,c` asks for, in that order. Names compare in lower case, and `-`, `_`
 * and spaces are the same (`email-slots` = `email_slots` = `"email slots"`); a name given twice is
 * shown once. An unknown or empty name is a usage error (exit 2, nothing sent) that lists the valid
 * ones. Without `--columns`, every column in its usual order.
 */
export function selectColumns<C extends { header: string }>(
  columns: readonly C[],
  spec: string | undefined,
): C[] {
  if (spec === undefined) return [...columns];
  const byName = new Map(columns.map((c) => [columnName(c.header), c]));
  const valid = () => `valid columns: ${[...byName.keys()].join(', ')}`;
  const chosen: C[] = [];
  const unknown: string[] = [];
  const words = spec.split(',').map((w) => w.trim());
  if (words.every((w) => w === '')) {
    throw new UsageError(`--columns needs at least one column name; ${valid()}.`);
  }
  for (const word of words) {
    if (word === '') continue;
    const column = byName.get(columnName(word));
    if (!column) unknown.push(word);
    else if (!chosen.includes(column)) chosen.push(column);
  }
  if (unknown.length > 0) {
    const list = unknown.map((w) => JSON.stringify(w)).join(', ');
    throw new UsageError(
      `Unknown column${unknown.length === 1 ? '' : 's'} ${list} in --columns; ${valid()}.`,
    );
  }
  return chosen;
}
