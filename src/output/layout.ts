/**
 * Fitting a table to the terminal's width, the way a reader would choose: the columns a reader came
 * for (the id, the name or address, and what went wrong) keep their space; when there is not enough,
 * whole low-priority columns (counters, descriptive text) are hidden (and the caller says so on
 * stderr) before anything essential is cut; an id is never cut. Pure: widths in, a layout out.
 */

/**
 * What a column holds, which decides how it may give way:
 * - id: never cut, never hidden;
 * - name, email: kept whole while another column can be hidden; cut only as a last resort;
 * - problem: an error or what is wrong with the row: essential like a name (hidden only when no row
 *   has one), and cut after the descriptive text;
 * - text: may be cut to a few characters (an owner, a type, a list of events);
 * - count: a number under a long header: shown whole, or hidden as a whole.
 */
export type CellKind = 'id' | 'name' | 'email' | 'problem' | 'text' | 'count';

/** The kinds a reader came for: cut only once every other shown column is at its floor. */
function essential(kind: CellKind): boolean {
  return kind === 'name' || kind === 'email' || kind === 'problem';
}

export interface ColumnSpec {
  /** The header as printed (upper case), used for its width and to name a hidden column. */
  header: string;
  kind: CellKind;
  /**
   * Lower numbers matter more. Priority 0 is never hidden (an id and a name are what a row is); among
   * equals the rightmost column is hidden first.
   */
  priority: number;
  /** Display width of the widest cell. */
  content: number;
}

export interface TableLayout {
  /** The columns to print, in their original order, with the width each gets (without the gap). */
  shown: { index: number; width: number }[];
  /** Headers of the hidden columns, in their original order. */
  hidden: string[];
}

/** Two spaces between columns, as gh prints them. */
export const GAP = 2;
/** A text column that must give way keeps this much of itself before the table drops a column. */
const TEXT_NEED = 12;
/** ...and this much when every droppable column is gone and it still has to shrink. */
const TEXT_FLOOR = 5;
/** A problem (an error message) keeps this much before a name or an address is cut for it. */
const PROBLEM_READABLE = 20;
/** A name or an address cut as a last resort keeps at least this much. */
const NAME_FLOOR = 10;
/**
 * The space a name or an address needs before other columns are hidden for it: the longest real names
 * and addresses fit, and one outlier (an 84-character name) does not hide a column for every row.
 */
const NAME_NEED = 48;

/** Columns' total width, gaps included. */
function total(widths: readonly number[]): number {
  return widths.length === 0 ? 0 : widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1);
}

function natural(column: ColumnSpec): number {
  return Math.max(1, column.header.length, column.content);
}

/** The width under which the table would rather hide another column than cut this one. */
function need(column: ColumnSpec): number {
  const full = natural(column);
  if (column.kind === 'text') return Math.min(full, Math.max(TEXT_NEED, column.header.length));
  if (essential(column.kind)) return Math.min(full, NAME_NEED);
  return full;
}

/** The narrowest a shown column may become when nothing can be hidden any more. */
function floor(column: ColumnSpec): number {
  const full = natural(column);
  switch (column.kind) {
    case 'id':
    case 'count':
      return full; // whole, header included: `COMPANY`, not `COM…`
    case 'name':
    case 'email':
    case 'problem':
      return Math.min(full, NAME_FLOOR);
    default:
      return Math.min(full, TEXT_FLOOR);
  }
}

/** Whether `a` is hidden before `b`: higher priority number first, then the rightmost. */
function hiddenBefore(columns: readonly ColumnSpec[], a: number, b: number): boolean {
  // A column empty in every row (no errors) says nothing: it goes before any column with content.
  const ea = columns[a]?.content === 0;
  const eb = columns[b]?.content === 0;
  if (ea !== eb) return ea;
  const pa = columns[a]?.priority ?? 0;
  const pb = columns[b]?.priority ?? 0;
  return pa !== pb ? pa > pb : a > b;
}

export function fitTable(columns: readonly ColumnSpec[], width: number): TableLayout {
  const visible = columns.map((_, i) => i);
  const needs = columns.map(need);
  const widthOf = (indexes: readonly number[]) => total(indexes.map((i) => needs[i] ?? 0));

  // 1. Hide whole columns, least important first, until what remains fits at the width it needs.
  const dropped: number[] = [];
  while (widthOf(visible) > width) {
    let victim = -1;
    for (const i of visible) {
      const column = columns[i];
      // An essential column goes only when it is empty in every row (an error column with no errors).
      if (!column || column.kind === 'id' || (column.priority === 0 && column.content > 0)) continue;
      if (victim < 0 || hiddenBefore(columns, i, victim)) victim = i;
    }
    if (victim < 0) break;
    visible.splice(visible.indexOf(victim), 1);
    dropped.push(victim);
  }
  // A column hidden early may fit again once a wider one went: bring back the most important first.
  for (const i of [...dropped].sort((a, b) => (hiddenBefore(columns, a, b) ? 1 : -1))) {
    const candidate = [...visible, i].sort((a, b) => a - b);
    if (widthOf(candidate) <= width) {
      visible.splice(0, visible.length, ...candidate);
      dropped.splice(dropped.indexOf(i), 1);
    }
  }

  const widths = new Map(visible.map((i) => [i, needs[i] ?? 1]));
  const sum = () => total([...widths.values()]);
  if (sum() > width) {
    // 2. Still too wide with only the columns that cannot be hidden: cut the widest (never below its
    //    floor, never an id), one column at a time, so the loss is shared. In stages: descriptive text
    //    first; then a problem down to a readable start; then names, addresses and problems alike.
    const stages = [
      (c: ColumnSpec) => (essential(c.kind) ? need(c) : floor(c)),
      (c: ColumnSpec) => (c.kind === 'problem' ? Math.min(need(c), PROBLEM_READABLE) : need(c)),
      floor,
    ];
    let stage = 0;
    while (sum() > width && stage < stages.length) {
      const limit = stages[stage] as (c: ColumnSpec) => number;
      let widest = -1;
      for (const [i, w] of widths) {
        const column = columns[i];
        if (!column || w <= limit(column)) continue;
        if (widest < 0 || w > (widths.get(widest) ?? 0) || (w === widths.get(widest) && i > widest))
          widest = i;
      }
      if (widest < 0) {
        stage++; // Nothing left to cut at this stage; at the last one the terminal will wrap the row.
        continue;
      }
      widths.set(widest, (widths.get(widest) ?? 1) - 1);
    }
  } else {
    // 3. Space to spare: give it back, most important columns first, up to each one's full width.
    let spare = width - sum();
    const order = [...widths.keys()].sort((a, b) => (hiddenBefore(columns, a, b) ? 1 : -1));
    for (const i of order) {
      const column = columns[i];
      if (!column || spare <= 0) continue;
      const grow = Math.min(spare, natural(column) - (widths.get(i) ?? 0));
      if (grow > 0) {
        widths.set(i, (widths.get(i) ?? 0) + grow);
        spare -= grow;
      }
    }
  }
  return {
    shown: visible.map((index) => ({ index, width: widths.get(index) ?? 1 })),
    hidden: dropped.sort((a, b) => a - b).map((i) => columns[i]?.header ?? ''),
  };
}

/** The stderr note for hidden columns: "2 columns hidden — widen the window, or use --columns". */
export function hiddenNote(hidden: readonly string[]): string | undefined {
  if (hidden.length === 0) return undefined;
  const count = hidden.length === 1 ? '1 column hidden' : `${hidden.length} columns hidden`;
  return `${count} (${hidden.map((h) => h.toLowerCase()).join(', ')}) — widen the window, or use --columns`;
}

/**
 * The kind and priority a column gets when its definition says nothing: an id and a name are the
 * row; an address comes next; then the columns in their order. Headers are compared in lower case.
 */
export function defaultKind(header: string): CellKind {
  const h = header.toLowerCase();
  if (h === 'id' || h.endsWith(' id') || h === 'company_id') return 'id';
  if (h === 'name' || h === 'label') return 'name';
  if (h === 'email' || h === 'address' || h === 'target url' || h === 'url') return 'email';
  if (h === 'error' || h === 'reason' || h === 'problems') return 'problem';
  return 'text';
}
