/**
 * The whole output policy in one place: JSON with --json, a table on a terminal, TSV when piped.
 * Results go to stdout, everything else to stderr. Commands return data; they never print.
 */
import type { Writable } from 'node:stream';
import { Chalk, type ChalkInstance } from 'chalk';
import { cellText, displayWidth, inertJson, terminalSafe, truncateToWidth } from './text.js';

export interface Column<T> {
  header: string;
  value: (item: T) => unknown;
  /** Colour for a terminal cell, given the raw value. */
  style?: (value: unknown, chalk: ChalkInstance) => ((text: string) => string) | undefined;
  /**
   * Width this column keeps while other columns can still give way (a 'name' column keeps 16 by
   * default: names are what a reader looks for).
   */
  minWidth?: number;
}

export interface Streams {
  stdout: Writable;
  stderr: Writable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Terminal width, when stdout is a terminal. */
  columns: number | undefined;
}

export interface ListOptions {
  /** Said on stderr, on a terminal, instead of an empty table: what to do next. */
  empty?: string | undefined;
  /** Singular and plural for the count under a table on a terminal: ['company', 'companies']. */
  noun?: readonly [string, string] | undefined;
}

export interface WriterOptions {
  json: boolean;
  /** Colour for stdout / stderr; decided once in terminal.ts. */
  color: boolean;
  stderrColor: boolean;
}

export class Writer {
  #chalk: ChalkInstance | undefined;
  #stderrChalk: ChalkInstance | undefined;

  constructor(
    readonly streams: Streams,
    readonly options: WriterOptions,
  ) {}

  get json(): boolean {
    return this.options.json;
  }

  private chalk(): ChalkInstance {
    this.#chalk ??= new Chalk({ level: this.options.color ? 1 : 0 });
    return this.#chalk;
  }

  private stderrChalk(): ChalkInstance {
    this.#stderrChalk ??= new Chalk({ level: this.options.stderrColor ? 1 : 0 });
    return this.#stderrChalk;
  }

  /**
   * A list result: JSON array of the items as the API returned them, TSV rows when piped, or on a
   * terminal a table that fits the width, followed by a count (or the empty-state message) on stderr.
   */
  async list<T>(
    items: readonly T[],
    columns: readonly Column<T>[],
    options?: string | ListOptions,
  ): Promise<void> {
    const { empty, noun } =
      typeof options === 'string' ? { empty: options, noun: undefined } : (options ?? {});
    if (this.options.json) return this.jsonValue(items);
    if (!this.streams.stdoutIsTTY) {
      for (const item of items) this.out(`${columns.map((c) => cellText(c.value(item))).join('\t')}\n`);
      return;
    }
    if (items.length === 0) {
      if (empty) this.info(empty);
      return;
    }
    this.out(`${await this.table(items, columns)}\n`);
    // The count is for the person watching; a redirected stderr is a log, and it would only be noise there.
    if (noun && this.streams.stderrIsTTY) {
      this.#stderr(
        `${this.stderrChalk().dim(`${items.length} ${items.length === 1 ? noun[0] : noun[1]}`)}\n`,
      );
    }
  }

  /** A single result object: JSON, or "field value" lines (tab-separated when piped). */
  record(value: Record<string, unknown>): void {
    if (this.options.json) {
      this.jsonValue(value);
      return;
    }
    const rows = flatten(value);
    if (!this.streams.stdoutIsTTY) {
      for (const [key, v] of rows) this.out(`${key}\t${cellText(v)}\n`);
      return;
    }
    const width = Math.max(0, ...rows.map(([key]) => key.length));
    const chalk = this.chalk();
    for (const [key, v] of rows) this.out(`${chalk.bold(key.padEnd(width))}  ${cellText(v)}\n`);
  }

  /** Pretty JSON on stdout, always (used by --json and the `api` command). */
  jsonValue(value: unknown): void {
    const text = inertJson(value, 2);
    this.out(`${text}\n`);
  }

  /** The --json error object: one line on stderr, inert on a terminal (src/output/error-report.ts). */
  errorObject(value: unknown): void {
    this.#stderr(`${inertJson(value)}\n`);
  }

  /** A bare line on stdout (a new key, an id). */
  line(text: string): void {
    this.out(`${this.streams.stdoutIsTTY ? terminalSafe(text) : text}\n`);
  }

  /** A message for the person: stderr. */
  info(message: string): void {
    this.err(`${message}\n`);
  }

  success(message: string): void {
    this.#stderr(`${this.stderrChalk().green('✓')} ${this.#safe(message)}\n`);
  }

  warn(message: string): void {
    this.#stderr(`${this.stderrChalk().yellow('warning:')} ${this.#safe(message)}\n`);
  }

  error(message: string, hint?: string): void {
    const chalk = this.stderrChalk();
    this.#stderr(`${chalk.red('error:')} ${this.#safe(message)}\n`);
    if (hint) this.#stderr(`${chalk.dim('hint:')} ${this.#safe(hint)}\n`);
  }

  /** Rewrites the single progress line on a terminal (callers check stderrIsTTY); never wider than it. */
  progress(text: string): void {
    const width = usableWidth((this.streams.stderr as { columns?: number }).columns);
    // A line that wrapped could not be cleared by \r: keep it one column short of the edge.
    this.streams.stderr.write(`\r\u001b[2K${truncateToWidth(cellText(text), Math.max(1, width - 1))}`);
  }

  clearProgress(): void {
    this.streams.stderr.write('\r\u001b[2K');
  }

  out(text: string): void {
    this.streams.stdout.write(text);
  }

  err(text: string): void {
    this.streams.stderr.write(this.streams.stderrIsTTY ? terminalSafe(text) : text);
  }

  /** Server text inside our own messages is made inert first; our colour codes around it stay. */
  #safe(text: string): string {
    return this.streams.stderrIsTTY ? terminalSafe(text) : text;
  }

  #stderr(text: string): void {
    this.streams.stderr.write(text);
  }

  /**
   * A borderless table like gh's: an upper-case header, two spaces between columns, and cells cut
   * with '…' so that a row never wraps past the terminal width. We choose the widths and cut the text
   * (cli-table3's own truncation lets a cut cell run into the next column); cli-table3 lays it out.
   */
  private async table<T>(items: readonly T[], columns: readonly Column<T>[]): Promise<string> {
    const { default: Table } = await import('cli-table3');
    const chalk = this.chalk();
    const headers = columns.map((c) => c.header.toUpperCase());
    const cells = items.map((item) => columns.map((c) => cellText(c.value(item))));
    const widths = fitWidths(
      columns.map((_, i) => ({
        header: displayWidth(headers[i] ?? ''),
        content: Math.max(0, ...cells.map((row) => displayWidth(row[i] ?? ''))),
        min: columns[i]?.minWidth ?? (columns[i]?.header === 'name' ? NAME_MIN : undefined),
      })),
      usableWidth(this.streams.columns),
    );
    const last = widths.length - 1;
    const table = new Table({
      head: headers.map((text, i) => chalk.bold(truncateToWidth(text, widths[i] ?? 0))),
      // The gap between columns is part of each column's width, so cells fit and are never cut again.
      colWidths: widths.map((w, i) => (i === last ? w : w + GAP.length)),
      chars: BORDERLESS,
      // No colour of cli-table3's own: colour is ours, and only on a terminal.
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
    });
    items.forEach((item, row) => {
      table.push(
        columns.map((column, i) => {
          const text = truncateToWidth(cells[row]?.[i] ?? '', widths[i] ?? 0);
          const style = text && column.style?.(column.value(item), chalk);
          return style ? style(text) : text;
        }),
      );
    });
    return table
      .toString()
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n');
  }
}

const BORDERLESS = Object.fromEntries(
  [
    'top',
    'top-mid',
    'top-left',
    'top-right',
    'bottom',
    'bottom-mid',
    'bottom-left',
    'bottom-right',
    'left',
    'left-mid',
    'mid',
    'mid-mid',
    'right',
    'right-mid',
    'middle',
  ].map((name) => [name, '']),
);

const GAP = '  ';

/** Some pseudo-terminals report a width of 0: then assume the classic 80 columns. */
function usableWidth(columns: number | undefined): number {
  return columns !== undefined && columns > 0 ? columns : 80;
}

/** How wide a column's header and its widest cell are, in terminal columns. */
export interface ColumnWidth {
  header: number;
  content: number;
  /** Kept until every other column is down to a few characters. */
  min?: number | undefined;
}

/**
 * Column widths that fit the terminal. Shrinks, in this order and always the widest first (the
 * rightmost of equals, since detail columns come last): long cells down to 20 columns; then headers
 * wider than their cells ("LINKEDIN SLOTS" above "0") down to 8 columns; then every column down to
 * 6, except those with a minimum (names, 16); then anything, down to one column. Cut text ends in '…'.
 */
export function fitWidths(columns: readonly ColumnWidth[], terminalWidth: number): number[] {
  const widths = columns.map((c) => Math.max(c.header, c.content, 1));
  const available = terminalWidth - GAP.length * Math.max(0, columns.length - 1);
  const shrink = (floor: (i: number) => number) => {
    let total = widths.reduce((a, b) => a + b, 0);
    while (total > available) {
      let widest = -1;
      for (let i = 0; i < widths.length; i++) {
        const w = widths[i] ?? 0;
        if (w > floor(i) && (widest < 0 || w >= (widths[widest] ?? 0))) widest = i;
      }
      if (widest < 0) return;
      widths[widest] = (widths[widest] ?? 0) - 1;
      total--;
    }
  };
  shrink(() => LONG_CELL);
  shrink((i) => {
    const c = columns[i];
    return c && c.header > c.content
      ? Math.max(c.content, Math.min(c.header, HEADER_FLOOR))
      : (widths[i] ?? 0);
  });
  shrink((i) => columns[i]?.min ?? SHORT_CELL);
  shrink(() => 1);
  return widths;
}

const LONG_CELL = 20;
/** Headers this short stay whole; longer ones keep this much ("LINKEDI…"). */
const HEADER_FLOOR = 8;
const SHORT_CELL = 6;
const NAME_MIN = 16;

/** Nested objects become dotted keys: {agency: {name}} → agency.name. */
export function flatten(value: Record<string, unknown>, prefix = ''): [string, unknown][] {
  const rows: [string, unknown][] = [];
  for (const [key, v] of Object.entries(value)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof v === 'object' && v !== null && !Array.isArray(v))
      rows.push(...flatten(v as Record<string, unknown>, name));
    else rows.push([name, v]);
  }
  return rows;
}
