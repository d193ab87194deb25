/**
 * A list as a terminal table, like gh's: an upper-case header, two spaces between columns. Which
 * columns show and how wide is layout.ts's choice; this file measures the cells, wraps a cell wider
 * than its column onto more lines of that column (never cutting it), colours, and lets cli-table3 lay
 * the rows out.
 */
import type { ChalkInstance } from 'chalk';
import { type CellKind, type ColumnSpec, defaultKind, type FitOptions, fitTable, GAP } from './layout.js';
import { cellText, displayWidth, wrapToWidth } from './text.js';

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
  list: 4,
  count: 3,
};

export interface RenderedTable {
  text: string;
  /** Headers (lower case) of the columns that did not fit. */
  hidden: string[];
  /** Those of them that are error columns empty in every row. */
  empty: string[];
}

/**
 * Where a table is printed: the terminal's width, stdout's colours, and (FitOptions) whether --columns
 * named the columns.
 */
export interface TableTerminal extends FitOptions {
  width: number;
  chalk: ChalkInstance;
}

/** The headers, the rows' cell texts, and which columns fit the terminal how wide, measured on them. */
function layoutFor<T>(
  rows: readonly T[],
  columns: readonly TableColumn<T>[],
  terminal: TableTerminal,
): { headers: string[]; cells: string[][]; layout: ReturnType<typeof fitTable> } {
  const headers = columns.map((c) => c.header.toUpperCase());
  const cells = rows.map((item) => columns.map((c) => cellText(c.value(item))));
  return { headers, cells, layout: fitTable(specsOf(columns, headers, cells), terminal.width, terminal) };
}

export async function renderTable<T>(
  items: readonly T[],
  columns: readonly TableColumn<T>[],
  terminal: TableTerminal,
): Promise<RenderedTable> {
  const { default: Table } = await import('cli-table3');
  const { headers, cells, layout } = layoutFor(items, columns, terminal);
  const { chalk } = terminal;
  const shown = layout.shown;
  const last = shown.length - 1;
  const table = new Table({
    // A header wraps between its words only when --columns asked for more than fits (layout.ts).
    head: shown.map(({ index, width: w }) =>
      wrapToWidth(headers[index] ?? '', w)
        .map((line) => chalk.bold(line))
        .join('\n'),
    ),
    // The gap between columns is part of each column's width, so cells fit and are never cut again.
    colWidths: shown.map(({ width: w }, i) => (i === last ? w : w + GAP)),
    chars: BORDERLESS,
    // No colour of cli-table3's own: colour is ours, and only on a terminal.
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
  items.forEach((item, row) => {
    table.push(
      shown.map(({ index, width: w }) =>
        cellLines(columns[index], item, cells[row]?.[index] ?? '', w, chalk).printed.join('\n'),
      ),
    );
  });
  return {
    text: table
      .toString()
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n'),
    hidden: layout.hidden.map((h) => h.toLowerCase()),
    empty: layout.empty.map((h) => h.toLowerCase()),
  };
}

/** A cell wrapped to its column's width: its lines as text (to measure) and as printed (coloured). */
function cellLines<T>(
  column: TableColumn<T> | undefined,
  item: T,
  text: string,
  width: number,
  chalk: ChalkInstance,
): { plain: string[]; printed: string[] } {
  const plain = wrapToWidth(text, width);
  const style = text ? column?.style?.(column.value(item), chalk) : undefined;
  return { plain, printed: style ? plain.map((line) => style(line)) : plain };
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

/**
 * A table printed a row at a time: its header line, one line per item, the columns it hid (none of
 * them empty for sure: the rows are not in yet).
 */
export interface FixedTable<T> {
  header: string;
  row(item: T): string;
  hidden: string[];
  empty: string[];
}

/**
 * A table whose layout is chosen before its rows arrive (a fleet read printing each row as it is
 * done): the widths come from `sample`, rows like the ones to come (the companies' ids and names are
 * known; the rest is a typical value); a later cell wider than its column wraps within it, and the
 * last column reaches the edge of the terminal.
 */
export function fixedTable<T>(
  sample: readonly T[],
  columns: readonly TableColumn<T>[],
  terminal: TableTerminal,
): FixedTable<T> {
  const { width, chalk } = terminal;
  const {
    headers,
    layout: { shown: fitted, hidden },
  } = layoutFor(sample, columns, terminal);
  // The last column takes the rest of the line: its real cells may be longer than the sample's, and
  // nothing to its right needs aligning.
  const before = fitted.slice(0, -1).reduce((sum, c) => sum + c.width + GAP, 0);
  const shown = fitted.map((c, i) =>
    i === fitted.length - 1 ? { ...c, width: Math.max(c.width, width - before) } : c,
  );
  /** One line of the table from each column's text (plain, to measure) and what to print (coloured). */
  const line = (parts: readonly { plain: string; printed: string }[]) =>
    parts
      .map(({ plain, printed }, i) =>
        i === parts.length - 1
          ? printed
          : printed + ' '.repeat(Math.max(0, (shown[i]?.width ?? 0) - displayWidth(plain)) + GAP),
      )
      .join('')
      .trimEnd();
  /** A row of wrapped cells, as many lines as its tallest cell. */
  const block = (cells: readonly { plain: string[]; printed: string[] }[]) => {
    const height = Math.max(1, ...cells.map((c) => c.plain.length));
    return Array.from({ length: height }, (_, k) =>
      line(cells.map((c) => ({ plain: c.plain[k] ?? '', printed: c.printed[k] ?? '' }))),
    ).join('\n');
  };
  return {
    header: block(
      shown.map(({ index, width: w }) => {
        const plain = wrapToWidth(headers[index] ?? '', w);
        return { plain, printed: plain.map((text) => chalk.bold(text)) };
      }),
    ),
    row: (item) =>
      block(
        shown.map(({ index, width: w }) =>
          cellLines(columns[index], item, cellText(columns[index]?.value(item)), w, chalk),
        ),
      ),
    hidden: hidden.map((h) => h.toLowerCase()),
    empty: [],
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
