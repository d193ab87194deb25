/**
 * Fitting a table to the terminal's width, the way a reader would choose: the columns a reader came
 * for (the id, the name or address, and what went wrong) keep their place. When there is not enough
 * room, whole low-priority columns (counters, descriptions) are hidden first (and the caller says so on
 * stderr); then long cells wrap within their column, onto more lines, rather than being cut; only when
 * even wrapped columns do not fit are the remaining short columns (a type, roles, a check) hidden too.
 * An id or a count is never wrapped or cut. Pure: widths in, a layout out.
 */

/**
 * What a column holds, which decides how it may give way:
 * - id: never narrowed, never hidden;
 * - name, email: kept whole while another column can be hidden; wrapped only after that;
 * - problem: an error or what is wrong with the row: essential like a name; when no row has one, its
 *   empty cells still say "none": it is hidden after the counters and descriptions, and the note
 *   says it was empty;
 * - text: a short column a reader filters on (roles, a check: priority 1) wraps to a few characters;
 *   a description (an owner, a type) is shown whole or hidden;
 * - list: a description that is a list of short items (webhook events, campaigns by status): up to
 *   LIST_NEED wide, wrapped after its commas beyond that, so that a long list never hides an error
 *   column (a streamed table, laid out from a typical list, wraps it alike);
 * - count: a number under a long header: shown whole, or hidden as a whole.
 */
export type CellKind = 'id' | 'name' | 'email' | 'problem' | 'text' | 'list' | 'count';

/** The kinds a reader came for: they wrap, and counters and descriptions are hidden for them first. */
function essential(kind: CellKind): boolean {
  return kind === 'name' || kind === 'email' || kind === 'problem';
}

export interface ColumnSpec {
  /** The header as printed (upper case), used for its width and to name a hidden column. */
  header: string;
  kind: CellKind;
  /**
   * Lower numbers matter more. Priority 0 is never hidden (an id and a name are what a row is); among
   * equals the rightmost column is hidden first. Priorities 1 and 2 (the roles a filter is about, a
   * type) are hidden only when wrapping the long cells is not enough (KEPT_WHILE_WRAPPED).
   */
  priority: number;
  /** Display width of the widest cell. */
  content: number;
}

export interface FitOptions {
  /**
   * --columns named the columns: wrap them (headers too) rather than hide them; hide only what cannot
   * fit even then.
   */
  hideNone?: boolean | undefined;
}

export interface TableLayout {
  /** The columns to print, in their original order, with the width each gets (without the gap). */
  shown: { index: number; width: number }[];
  /** Headers of the hidden columns, in their original order. */
  hidden: string[];
  /** Those of them that are error or problem columns empty in every row (the note says so). */
  empty: string[];
}

/** Two spaces between columns, as gh prints them. */
export const GAP = 2;
/** A text column that wraps early (a check, roles) keeps this much before another column is hidden for it. */
const TEXT_NEED = 12;
/**
 * Columns that matter though they are not the row's name (the roles a filter is about, a health
 * check, a webhook's URL: priority 1) stay as long as the essential columns fit beside them wrapped
 * down to their floor; those of priority 2 (a mailbox's type, a webhook's event) while they fit
 * whole beside essential columns wrapped to lines of WRAP_READABLE.
 */
const KEPT_WHILE_WRAPPED = 1;
const KEPT_WHILE_READABLE = 2;
const WRAP_READABLE = 20;
/** The narrowest a wrapped text column becomes (`admin,owner`, `no_running_campaign` on two lines). */
const TEXT_FLOOR = 11;
/** The narrowest a wrapped name, address or problem becomes: a few words a line. */
const NAME_FLOOR = 12;
/**
 * A short text column that matters (a check's name, roles) is an identifier a reader greps for and
 * passes to `jq`: up to this width it is kept whole once names and problems are readable (from about
 * 100 columns), and wrapped only after that.
 */
const IDENTIFIER_MAX = 25;
/**
 * An address or URL up to this long (`https://h.example/d`, most mailboxes) is split only after every
 * other column is at its floor: in pieces it can no longer be read or compared at a glance.
 */
const SHORT_ADDRESS = 30;
/** The width a list (of webhook events) has before it wraps: two event names and a comma. */
const LIST_NEED = 35;
/**
 * The space a name or an address needs before other columns are hidden for it: the longest real names
 * and addresses fit, and one outlier (an 84-character name) does not hide a column for every row.
 */
const NAME_NEED = 48;

/** Columns' total width, gaps included. */
function total(widths: readonly number[]): number {
  return widths.length === 0 ? 0 : widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1);
}

/** A column's width with nothing wrapped: its header or its widest cell. */
export function natural(column: ColumnSpec): number {
  return Math.max(1, column.header.length, column.content);
}

/** The width under which the table would rather hide another column than wrap this one. */
function need(column: ColumnSpec): number {
  const full = natural(column);
  // A description is shown whole or hidden: wrapped on every row it would push the rows apart.
  if (column.kind === 'text')
    return wrapsEarly(column) && !identifier(column)
      ? Math.min(full, Math.max(TEXT_NEED, column.header.length))
      : full;
  if (essential(column.kind)) return Math.min(full, NAME_NEED);
  if (column.kind === 'list') return Math.min(full, Math.max(LIST_NEED, column.header.length));
  return full;
}

/**
 * The narrowest a shown column may become, its cells wrapped; never narrower than its header, unless
 * every column was asked for (`tight`: then a header may wrap between its words, `EMAIL` / `SLOTS`).
 */
function floor(column: ColumnSpec, tight = false): number {
  const full = natural(column);
  const header = tight
    ? Math.max(...column.header.split(' ').map((word) => word.length))
    : column.header.length;
  switch (column.kind) {
    case 'id':
    case 'count':
      // Whole, header included: `COMPANY`, not `COM…`.
      return tight ? Math.max(1, column.content, header) : full;
    case 'text':
    case 'list':
      return Math.min(full, Math.max(TEXT_FLOOR, header));
    default:
      return Math.min(full, Math.max(NAME_FLOOR, header));
  }
}

/**
 * The narrowest a column becomes when it gives width to a column that wraps (tradeWidth, in
 * table-widths.ts): its floor; a name, an address or a problem keeps lines of WRAP_READABLE when it
 * has them at `width`. An id, a count and an identifier (`authorized_team_member`, greppable whole)
 * give nothing; nor does a description, shown whole or hidden, unless --columns named the columns
 * (`tight`: it wraps like the others).
 */
export function givingFloor(column: ColumnSpec, width: number, tight = false): number {
  const least = floor(column, tight);
  const readable = Math.max(least, Math.min(natural(column), WRAP_READABLE));
  // Already narrower than that (the layout needed it), it gives down to its floor.
  if (essential(column.kind)) return width >= readable ? readable : least;
  if (column.kind === 'id' || column.kind === 'count' || identifier(column)) return natural(column);
  if (column.kind === 'text' && !tight && !wrapsEarly(column)) return natural(column);
  return least;
}

/**
 * A short text column that matters (a check's name, roles: priority 1) wraps first, before a name
 * does; other descriptions (an owner, a type) stay whole while they are shown, and are hidden rather
 * than wrapped on every row.
 */
function wrapsEarly(column: ColumnSpec): boolean {
  return column.kind === 'text' && column.priority <= KEPT_WHILE_WRAPPED;
}

/** An address or URL that reads at a glance only whole (`https://h.example/d`). */
function shortAddress(column: ColumnSpec): boolean {
  return column.kind === 'email' && natural(column) <= SHORT_ADDRESS;
}

/** A short text column that matters (`no_running_campaign`): whole while names and problems read well. */
function identifier(column: ColumnSpec): boolean {
  return wrapsEarly(column) && natural(column) <= IDENTIFIER_MAX;
}

/**
 * The narrowest a column may become before a text column that matters (a check) is hidden for it:
 * its floor, but a problem (what went wrong, in words) keeps lines of WRAP_READABLE: at 60 columns a
 * health check's detail on lines of 13 would break its words, while CHECK only repeats its meaning.
 */
function softFloor(column: ColumnSpec, floor: number): number {
  return column.kind === 'problem' ? Math.max(floor, Math.min(natural(column), WRAP_READABLE)) : floor;
}

/**
 * An error column with no errors: its empty cells say "none" (PROBLEMS beside clean rows), which
 * matters more than a counter or a description, less than a column a reader filters on (a type).
 */
const EMPTY_PROBLEM_RANK = 2.5;

/**
 * How little a column matters: its priority number; an error column empty in every row as
 * EMPTY_PROBLEM_RANK, and any other column empty in every row (it says nothing) least of all.
 */
function rank(column: ColumnSpec): number {
  if (column.content > 0) return column.priority;
  return column.kind === 'problem' ? EMPTY_PROBLEM_RANK : Number.POSITIVE_INFINITY;
}

/** An error or problem column with nothing in any row. */
function emptyProblem(column: ColumnSpec | undefined): boolean {
  return column?.kind === 'problem' && column.content === 0;
}

/** Whether `a` is hidden before `b`: the higher rank() first, then the rightmost. */
export function hiddenBefore(columns: readonly ColumnSpec[], a: number, b: number): boolean {
  const ra = rank(columns[a] as ColumnSpec);
  const rb = rank(columns[b] as ColumnSpec);
  return ra !== rb ? ra > rb : a > b;
}

export function fitTable(
  columns: readonly ColumnSpec[],
  width: number,
  options: FitOptions = {},
): TableLayout {
  const visible = columns.map((_, i) => i);
  const needs = columns.map(need);
  const floors = columns.map((c) => floor(c, options.hideNone));
  const softFloors = columns.map((c, i) => softFloor(c, floors[i] ?? 1));
  const readable = columns.map((c, i) => {
    // A short address or URL a row is about (a webhook's target) is read whole: a column that
    // matters less (the event) is hidden before it splits; a sender's address (a description) wraps.
    if (shortAddress(c) && c.priority <= KEPT_WHILE_WRAPPED) return natural(c);
    if (essential(c.kind)) return Math.min(natural(c), WRAP_READABLE);
    return (wrapsEarly(c) ? floors[i] : needs[i]) ?? 1;
  });
  const widthOf = (indexes: readonly number[], of: readonly number[] = needs) =>
    total(indexes.map((i) => of[i] ?? 0));

  // 1. Hide whole columns, least important first, until what remains fits at the width it needs; a
  //    column that matters (a type, roles) stays as long as wrapping the long cells makes it fit.
  const dropped: number[] = [];
  // With --columns, only what cannot fit even wrapped to its floor is hidden (and said).
  while (options.hideNone ? widthOf(visible, floors) > width : widthOf(visible) > width) {
    let victim = -1;
    for (const i of visible) {
      const column = columns[i];
      // An essential column goes only when it is empty in every row (an error column with no errors),
      // after the counters and descriptions (rank()).
      if (!column || column.kind === 'id' || (column.priority === 0 && column.content > 0)) continue;
      if (victim < 0 || hiddenBefore(columns, i, victim)) victim = i;
    }
    const chosen = columns[victim];
    if (!chosen) break;
    const kept =
      !options.hideNone &&
      chosen.content > 0 &&
      ((chosen.priority <= KEPT_WHILE_WRAPPED && widthOf(visible, softFloors) <= width) ||
        (chosen.priority <= KEPT_WHILE_READABLE && widthOf(visible, readable) <= width));
    if (kept) break;
    visible.splice(visible.indexOf(victim), 1);
    dropped.push(victim);
  }
  // A column hidden early may fit again once a wider one went: bring back the most important first,
  // but none of a lower priority than one that does not fit, so that a description or a counter is
  // never shown while a column that matters more (an error count) is hidden. Among equals the
  // position only breaks ties: a narrower one may come back.
  let unfit = Number.POSITIVE_INFINITY;
  for (const i of [...dropped].sort((a, b) => (hiddenBefore(columns, a, b) ? 1 : -1))) {
    if (rank(columns[i] as ColumnSpec) > unfit) continue;
    const candidate = [...visible, i].sort((a, b) => a - b);
    if (widthOf(candidate) > width) {
      unfit = Math.min(unfit, rank(columns[i] as ColumnSpec));
      continue;
    }
    visible.splice(0, visible.length, ...candidate);
    dropped.splice(dropped.indexOf(i), 1);
  }

  // Identifiers (a check, roles) stay whole when names, problems, addresses and URLs still get
  // lines of WRAP_READABLE beside them; in a table without a problem column (the space would come out
  // of a check's detail), when names and addresses still get their floor: `authorized_team_member`
  // whole at 60 columns, the address beside it wrapped at its dots. Else they wrap to their floor at
  // once (a check cut at 17 is as broken as at 11).
  const isIdentifier = (i: number) => identifier(columns[i] as ColumnSpec);
  const problemShown = visible.some((i) => columns[i]?.kind === 'problem');
  const beside = columns.map((c, i) => {
    if (isIdentifier(i)) return needs[i] ?? 1;
    if (!problemShown && (c.kind === 'name' || c.kind === 'email')) return floors[i] ?? 1;
    return readable[i] ?? 1;
  });
  const wholeIdentifiers = widthOf(visible, beside) <= width;
  const widths = new Map(
    visible.map((i) => [i, (!wholeIdentifiers && isIdentifier(i) ? floors[i] : needs[i]) ?? 1]),
  );
  const sum = () => total([...widths.values()]);
  if (sum() > width) {
    // 2. Still too wide: narrow columns (never below their floor, never an id or a count); their
    //    cells wrap onto more lines.
    narrow(columns, widths, width, floors, softFloors);
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
  const hidden = dropped.sort((a, b) => a - b);
  return {
    shown: visible.map((index) => ({ index, width: widths.get(index) ?? 1 })),
    hidden: hidden.map((i) => columns[i]?.header ?? ''),
    empty: hidden.filter((i) => emptyProblem(columns[i])).map((i) => columns[i]?.header ?? ''),
  };
}

/**
 * Narrows the shown columns until the table fits `width`, sharing the loss in proportion to the room
 * each has above its target (a column far above it gives most), in stages; an identifier (a check,
 * roles) keeps the width fitTable gave it, whole or its floor:
 * 1. names and problems to lines still read at a glance (WRAP_READABLE), and a text column that
 *    wraps early to its floor; other text, addresses and URLs keep their width (an address breaks
 *    only at punctuation, which reads worse than wrapped words);
 * 2. addresses and URLs to such lines;
 * 3. every column to its floor, a problem still on lines of WRAP_READABLE (`softFloors`);
 * 4. every column to its floor;
 * 5. a short address or URL (up to SHORT_ADDRESS) to its floor: till then it stays whole, as
 *    `https://h.example/d` split after its slash is harder to read than a reason on lines of 12.
 * Widths are changed in place; when every column is at its floor and the table is still too wide, the
 * terminal wraps the row.
 */
function narrow(
  columns: readonly ColumnSpec[],
  widths: Map<number, number>,
  width: number,
  floors: readonly number[],
  softFloors: readonly number[],
): void {
  const readable = (i: number, start: number) => Math.min(start, Math.max(floors[i] ?? start, WRAP_READABLE));
  const atFloor = (i: number, start: number) => Math.min(start, floors[i] ?? start);
  const short = (i: number) => shortAddress(columns[i] as ColumnSpec);
  const stages = [
    (i: number, start: number) => {
      const column = columns[i] as ColumnSpec;
      if (column.kind === 'email') return start;
      if (column.kind === 'list') return start;
      if (column.kind === 'text') return wrapsEarly(column) ? atFloor(i, start) : start;
      return readable(i, start);
    },
    (i: number, start: number) => (columns[i]?.kind === 'email' ? readable(i, start) : start),
    (i: number, start: number) => Math.min(start, softFloors[i] ?? start),
    atFloor,
    (i: number, start: number) => (short(i) ? atFloor(i, start) : start),
  ];
  stages.forEach((target, stage) => {
    const last = stage === stages.length - 1;
    const start = new Map(widths);
    const room = (i: number, w: number) => {
      const from = start.get(i) ?? w;
      const kept = identifier(columns[i] as ColumnSpec) || (short(i) && !last);
      const to = kept ? from : target(i, from);
      return from > to ? (w - to) / (from - to) : 0;
    };
    while (total([...widths.values()]) > width) {
      let most = -1;
      let mostRoom = 0;
      for (const [i, w] of widths) {
        const r = room(i, w);
        if (r > mostRoom || (r === mostRoom && r > 0 && i > most)) [most, mostRoom] = [i, r];
      }
      if (most < 0) break;
      widths.set(most, (widths.get(most) ?? 1) - 1);
    }
  });
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
