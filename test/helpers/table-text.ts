/**
 * Reading a terminal table back as a person does: the header names the columns and where each starts;
 * a row starts with its id (digits, then the two-space gap), and the lines under it that start with
 * spaces continue its wrapped cells. Each cell comes back as its lines, so a test can check that a
 * wrapped value is all there (`wholeText`) and that no line was cut with '…'.
 */
import { displayWidth } from '../../src/output/text.js';

export interface ReadTable {
  /** Each row's cells, by header (every column of the table); a cell is the lines it took (trimmed). */
  rows: Record<string, string[]>[];
  /** The lines that belong to the table (header, rows and their continuations). */
  lines: string[];
}

/** A row's first line (by default: an id, then at least the two spaces between columns). */
const ROW_START = /^\d+ {2}/;

export function readTable(screen: string, headers: readonly string[], rowStart = ROW_START): ReadTable {
  const all = screen.split('\n');
  const top = all.findIndex((line) => headers.every((h) => line.includes(h)));
  if (top < 0) throw new Error(`no header with ${headers.join(', ')} in:\n${screen}`);
  const head = all[top] as string;
  // Every column of the header line (two spaces or more between them), named or not in `headers`.
  const found = [...head.matchAll(/\S+(?: \S+)*/g)].map((m) => ({ name: m[0], index: m.index ?? 0 }));
  const names = found.map((f) => f.name);
  const starts = found.map((f) => displayWidth(head.slice(0, f.index)));
  const rows: Record<string, string[]>[] = [];
  const lines = [head];
  for (const line of all.slice(top + 1)) {
    // The first column (an id, an event) never wraps: a continuation line is blank under it (a
    // message on stderr indented less is not part of the table).
    const indent = /^ */.exec(line)?.[0].length ?? 0;
    const continues = rows.length > 0 && line.trim() !== '' && indent >= (starts[1] ?? 1);
    if (!rowStart.test(line) && !continues) break;
    if (rowStart.test(line)) rows.push(Object.fromEntries(names.map((h) => [h, []])));
    const row = rows.at(-1) as Record<string, string[]>;
    names.forEach((h, i) => {
      const piece = sliceColumns(line, starts[i] ?? 0, starts[i + 1]).trim();
      if (piece) row[h]?.push(piece);
    });
    lines.push(line);
  }
  return { rows, lines };
}

/** The text of display columns [from, to) of a line. */
function sliceColumns(line: string, from: number, to = Number.POSITIVE_INFINITY): string {
  let column = 0;
  let text = '';
  for (const char of line) {
    if (column >= from && column < to) text += char;
    column += displayWidth(char);
  }
  return text;
}

/** Whether a cell's lines hold the whole value (white space aside: a wrap drops the space it broke at). */
export function wholeText(lines: readonly string[] | undefined, value: string): boolean {
  return (lines ?? []).join('').replace(/\s+/g, '') === value.replace(/\s+/g, '');
}
