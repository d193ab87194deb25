/**
 * The whole output policy in one place: JSON with --json, a table on a terminal, TSV when piped.
 * Results go to stdout, everything else to stderr. Commands return data; they never print.
 */
import type { Writable } from 'node:stream';
import { Chalk, type ChalkInstance } from 'chalk';
import { cellText, terminalSafe } from './text.js';

export interface Column<T> {
  header: string;
  value: (item: T) => unknown;
  /** Colour for a terminal cell, given the raw value. */
  style?: (value: unknown, chalk: ChalkInstance) => ((text: string) => string) | undefined;
}

export interface Streams {
  stdout: Writable;
  stderr: Writable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Terminal width, when stdout is a terminal. */
  columns: number | undefined;
}

export interface WriterOptions {
  json: boolean;
  /** Colour for stdout / stderr; decided once in context.ts. */
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

  /** A list result: JSON array of the items as the API returned them, a table, or TSV rows. */
  async list<T>(items: readonly T[], columns: readonly Column<T>[], empty?: string): Promise<void> {
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
  }

  /** A single result object: JSON, or "field value" lines (tab-separated when piped). */
  record(value: Record<string, unknown>): void {
    if (this.options.json) return this.jsonValue(value);
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
    this.out(`${JSON.stringify(value, null, 2)}\n`);
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
    this.err(`${this.stderrChalk().green('✓')} ${message}\n`);
  }

  warn(message: string): void {
    this.err(`${this.stderrChalk().yellow('warning:')} ${message}\n`);
  }

  error(message: string, hint?: string): void {
    const chalk = this.stderrChalk();
    this.err(`${chalk.red('error:')} ${message}\n`);
    if (hint) this.err(`${chalk.dim('hint:')} ${hint}\n`);
  }

  /** Rewrites the single progress line on a terminal (callers check stderrIsTTY). */
  progress(text: string): void {
    this.streams.stderr.write(`\r\u001b[2K${terminalSafe(text)}`);
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

  /** A borderless table (like gh's) that fits the terminal width; cli-table3 is loaded only here. */
  private async table<T>(items: readonly T[], columns: readonly Column<T>[]): Promise<string> {
    const { default: Table } = await import('cli-table3');
    const chalk = this.chalk();
    const cells = items.map((item) => columns.map((c) => cellText(c.value(item))));
    const widths = fitWidths(
      columns.map((c, i) => Math.max(c.header.length, ...cells.map((row) => (row[i] ?? '').length))),
      this.streams.columns ?? 120,
    );
    const table = new Table({
      head: columns.map((c) => chalk.bold(c.header.toUpperCase())),
      colWidths: widths.map((w, i) => (i === widths.length - 1 ? w : w + 2)),
      chars: BORDERLESS,
      // No colour codes from cli-table3 itself: colour is ours, and only on a terminal.
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
    });
    items.forEach((item, row) => {
      table.push(
        columns.map((c, i) => {
          const text = cells[row]?.[i] ?? '';
          const style = c.style?.(c.value(item), chalk);
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

const BORDERLESS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '',
};

/** Shrinks the widest columns until the row fits the terminal (2 spaces between columns). */
export function fitWidths(natural: readonly number[], terminalWidth: number): number[] {
  const widths = [...natural];
  const gaps = 2 * Math.max(0, widths.length - 1);
  const minimum = 6;
  while (widths.reduce((a, b) => a + b, 0) + gaps > terminalWidth) {
    let widest = 0;
    for (let i = 1; i < widths.length; i++) if ((widths[i] ?? 0) > (widths[widest] ?? 0)) widest = i;
    if ((widths[widest] ?? 0) <= minimum) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
  }
  return widths;
}

/** Nested objects become dotted keys: {agency: {name}} → agency.name. */
export function flatten(value: Record<string, unknown>, prefix = ''): [string, unknown][] {
  const rows: [string, unknown][] = [];
  for (const [key, v] of Object.entries(value)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) rows.push(...flatten(v as Record<string, unknown>, name));
    else rows.push([name, v]);
  }
  return rows;
}
