/**
 * A list printed row by row as its items arrive (fleet reads, src/fleet/ordered.ts): piped TSV and
 * CSV rows are written at once, so a pipe sees them early and an interrupted run keeps them; a
 * terminal table (its widths need every row) and --json (one array) are printed by end().
 */
import { columnKey, toCsv } from './csv.js';
import { cellText } from './text.js';
import type { Column, ListOptions, Writer } from './writer.js';

export interface RowStream<T> {
  /** Rows are written as they are pushed (piped TSV or CSV); else end() prints them all. */
  readonly streaming: boolean;
  push(item: T): void;
  /** Prints what is still held (the table, the JSON array); call it also after an interrupt. */
  end(options?: ListOptions): Promise<void>;
  /** The items pushed so far. */
  readonly items: readonly T[];
}

export function rowStream<T>(out: Writer, allColumns: readonly Column<T>[]): RowStream<T> {
  const items: T[] = [];
  const columns = out.columns(allColumns);
  // On a terminal, CSV goes through list() too, which makes server text inert there.
  const immediate = !out.json && !out.streams.stdoutIsTTY;
  const csv = out.options.csv === true;
  let headerWritten = false;
  const writeRow = (item: T) => {
    if (csv) {
      const header = headerWritten ? [] : [columns.map(columnKey)];
      headerWritten = true;
      const text = toCsv(header[0] ?? [], [columns.map((c) => c.value(item))]);
      // toCsv always starts with a header line: keep it only for the first row.
      out.out(header.length ? text : text.slice(text.indexOf('\r\n') + 2));
    } else {
      out.out(`${columns.map((c) => cellText(c.value(item))).join('\t')}\n`);
    }
  };
  return {
    items,
    streaming: immediate,
    push(item) {
      items.push(item);
      if (immediate) writeRow(item);
    },
    async end(options) {
      if (immediate) {
        if (csv && !headerWritten) await out.list([], allColumns);
        return;
      }
      await out.list(items, allColumns, options);
    },
  };
}
