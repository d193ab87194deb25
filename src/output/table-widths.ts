/**
 * The widths of a table printed whole, fitted to its cells once they wrap: layout.ts sizes a column by
 * its widest cell, but wrapped, its lines may all be narrower, and a column may need the width another
 * can spare more than it does. Measured once per distinct cell text and width.
 */
import {
  type ColumnSpec,
  type FitOptions,
  GAP,
  givingFloor,
  hiddenBefore,
  natural,
  type TableLayout,
} from './layout.js';
import { breaksInWords, displayWidth, wrapToWidth } from './text.js';

/** The rows' cell texts, by row then column, with their headers and measures. */
interface TableCells {
  headers: readonly string[];
  cells: readonly (readonly string[])[];
  measured: readonly MeasuredColumn[];
}

/**
 * The layout with each wrapped column as wide as its widest line (reclaimWrapSlack), and width given
 * to a column that wraps while that makes the table shorter (tradeWidth), then what a trade left
 * unused given back again.
 */
export function fitWrappedLines(
  columns: readonly ColumnSpec[],
  fitted: TableLayout,
  table: TableCells,
  terminal: FitOptions & { width: number },
): TableLayout {
  const wrapped = wrappedColumns(table.headers, table.measured);
  const reclaimed = reclaimWrapSlack(columns, fitted, wrapped);
  const traded = tradeWidth(columns, reclaimed, wrapped, table, terminal);
  return reclaimWrapSlack(columns, traded, wrapped);
}

/** A column's header and cells wrapped to a width: its widest line, its lines in all, and each one's. */
interface Wrapped {
  widest: number;
  lines: number;
  /** The header's lines. */
  header: number;
  /** Each distinct cell text's lines. */
  byText: Map<string, number>;
  /** Breaks inside a word in all its cells, and those of them at the width (breaksInWords). */
  inWords: number;
  cut: number;
  /** The rows whose cell takes more than one line. */
  wrappedRows: number;
}

/**
 * fitTable sizes a column by its widest cell, but wrapped, its lines may all be narrower: a list breaks
 * after its commas, a URL after a slash (TARGET URL given 39, its lines 30 at most, while REASON wraps).
 * Each wrapped column is narrowed to its widest line; what that frees goes to the most important column
 * that it makes wrap onto fewer lines, which is then narrowed to its widest line in turn. Only for a
 * table whose rows are all known (a streamed one is laid out from typical rows).
 */
function reclaimWrapSlack(
  columns: readonly ColumnSpec[],
  layout: TableLayout,
  wrapped: (index: number, width: number) => Wrapped,
): TableLayout {
  const shown = layout.shown.map((c) => ({ ...c }));
  const full = (c: { index: number }) => natural(columns[c.index] as ColumnSpec);
  let spare = 0;
  const narrowToLines = (c: { index: number; width: number }) => {
    const used = Math.min(c.width, wrapped(c.index, c.width).widest);
    [spare, c.width] = [spare + c.width - used, used];
  };
  for (const c of shown) if (full(c) > c.width) narrowToLines(c);
  const byImportance = [...shown].sort((a, b) => (hiddenBefore(columns, a.index, b.index) ? 1 : -1));
  // A few rounds: what one column leaves of the spare may still shorten another.
  for (let round = 0, taken = true; round < 3 && taken && spare > 0; round++) {
    taken = false;
    for (const c of byImportance) {
      const wider = Math.min(full(c), c.width + spare);
      if (wider === c.width || wrapped(c.index, wider).lines >= wrapped(c.index, c.width).lines) continue;
      [spare, c.width, taken] = [spare - (wider - c.width), wider, true];
      narrowToLines(c);
    }
  }
  return { ...layout, shown };
}

/** The most moves tradeWidth makes: each one a column's width given to another. */
const MAX_TRADES = 4;

/**
 * Width given by one column to another that wraps, a move at a time, while a move makes the table
 * shorter. reclaimWrapSlack gives a column only what another leaves unused; but an owner on two lines
 * in every row is worth a name wrapped in a few rows more (`companies list --columns all` at 80
 * columns: NAME 27 wide for its longest names while every OWNER took two lines; 43 lines, now 30).
 * A move must save two lines for each row it newly wraps in the giving column, and a column gives
 * only where its cells then break between words: never inside one more often (`PROSPECT_` /
 * `NOT_INTERESTED`) nor at the width (an address cut mid-word). It gives down to its givingFloor: a
 * name keeps lines of WRAP_READABLE; an id, a count and an identifier give nothing, nor does a
 * description unless --columns named the columns. A column takes a width that holds one more of its
 * cells whole, from what the line has left first. Only for a table whose rows are all known.
 */
function tradeWidth(
  columns: readonly ColumnSpec[],
  layout: TableLayout,
  wrapped: (index: number, width: number) => Wrapped,
  { cells, measured }: TableCells,
  terminal: FitOptions & { width: number },
): TableLayout {
  const shown = layout.shown.map((c) => ({ ...c }));
  const tight = Boolean(terminal.hideNone);
  const wraps = (c: { index: number; width: number }) => natural(columns[c.index] as ColumnSpec) > c.width;
  let height = tableHeight(shown, wrapped, cells);
  for (let move = 0; move < MAX_TRADES; move++) {
    const current = height;
    let best:
      | { to: (typeof shown)[number]; from: (typeof shown)[number]; by: number; given: number }
      | undefined;
    // What the line has left, which no column could use alone (reclaimWrapSlack), is taken first.
    // (None when even the floors overflow it: the terminal wraps the row.)
    const free = Math.max(0, terminal.width - shown.reduce((sum, c) => sum + c.width + GAP, -GAP));
    for (const to of shown.filter(wraps)) {
      const wholeAt = [...new Set([...(measured[to.index]?.values() ?? [])].map((m) => m.width))]
        .filter((w) => w > to.width)
        .sort((a, b) => a - b);
      for (const from of shown.filter((c) => c !== to)) {
        const spare = from.width - givingFloor(columns[from.index] as ColumnSpec, from.width, tight);
        const before = wrapped(from.index, from.width);
        for (const w of wholeAt) {
          const by = w - to.width;
          const given = Math.max(0, by - free);
          if (given > Math.max(0, spare)) break;
          const after = wrapped(from.index, from.width - given);
          if (after.inWords > before.inWords || after.cut > before.cut) continue;
          [to.width, from.width] = [to.width + by, from.width - given];
          const traded = tableHeight(shown, wrapped, cells);
          [to.width, from.width] = [to.width - by, from.width + given];
          // Each row the giver newly wraps must buy two lines: a name broken costs a reader more
          // than a line (`health` at 100 columns: 16 more names broken for 23 lines of 472).
          const newlyWrapped = after.wrappedRows - before.wrappedRows;
          if (traded < height && current - traded >= 2 * newlyWrapped)
            [height, best] = [traded, { to, from, by, given }];
        }
      }
    }
    if (!best) break;
    best.to.width += best.by;
    best.from.width -= best.given;
  }
  return { ...layout, shown };
}

/** The lines a table takes with its columns at these widths: the header's, then each row's tallest cell's. */
function tableHeight(
  shown: readonly { index: number; width: number }[],
  wrapped: (index: number, width: number) => Wrapped,
  cells: readonly (readonly string[])[],
): number {
  const columns = shown.map((c) => ({ index: c.index, wrapped: wrapped(c.index, c.width) }));
  let height = Math.max(1, ...columns.map((c) => c.wrapped.header));
  for (const row of cells) {
    let tallest = 1;
    for (const { index, wrapped: w } of columns)
      tallest = Math.max(tallest, w.byText.get(row[index] ?? '') ?? 1);
    height += tallest;
  }
  return height;
}

/** Each column's distinct cell texts: how wide each is on a terminal, and how many rows hold it. */
export type MeasuredColumn = Map<string, { width: number; count: number }>;

export function measureCells(count: number, cells: readonly (readonly string[])[]): MeasuredColumn[] {
  return Array.from({ length: count }, (_, i) => {
    const measured: MeasuredColumn = new Map();
    for (const row of cells) {
      const text = row[i] ?? '';
      const seen = measured.get(text);
      if (seen) seen.count += 1;
      else measured.set(text, { width: displayWidth(text), count: 1 });
    }
    return measured;
  });
}

/**
 * A column's header and cells wrapped to a width (Wrapped): each distinct text wrapped only when it is
 * wider than the width; each answer kept, as the layout asks again.
 */
function wrappedColumns(headers: readonly string[], measured: readonly MeasuredColumn[]) {
  const known = new Map<string, Wrapped>();
  return (index: number, width: number): Wrapped => {
    const key = `${index}:${width}`;
    let answer = known.get(key);
    if (answer) return answer;
    const header = headers[index] ?? '';
    const column: Wrapped = {
      widest: 0,
      lines: 0,
      header: 0,
      byText: new Map(),
      inWords: 0,
      cut: 0,
      wrappedRows: 0,
    };
    const wrap = (text: string, whole: number, count: number) => {
      if (whole <= width) {
        column.widest = Math.max(column.widest, whole);
        return 1;
      }
      const lines = wrapToWidth(text, width);
      column.widest = Math.max(column.widest, ...lines.map(displayWidth));
      const breaks = breaksInWords(text, lines);
      column.inWords += breaks.inWords * count;
      column.cut += breaks.cut * count;
      return lines.length;
    };
    column.header = wrap(header, displayWidth(header), 1);
    column.lines = column.header;
    for (const [text, { width: whole, count }] of measured[index] ?? []) {
      const lines = wrap(text, whole, count);
      column.byText.set(text, lines);
      if (lines > 1) column.wrappedRows += count;
      column.lines += lines * count;
    }
    answer = column;
    known.set(key, answer);
    return answer;
  };
}
