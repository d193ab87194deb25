/**
 * `--csv` and `--columns`: RFC 4180 text for the spreadsheets agencies live in, and the choice and
 * order of the columns a list prints (table, TSV and CSV alike).
 *
 * How values become CSV fields (also in the README):
 * - null and undefined (a field the service left out) → an empty field;
 * - booleans → `true` / `false`, numbers as JavaScript prints them;
 * - a list cell (webhook events, mailbox types, roles: ListCell) or an array of plain values → its
 *   items joined with `; ` (a table and piped rows join them with a comma);
 * - any other object → its JSON text;
 * - a field is quoted when it holds a comma, a double quote (doubled), CR or LF, or starts or ends
 *   with a space (spreadsheets would trim it). Lines end in CRLF, as RFC 4180 says; the header row
 *   comes first. Values are never altered otherwise, so a spreadsheet gets exactly what the API holds.
 */
import { ExactInteger, stringifyExact } from '../api/json.js';
import { UsageError } from '../errors.js';
import { option } from '../terms.js';
import { cellText, ListCell } from './text.js';

export function csvValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (value instanceof ListCell) return value.items.join('; ');
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object'))
    return value.map((v) => (v === null || v === undefined ? '' : String(v))).join('; ');
  if (typeof value === 'object' && !(value instanceof ExactInteger)) return stringifyExact(value);
  return String(value);
}

export function csvField(value: unknown): string {
  const text = csvValue(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The one encoder of a list's rows off a terminal, for whole lists (writer.ts) and rows streamed as they
 * come (row-stream.ts): CSV (RFC 4180, CRLF, a header row) or TSV (no header, each cell on one line).
 */
export interface RowEncoder<T> {
  /** The CSV header row; '' for TSV. */
  readonly header: string;
  row(item: T): string;
}

export function rowEncoder<T>(
  columns: readonly (NamedColumn & { value: (item: T) => unknown })[],
  csv: boolean,
): RowEncoder<T> {
  return {
    header: csv ? rowLine(columns.map(columnKey), true) : '',
    row: (item) =>
      rowLine(
        columns.map((c) => c.value(item)),
        csv,
      ),
  };
}

/** One row's line: CSV fields and CRLF, or TSV cells and LF. */
export function rowLine(values: readonly unknown[], csv: boolean): string {
  return csv ? `${values.map(csvField).join(',')}\r\n` : `${values.map(cellText).join('\t')}\n`;
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

/** What --columns needs of a column: its header, and its name where the JSON field is spelt otherwise. */
export interface NamedColumn {
  header: string;
  name?: string | undefined;
  aliases?: readonly string[] | undefined;
  field?: string | undefined;
  /** Printed only when --columns names it (or is `all`): a column few need (health's owner). */
  optional?: boolean | undefined;
}

/** A column's name: the JSON field's name (`running_campaigns`), else its header as one. */
export function columnKey(column: NamedColumn): string {
  return column.name ?? columnName(column.header);
}

/**
 * The columns `--columns a,b,c` asks for, in that order. Names compare in lower case, and `-`, `_`
 * and spaces are the same (`email-slots` = `email_slots` = `"email slots"`); an older name (an alias)
 * still works; a name given twice is shown once. An unknown or empty name is a usage error (exit 2,
 * nothing sent) that lists the valid ones. Without `--columns`, every column but the optional ones;
 * with `--columns all`, every column; both in the usual order.
 */
export function selectColumns<C extends NamedColumn>(columns: readonly C[], spec: string | undefined): C[] {
  if (spec === undefined) return columns.filter((c) => !c.optional);
  if (isAll(spec)) return [...columns];
  const byName = new Map(columns.map((c) => [columnKey(c), c]));
  const valid = () => `valid columns: ${columns.map(columnKey).join(', ')}`;
  for (const column of columns) {
    for (const alias of column.aliases ?? []) if (!byName.has(alias)) byName.set(alias, column);
  }
  const chosen: C[] = [];
  const unknown: string[] = [];
  const words = spec.split(',').map((w) => w.trim());
  if (words.every((w) => w === '')) {
    throw new UsageError(`${option('columns')} needs at least one column name; ${valid()}.`);
  }
  if (words.some(isAll))
    throw new UsageError(`${option('columns')} all stands alone (every column); ${valid()}.`);
  for (const word of words) {
    if (word === '') continue;
    const column = byName.get(columnName(word));
    if (!column) unknown.push(word);
    else if (!chosen.includes(column)) chosen.push(column);
  }
  if (unknown.length > 0) {
    const list = unknown.map((w) => JSON.stringify(w)).join(', ');
    throw new UsageError(
      `Unknown column${unknown.length === 1 ? '' : 's'} ${list} in ${option('columns')}; ${valid()}.`,
    );
  }
  return chosen;
}

/** `--columns all`: every column, in the usual order (and with --json, every field). */
export function isAll(spec: string): boolean {
  return spec.trim().toLowerCase() === 'all';
}

/**
 * `--json --columns`: each object keeps only the chosen columns' fields, in the chosen order, at the
 * place the API put them (`details.email` stays under `details`). A part of a report that could not
 * be read (`{error}` where `{errors}` was asked for) keeps its error, so a failure is never dropped.
 */
export function pickFields(items: readonly unknown[], columns: readonly NamedColumn[]): unknown[] {
  const paths = columns.map((c) => (c.field ?? columnKey(c)).split('.'));
  return items.map((item) => {
    if (!isObject(item)) return item;
    const picked: Record<string, unknown> = {};
    for (const path of paths) copyPath(item, picked, path);
    return picked;
  });
}

function copyPath(from: Record<string, unknown>, to: Record<string, unknown>, path: readonly string[]): void {
  const [head, ...rest] = path;
  if (head === undefined || !(head in from)) return;
  const value = from[head];
  if (rest.length === 0 || !isObject(value)) {
    to[head] = value;
    return;
  }
  const target = isObject(to[head]) ? (to[head] as Record<string, unknown>) : {};
  to[head] = target;
  if (!((rest[0] as string) in value) && 'error' in value) target.error = value.error;
  else copyPath(value, target, rest);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
