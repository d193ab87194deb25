/**
 * A list as a terminal table, like gh's: an upper-case header, two spaces between columns. Which
 * columns show and how wide is layout.ts's choice, fitted to the wrapped lines by table-widths.ts; this
 * file wraps a cell wider than its column onto more lines of that column (never cutting it), colours,
 * and lays the rows out.
 * (cli-table3 laid them out until it measured at 37-61 ms for a table of 120 rows, more than Node's
 * own start-up, for padding cells this file had already measured and wrapped.)
 */
import type { ChalkInstance } from 'chalk';
import { columnKey } from './csv.js';
import {
  type CellKind,
  type ColumnSpec,
  defaultKind,
  type FitOptions,
  fitTable,
  GAP,
  type TableLayout,
} from './layout.js';
import { fitWrappedLines, type MeasuredColumn, measureCells } from './table-widths.js';
import { cellText, displayWidth, groupDigits, wrapToWidth } from './text.js';

/** What a table needs to know of a column (the writer's Column<T> is one). */
export interface TableColumn<T> {
  header: string;
  /** The name --columns takes (csv.ts's columnKey); the note of hidden columns says it. */
  name?: string | undefined;
  value: (item: T) => unknown;
  /**
   * How a screen table says the value, where not as it is ("3%", "default (2%)"); TSV, CSV and --json
   * keep the value itself. A count column's default groups the thousands (tableCell).
   */
  shown?: ((value: unknown, item: T) => string) | undefined;
  /** Colour for a terminal cell, given the raw value. */
  style?: ((value: unknown, chalk: ChalkInstance) => ((text: string) => string) | undefined) | undefined;
  /** How the column may give way when the terminal is narrow; guessed from the header when absent. */
  kind?: CellKind | undefined;
  /** 0 = never hidden; higher numbers are hidden first. Default: by kind (ids, names, addresses 0). */
  priority?: number | undefined;
  /**
   * Cells a row may show that typical rows do not (a part that could not be read: `error 503`). A table
   * laid out from typical rows before the real ones (fixedTable) keeps room for their longest word, so
   * that such a cell wraps between its words rather than inside one (`erro` / `r`).
   */
  mayShow?: readonly string[] | undefined;
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
  /**
   * The columns that did not fit, by the names --columns takes (`open_rate`, not its header `open %`),
   * so that the note under the table can be copied into --columns.
   */
  hidden: string[];
  /** Those of them that are error columns empty in every row. */
  empty: string[];
}

/** The hidden columns of a layout (named by their headers as printed) by the names --columns takes. */
function namesOf<T>(
  columns: readonly TableColumn<T>[],
  headers: readonly string[],
): (header: string) => string {
  return (header) => {
    const column = columns[headers.indexOf(header)];
    return column ? columnKey(column) : header.toLowerCase();
  };
}

/**
 * Where a table is printed: the terminal's width, stdout's colours, and (FitOptions) whether --columns
 * named the columns.
 */
export interface TableTerminal extends FitOptions {
  width: number;
  chalk: ChalkInstance;
}

/**
 * A cell's text in a table, read by a person: the column's own `shown`, else a whole number in a count column has its thousands
 * grouped (1,234,567), in every table; an id (a count column named as one: `campaign id`) never is.
 * TSV, CSV and --json print the number itself (csv.ts).
 */
function tableCell<T>(column: TableColumn<T> | undefined, item: T): string {
  const value = column?.value(item);
  if (column?.shown) return column.shown(value, item);
  const count = column !== undefined && (column.kind ?? defaultKind(column.header)) === 'count';
  if (
    count &&
    typeof value === 'number' &&
    Number.isSafeInteger(value) &&
    defaultKind(column.header) !== 'id'
  )
    return groupDigits(value);
  return cellText(value);
}

/** The headers, the rows' cell texts, and which columns fit the terminal how wide, measured on them. */
function layoutFor<T>(
  rows: readonly T[],
  columns: readonly TableColumn<T>[],
  terminal: TableTerminal,
  typical = false,
): {
  headers: string[];
  cells: string[][];
  measured: MeasuredColumn[];
  specs: ColumnSpec[];
  layout: TableLayout;
} {
  const headers = columns.map((c) => c.header.toUpperCase());
  const cells = rows.map((item) => columns.map((c) => tableCell(c, item)));
  const measured = measureCells(columns.length, cells);
  const specs = specsOf(columns, headers, measured, typical);
  return { headers, cells, measured, specs, layout: fitTable(specs, terminal.width, terminal) };
}

export function renderTable<T>(
  items: readonly T[],
  columns: readonly TableColumn<T>[],
  terminal: TableTerminal,
): RenderedTable {
  const { headers, cells, measured, specs, layout: fitted } = layoutFor(items, columns, terminal);
  // The rows are all here: the widths fit their wrapped lines (table-widths.ts).
  const layout = fitWrappedLines(specs, fitted, { headers, cells, measured }, terminal);
  const { chalk } = terminal;
  const { shown } = layout;
  const widths = shown.map((c) => c.width);
  const lines = [
    // A header wraps between its words only when --columns asked for more than fits (layout.ts).
    tableRow(
      widths,
      shown.map(({ index, width: w }) => headerLines(headers[index] ?? '', w, chalk)),
    ),
    ...items.map((item, row) =>
      tableRow(
        widths,
        shown.map(({ index, width: w }) =>
          cellLines(columns[index], item, cells[row]?.[index] ?? '', w, chalk),
        ),
      ),
    ),
  ];
  return {
    // No column fits at all: nothing to print but the note of what was hidden.
    text: shown.length === 0 ? '' : lines.join('\n'),
    hidden: layout.hidden.map(namesOf(columns, headers)),
    empty: layout.empty.map(namesOf(columns, headers)),
  };
}

/** The lines of a cell (plain, to measure) and what to print of them (coloured). */
interface CellLines {
  plain: string[];
  printed: string[];
}

/**
 * A row of wrapped cells, as many lines as its tallest cell: each column padded to its width and the
 * gap (the last one not padded), trailing spaces dropped.
 */
function tableRow(widths: readonly number[], cells: readonly CellLines[]): string {
  const height = Math.max(1, ...cells.map((c) => c.plain.length));
  return Array.from({ length: height }, (_, k) =>
    cells
      .map(({ plain, printed }, i) =>
        i === cells.length - 1
          ? (printed[k] ?? '')
          : (printed[k] ?? '') +
            ' '.repeat(Math.max(0, (widths[i] ?? 0) - displayWidth(plain[k] ?? '')) + GAP),
      )
      .join('')
      .trimEnd(),
  ).join('\n');
}

function headerLines(header: string, width: number, chalk: ChalkInstance): CellLines {
  const plain = wrapToWidth(header, width);
  return { plain, printed: plain.map((text) => chalk.bold(text)) };
}

/** A cell wrapped to its column's width: its lines as text (to measure) and as printed (coloured). */
function cellLines<T>(
  column: TableColumn<T> | undefined,
  item: T,
  text: string,
  width: number,
  chalk: ChalkInstance,
): CellLines {
  const plain = wrapToWidth(text, width);
  const style = text ? column?.style?.(column.value(item), chalk) : undefined;
  return { plain, printed: style ? plain.map((line) => style(line)) : plain };
}

/** `typical`: the rows are typical ones, so a column is as wide as the longest word it may show too. */
function specsOf<T>(
  columns: readonly TableColumn<T>[],
  headers: readonly string[],
  measured: readonly MeasuredColumn[],
  typical: boolean,
): ColumnSpec[] {
  return columns.map((column, i) => {
    const kind = column.kind ?? defaultKind(column.header);
    const words = typical ? (column.mayShow ?? []).flatMap((text) => text.split(/\s+/)) : [];
    return {
      header: headers[i] ?? '',
      kind,
      priority: column.priority ?? DEFAULT_PRIORITY[kind],
      content: Math.max(
        0,
        ...[...(measured[i]?.values() ?? [])].map((m) => m.width),
        ...words.map(displayWidth),
      ),
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
  } = layoutFor(sample, columns, terminal, true);
  // The last column takes the rest of the line: its real cells may be longer than the sample's, and
  // nothing to its right needs aligning.
  const before = fitted.slice(0, -1).reduce((sum, c) => sum + c.width + GAP, 0);
  const shown = fitted.map((c, i) =>
    i === fitted.length - 1 ? { ...c, width: Math.max(c.width, width - before) } : c,
  );
  const widths = shown.map((c) => c.width);
  return {
    header: tableRow(
      widths,
      shown.map(({ index, width: w }) => headerLines(headers[index] ?? '', w, chalk)),
    ),
    row: (item) =>
      tableRow(
        widths,
        shown.map(({ index, width: w }) =>
          cellLines(columns[index], item, tableCell(columns[index], item), w, chalk),
        ),
      ),
    hidden: hidden.map(namesOf(columns, headers)),
    empty: [],
  };
}
