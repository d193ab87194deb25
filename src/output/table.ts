/**
 * A list as a terminal table, like gh's: an upper-case header, two spaces between columns, every row on
 * one line. Which columns show and how wide is layout.ts's choice; this file measures the cells, cuts
 * what must be cut (ending in '…'), colours, and lets cli-table3 lay the rows out.
 */
import type { ChalkInstance } from 'chalk';
import { type CellKind, type ColumnSpec, defaultKind, fitTable, GAP } from './layout.js';
import { cellText, displayWidth, padToWidth, truncateToWidth } from './text.js';

/** What a table needs to know of a column (the writer's Column<T> is one). */
export interface TableColumn<T> {
  header: string;
  value: (item: T) => unknown;
  /** Colour for a terminal cell, given the raw value. */
  style?: ((value: unknown, chalk: ChalkInstance) => ((text: string) => string) | undefined) | undefined;
  /** How the column may give way when the terminal is narrow; guessed from the header when absent. */
  kind?: CellKind | undefined;
  /** 0 = never hidden; higher numbers are hidden first. Default: by kind (ids, names, addresses 0). */
  priority?: number | undefined;
}

const DEFAULT_PRIORITY: Record<CellKind, number> = {
  id: 0,
  name: 0,
  email: 0,
  problem: 0,
  text: 2,
  count: 3,
};

export interface RenderedTable {
  text: string;
  /** Headers (lower case) of the columns that did not fit. */
  hidden: string[];
}

export async function renderTable<T>(
  items: readonly T[],
  columns: readonly TableColumn<T>[],
  width: number,
  chalk: ChalkInstance,
): Promise<RenderedTable> {
  const { default: Table } = await import('cli-table3');
  const headers = columns.map((c) => c.header.toUpperCase());
  const cells = items.map((item) => columns.map((c) => cellText(c.value(item))));
  const layout = fitTable(specsOf(columns, headers, cells), width);
  const shown = layout.shown;
  const last = shown.length - 1;
  const table = new Table({
    head: shown.map(({ index, width: w }) => chalk.bold(truncateToWidth(headers[index] ?? '', w))),
    // The gap between columns is part of each column's width, so cells fit and are never cut again.
    colWidths: shown.map(({ width: w }, i) => (i === last ? w : w + GAP)),
    chars: BORDERLESS,
    // No colour of cli-table3's own: colour is ours, and only on a terminal.
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
  items.forEach((item, row) => {
    table.push(
      shown.map(({ index, width: w }) => {
        const column = columns[index];
        const text = truncateToWidth(cells[row]?.[index] ?? '', w);
        const style = text && column?.style?.(column.value(item), chalk);
        return style ? style(text) : text;
      }),
    );
  });
  return {
    text: table
      .toString()
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n'),
    hidden: layout.hidden.map((h) => h.toLowerCase()),
  };
}

function specsOf<T>(
  columns: readonly TableColumn<T>[],
  headers: readonly string[],
  cells: readonly (readonly string[])[],
): ColumnSpec[] {
  return columns.map((column, i) => {
    const kind = column.kind ?? defaultKind(column.header);
    return {
      header: headers[i] ?? '',
      kind,
      priority: column.priority ?? DEFAULT_PRIORITY[kind],
      content: Math.max(0, ...cells.map((row) => displayWidth(row[i] ?? ''))),
    };
  });
}

/** A table printed a row at a time: its header line, one line per item, the columns it hid. */
export interface FixedTable<T> {
  header: string;
  row(item: T): string;
  hidden: string[];
}

/**
 * A table whose layout is chosen before its rows arrive (a fleet read printing each row as it is
 * done): the widths come from `sample`, rows like the ones to come (the companies' ids and names are
 * known; the rest is a typical value); a later cell wider than its column is cut with '…'.
 */
export function fixedTable<T>(
  sample: readonly T[],
  columns: readonly TableColumn<T>[],
  width: number,
  chalk: ChalkInstance,
): FixedTable<T> {
  const headers = columns.map((c) => c.header.toUpperCase());
  const cells = sample.map((item) => columns.map((c) => cellText(c.value(item))));
  const { shown, hidden } = fitTable(specsOf(columns, headers, cells), width);
  const line = (texts: readonly string[]) =>
    texts
      .map((text, i) =>
        i === texts.length - 1 ? text : `${padToWidth(text, shown[i]?.width ?? 0)}${' '.repeat(GAP)}`,
      )
      .join('')
      .trimEnd();
  return {
    header: line(shown.map(({ index, width: w }) => truncateToWidth(headers[index] ?? '', w))).replace(
      /\S.*/,
      (text) => chalk.bold(text),
    ),
    row: (item) =>
      line(
        shown.map(({ index, width: w }) => {
          const column = columns[index];
          const text = truncateToWidth(cellText(column?.value(item)), w);
          const style = text && column?.style?.(column.value(item), chalk);
          // Padding is measured on the text itself: colour codes take no columns.
          return style ? style(text) + ' '.repeat(Math.max(0, w - displayWidth(text))) : text;
        }),
      ),
    hidden: hidden.map((h) => h.toLowerCase()),
  };
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
