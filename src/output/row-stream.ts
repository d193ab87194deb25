/**
 * A list printed row by row as its items arrive (fleet reads, src/fleet/ordered.ts): piped TSV and
 * CSV rows are written at once, so a pipe sees them early and an interrupted run keeps them. On a
 * terminal, with a `sample` of rows like the ones to come, the table too is printed a row at a time
 * (its widths fixed from the sample); without one it is printed whole by end(), as is --json.
 */
import { renderValue } from '../terms.js';
import { rowEncoder } from './csv.js';
import { type FixedTable, fixedTable } from './table.js';
import type { Column, ListOptions, Writer } from './writer.js';

export interface RowStream<T> {
  /** Rows are written as pushed (piped TSV or CSV; a table from a sample); else end() prints all. */
  readonly streaming: boolean;
  push(item: T): void;
  /** Prints what is still held (the table, the JSON array); call it also after an interrupt. */
  end(options?: ListOptions): Promise<void>;
  /** The items pushed so far. */
  readonly items: readonly T[];
}

export interface RowStreamOptions<T> {
  /** Rows like the ones to come, to fix a terminal table's widths before the first row is done. */
  sample?: readonly T[] | undefined;
  /** Called before a table row is written to the terminal (to clear a progress line). */
  beforeRow?: (() => void) | undefined;
}

export function rowStream<T>(
  out: Writer,
  allColumns: readonly Column<T>[],
  options: RowStreamOptions<T> = {},
): RowStream<T> {
  const items: T[] = [];
  const columns = out.columns(allColumns);
  const csv = out.options.csv === true;
  const terminal = out.streams.stdoutIsTTY;
  // On a terminal, CSV goes through list() too, which makes server text inert there.
  const progressive = !out.json && !csv && terminal && (options.sample?.length ?? 0) > 0;
  const immediate = (!out.json && !terminal) || progressive;
  let table: FixedTable<T> | undefined;
  const encoder = rowEncoder(columns, csv);
  let headerWritten = false;
  const writeRow = (given: T) => {
    // The references in a row (a next step) are said before its cells are made safe, as list() does:
    // a TSV cell drops the control characters that delimit them.
    const item = renderValue(given);
    if (progressive) {
      options.beforeRow?.();
      if (!table) {
        table = fixedTable(options.sample ?? [], columns, out.tableTerminal);
        out.out(`${table.header}\n`);
      }
      out.out(`${table.row(item)}\n`);
    } else {
      // CSV's header row comes with the first row (TSV has none).
      out.out(`${headerWritten ? '' : encoder.header}${encoder.row(item)}`);
      headerWritten = true;
    }
  };
  return {
    items,
    streaming: immediate,
    push(item) {
      items.push(item);
      if (immediate) writeRow(item);
    },
    async end(listOptions) {
      if (progressive) {
        if (table) out.tableNotes(table, items.length, listOptions);
        else if (listOptions?.empty) out.info(listOptions.empty);
        return;
      }
      if (immediate) {
        if (csv && !headerWritten) await out.list([], allColumns);
        return;
      }
      await out.list(items, allColumns, listOptions);
    },
  };
}
