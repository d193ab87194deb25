/**
 * The whole output policy in one place: JSON with --json, a table on a terminal, TSV when piped.
 * Results go to stdout, everything else to stderr. Commands return data; they never print.
 */
import type { Writable } from 'node:stream';
import { Chalk, type ChalkInstance } from 'chalk';
import { isRecord } from '../api/types.js';
import { UsageError } from '../errors.js';
import { option, render, renderValue } from '../terms.js';
import { isAll, pickFields, rowEncoder, selectColumns } from './csv.js';
import { hangingWrap, wrapWords } from './help-wrap.js';
import { type Creation, StdoutWatch } from './stdout-watch.js';
import { type CountContext, countLine } from './summary.js';
import { renderTable, type TableColumn, type TableTerminal } from './table.js';
import { cellText, displayWidth, inertJson, padToWidth, terminalSafe, truncateToWidth } from './text.js';

/**
 * A column of a list: its header, its value, and how it gives way on a narrow terminal (kind and
 * priority; see layout.ts). Its name (for --columns and the CSV header) is the JSON field's name.
 */
export interface Column<T> extends TableColumn<T> {
  header: string;
  value: (item: T) => unknown;
  /** The name for --columns and CSV; default: the header as a field name (`email slots` → `email_slots`). */
  name?: string | undefined;
  /** Older names --columns still accepts (`campaigns` for `running_campaigns`). */
  aliases?: readonly string[] | undefined;
  /** Where the value sits in the JSON object (dotted: `details.email`); default: the name. */
  field?: string | undefined;
  /** Printed only when --columns names it (or is `all`). */
  optional?: boolean | undefined;
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
  /** What the count should say was left out: the total, --limit, --page, --search (summary.ts). */
  count?: CountContext | undefined;
}

export interface WriterOptions {
  json: boolean;
  /** --csv: RFC 4180 with a header row instead of a table or TSV (lists only). */
  csv?: boolean | undefined;
  /** --columns: the columns to print, in this order (names as columnKey() spells them). */
  columns?: string | undefined;
  /** -q: only errors, warnings and "note:" lines on stderr (no confirmations, counts, progress). */
  quiet?: boolean | undefined;
  /** Colour for stdout / stderr; decided once in terminal.ts. */
  color: boolean;
  stderrColor: boolean;
  /** TERM=dumb: no cursor movement either, so no progress line. */
  dumbTerminal?: boolean | undefined;
}

/** What a run hands its host as values (src/program.ts's Outcome). */
export interface RunRecord {
  /** With a host that takes results as values (`agency mcp`): what --json would have printed, each value. */
  results?: unknown[];
  /** The `note:` and `warning:` lines' messages, as given. */
  notes: string[];
  warnings: string[];
}

export class Writer {
  #record: RunRecord | undefined;
  #chalk: ChalkInstance | undefined;
  #stderrChalk: ChalkInstance | undefined;
  /** stdout's fate (stdout-watch.ts), the run's (shared by its writers): every result goes through it. */
  readonly #stdout: StdoutWatch;
  /** A progress line is on the screen (drawn and not cleared yet). */
  #progressShown = false;

  constructor(
    readonly streams: Streams,
    readonly options: WriterOptions,
    stdout: StdoutWatch = new StdoutWatch(streams.stdout),
  ) {
    this.#stdout = stdout;
  }

  get json(): boolean {
    return this.options.json;
  }

  /** Hands results (when the record takes them), notes and warnings to the run's record too. */
  recordTo(record: RunRecord): void {
    this.#record = record;
  }

  private chalk(): ChalkInstance {
    this.#chalk ??= new Chalk({ level: this.options.color ? 1 : 0 });
    return this.#chalk;
  }

  private stderrChalk(): ChalkInstance {
    this.#stderrChalk ??= new Chalk({ level: this.options.stderrColor ? 1 : 0 });
    return this.#stderrChalk;
  }

  get quiet(): boolean {
    return this.options.quiet === true;
  }

  /**
   * The columns --columns asks for (all without it). Commands call this before their first request,
   * so that an unknown column is a usage error with nothing sent; list() applies the same choice.
   */
  columns<T>(columns: readonly Column<T>[]): Column<T>[] {
    return selectColumns(columns, this.options.columns);
  }

  /**
   * A list result: JSON array of the items as the API returned them, CSV with --csv, TSV rows when
   * piped, or on a terminal a table that fits the width (columns that do not fit are hidden and named),
   * followed by a count that says what was left out (or the empty-state message) on stderr. Its
   * references (src/terms.ts) are said in the command line's terms, unless a host takes the values.
   */
  async list<T>(
    given: readonly T[],
    allColumns: readonly Column<T>[],
    options: ListOptions = {},
  ): Promise<void> {
    const { empty } = options;
    const items = this.#record?.results ? given : renderValue(given);
    if (this.options.json) return this.jsonList(items, allColumns);
    const columns = this.columns(allColumns);
    const tty = this.streams.stdoutIsTTY;
    if (this.options.csv) {
      const csv = rowEncoder(columns, true);
      const text = csv.header + items.map(csv.row).join('');
      this.out(tty ? terminalSafe(text) : text);
      return;
    }
    if (!tty) {
      const tsv = rowEncoder(columns, false);
      for (const item of items) this.out(tsv.row(item));
      return;
    }
    if (items.length === 0) {
      if (empty) this.info(empty);
      return;
    }
    const table = renderTable(items, columns, this.tableTerminal);
    this.out(`${table.text}\n`);
    this.tableNotes(table, items.length, options);
  }

  /** The width a table on this terminal is fitted to. */
  get tableWidth(): number {
    return usableWidth(this.streams.columns);
  }

  /** What a table is fitted to and coloured with; --columns named what to show: it hides none of it. */
  get tableTerminal(): TableTerminal {
    return { width: this.tableWidth, chalk: this.chalk(), hideNone: this.options.columns !== undefined };
  }

  /** Under a table on a terminal: which columns did not fit, and the count (stderr). */
  tableNotes(
    { hidden, empty }: { hidden: readonly string[]; empty: readonly string[] },
    shown: number,
    { noun, count }: ListOptions = {},
  ): void {
    // Counts and notes are for the person watching; a redirected stderr is a log, where they are noise.
    if (!this.streams.stderrIsTTY || this.quiet) return;
    const note = hiddenNote(hidden, this.options.columns !== undefined, empty);
    // Wrapped here: a note the terminal wrapped for us could break a word at its edge.
    if (note) this.#stderr(`${this.stderrChalk().dim(wrapWords(note, this.tableWidth).join('\n'))}\n`);
    if (noun) this.#stderr(`${this.stderrChalk().dim(countLine({ ...count, shown, noun }))}\n`);
  }

  /** A single result object: JSON, or "field value" lines (tab-separated when piped). */
  record(given: Record<string, unknown>): void {
    const value = this.#record?.results ? given : renderValue(given); // as list() says it
    // A command that prints a record is marked printsNoList (refused before it runs); never ignored.
    const listOnly = this.options.csv || this.options.columns !== undefined;
    if (listOnly)
      throw new UsageError(`${option('csv')} and ${option('columns')} are for lists, not a record.`);
    if (this.options.json) {
      this.jsonValue(value);
      return;
    }
    // Field names come from the server too: on a terminal they are made inert like the values.
    const rows = flatten(value).map(([key, v]): [string, unknown] => [cellText(key), v]);
    if (!this.streams.stdoutIsTTY) {
      for (const [key, v] of rows) this.out(`${key}\t${cellText(v)}\n`);
      return;
    }
    const width = Math.max(0, ...rows.map(([key]) => displayWidth(key)));
    const chalk = this.chalk();
    for (const [key, v] of rows) this.out(`${chalk.bold(padToWidth(key, width))}  ${cellText(v)}\n`);
  }

  /** A list as JSON: the items as the API returned them, with --columns only those fields of each. */
  jsonList<T>(items: readonly T[], allColumns: readonly Column<T>[]): void {
    this.jsonValue(this.fields(items, allColumns));
  }

  /**
   * The items as they are (also with `--columns all`), or with --columns only those fields of each
   * (a list inside a JSON object).
   */
  fields<T>(items: readonly T[], allColumns: readonly Column<T>[]): readonly unknown[] {
    const spec = this.options.columns;
    return spec === undefined || isAll(spec) ? items : pickFields(items, this.columns(allColumns));
  }

  /** Pretty JSON on stdout, always (used by --json and the `api` command). */
  jsonValue(value: unknown): void {
    if (this.#record?.results) {
      this.#record.results.push(value);
      return;
    }
    this.out(`${inertJson(renderValue(value), 2)}\n`);
  }

  /** The --json error object: one line on stderr, inert on a terminal (src/output/error-report.ts). */
  errorObject(value: unknown): void {
    this.#stderr(`${inertJson(value)}\n`);
  }

  /** A bare line on stdout (a new key, an id); its references (src/terms.ts) said before it is made inert. */
  line(text: string): void {
    this.out(`${this.streams.stdoutIsTTY ? terminalSafe(render(text)) : text}\n`);
  }

  /**
   * A line of prose on stdout (plan's changes): on a terminal wrapped between words with a hanging
   * indent, as messages on stderr are, so that the terminal never cuts a word; piped, one whole line.
   */
  wrappedLine(text: string): void {
    if (!this.streams.stdoutIsTTY) this.out(`${text}\n`);
    else this.out(`${hangingWrap(terminalSafe(render(text)), this.tableWidth)}\n`);
  }

  /** A message for the person: stderr (not with -q). */
  info(message: string): void {
    if (this.quiet) return;
    this.err(`${this.#fit('', render(message))}\n`);
  }

  /**
   * What was given is used in another form (an internationalised name sent in ASCII, a value given
   * twice sent once): `note: …` on stderr, kept with -q as it says what was sent; `agency mcp` hands
   * these lines to the assistant with the result.
   */
  note(message: string): void {
    this.#record?.notes.push(message);
    this.#stderr(`${this.stderrChalk().dim('note:')} ${this.#fit('note: ', this.#safe(render(message)))}\n`);
  }

  /** A log line of a long-lived command (`agency mcp`), or words a prompt needs: stderr, wrapped like a message, kept with -q. */
  log(message: string): void {
    this.#stderr(`${this.#fit('', this.#safe(render(message)))}\n`);
  }

  /** A confirmation: stderr (not with -q). */
  success(message: string): void {
    // After stdout failed, the error that follows says what was created: a ✓ would contradict it.
    if (this.quiet || this.#stdout.failed) return;
    this.#stderr(`${this.stderrChalk().green('✓')} ${this.#fit('✓ ', this.#safe(render(message)))}\n`);
  }

  /** One failed item of a run that goes on ("✗ failed: company …"): stderr, a red mark, never -q'd. */
  failure(message: string): void {
    this.#stderr(`${this.stderrChalk().red('✗')} ${this.#fit('✗ ', this.#safe(render(message)))}\n`);
  }

  warn(message: string): void {
    this.#record?.warnings.push(message);
    this.#stderr(
      `${this.stderrChalk().yellow('warning:')} ${this.#fit('warning: ', this.#safe(render(message)))}\n`,
    );
  }

  error(message: string, hint?: string): void {
    const chalk = this.stderrChalk();
    this.#stderr(`${chalk.red('error:')} ${this.#fit('error: ', this.#safe(render(message)))}\n`);
    if (hint) this.#stderr(`${chalk.dim('hint:')} ${this.#fit('hint: ', this.#safe(render(hint)))}\n`);
  }

  /**
   * Something the result is about to show now exists: if stdout fails, the error names it and how to
   * read it back (contract, "Output failures and signals").
   */
  created(creation: Creation): void {
    this.#stdout.created(creation);
  }

  /**
   * A progress line may be drawn: stdout and stderr are both the terminal (as gh and npm decide), it
   * understands cursor movement, and no -q. With stdout piped (`| head`, `| grep`) the reader of the
   * pipe often prints to the same terminal, where a spinner would share lines with its rows.
   */
  get canShowProgress(): boolean {
    return (
      this.streams.stdoutIsTTY &&
      this.streams.stderrIsTTY &&
      !this.quiet &&
      this.options.dumbTerminal !== true
    );
  }

  /** Rewrites the single progress line on a terminal (callers check canShowProgress); never wider than it. */
  progress(text: string): void {
    if (this.options.dumbTerminal || this.#stdout.closed) return;
    const width = usableWidth((this.streams.stderr as { columns?: number }).columns);
    // A line that wrapped could not be cleared by \r: keep it one column short of the edge.
    this.#stderr(`\r\u001b[2K${truncateToWidth(cellText(text), Math.max(1, width - 1))}`);
    this.#progressShown = true;
  }

  /** Clears a progress line that is on the screen; also after a closed pipe silenced stderr. */
  clearProgress(): void {
    if (!this.#progressShown) return;
    this.#progressShown = false;
    this.streams.stderr.write('\r\u001b[2K');
  }
  out(text: string): void {
    this.#stdout.write(render(text));
  }

  err(text: string): void {
    this.#stderr(this.streams.stderrIsTTY ? terminalSafe(text) : text);
  }

  /**
   * On a terminal, a message is wrapped at its width between words, line by line (a list under a
   * message keeps its indent), so that the terminal never cuts a word; `label` is what precedes it on
   * its first line. Elsewhere (a log file) lines stay whole.
   */
  #fit(label: string, message: string): string {
    if (!this.streams.stderrIsTTY) return message;
    const width = (this.streams.stderr as { columns?: number }).columns;
    return hangingWrap(`${label}${message}`, width).slice(label.length);
  }

  /** Server text inside our own messages is made inert first; our colour codes around it stay. */
  #safe(text: string): string {
    return this.streams.stderrIsTTY ? terminalSafe(text) : text;
  }

  #stderr(text: string): void {
    // After a closed pipe the run ends without a word (`agency ... | head -1`).
    if (this.#stdout.closed) return;
    this.streams.stderr.write(text);
  }
}

/** Some pseudo-terminals report a width of 0: then assume the classic 80 columns. */
function usableWidth(columns: number | undefined): number {
  return columns !== undefined && columns > 0 ? columns : 80;
}

/** Nested objects become dotted keys: {agency: {name}} → agency.name. */
function flatten(value: Record<string, unknown>, prefix = ''): [string, unknown][] {
  const rows: [string, unknown][] = [];
  for (const [key, v] of Object.entries(value)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (isRecord(v)) rows.push(...flatten(v, name));
    else rows.push([name, v]);
  }
  return rows;
}

/**
 * The stderr note for hidden columns, by the names --columns takes (so that they can be copied into
 * it): "2 columns hidden (email_slots, linkedin_slots) — widen the window, or use --columns" (only
 * "widen the window" when --columns already chose them). An error column hidden because no row has an
 * error is named apart, "error is hidden too: it is empty in every row", so that "hidden" never reads
 * as "there may be errors you cannot see".
 */
export function hiddenNote(
  hidden: readonly string[],
  chosen = false,
  empty: readonly string[] = [],
): string | undefined {
  const full = hidden.filter((name) => !empty.includes(name));
  const blank = empty.filter((name) => hidden.includes(name));
  const one = blank.length === 1;
  const emptySaid = (too: string) =>
    `${blank.join(' and ')} ${one ? 'is' : 'are'} hidden${too}: ${one ? 'it is' : 'they are'} empty in every row`;
  if (full.length === 0) return blank.length > 0 ? emptySaid('') : undefined;
  const count = full.length === 1 ? '1 column hidden' : `${full.length} columns hidden`;
  const advice = chosen ? 'widen the window' : 'widen the window, or use --columns';
  return `${count} (${full.join(', ')}) — ${advice}${blank.length > 0 ? `; ${emptySaid(' too')}` : ''}`;
}
