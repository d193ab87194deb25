/**
 * Help text that fits the terminal: paragraphs are reflowed to its width, lists get a hanging indent,
 * and no word is ever broken (a word wider than the screen stays whole on a line of its own). An example
 * command line (`  $ agency ...`) too long for the screen is continued with ` \` between shell words
 * (never inside quotes), so that it can still be copied and pasted.
 *
 * Why this exists: commander wraps an option's description only when at least `minWidthToWrap` (40)
 * columns are left beside it, so at 60 columns nothing was wrapped and the terminal cut words; and
 * our own paragraphs (help's "after" text, `agency` alone) were written pre-wrapped at 80 columns.
 */
import { displayWidth } from './text.js';

/** Below this many columns beside a term, its description goes on the next line instead. */
const MIN_DESCRIPTION = 24;
/** Piped help (and a terminal that reports no size) is written for the classic 80 columns. */
export const DEFAULT_HELP_WIDTH = 80;

/** The width to wrap help at: the terminal's, else 80. */
export function helpWidth(stream: { isTTY?: boolean; columns?: number }): number {
  return stream.isTTY && stream.columns && stream.columns > 0 ? stream.columns : DEFAULT_HELP_WIDTH;
}

/** Words of `text` on lines of at most `width` columns (an over-long word keeps a line to itself). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line === '') line = word;
    else if (displayWidth(line) + 1 + displayWidth(word) <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

/**
 * `term` padded to `termWidth`, then the description wrapped beside it with a hanging indent:
 *
 *     --timeout <seconds>  deadline per HTTP request,
 *                          default 30
 *
 * When fewer than 24 columns would be left beside the term, the description starts on the next line,
 * indented by 4 more than the term. `indent` is the term's own indent (commander uses 2).
 */
export function formatItem(
  term: string,
  termWidth: number,
  description: string,
  width: number,
  indent = 2,
): string {
  const pad = ' '.repeat(indent);
  if (!description) return pad + term;
  const column = indent + termWidth + 2;
  if (width - column >= MIN_DESCRIPTION) {
    const lines = wrapWords(description, width - column);
    const first = `${pad}${term}${' '.repeat(Math.max(0, termWidth - displayWidth(term)))}  ${lines[0]}`;
    return [first, ...lines.slice(1).map((l) => ' '.repeat(column) + l)].join('\n');
  }
  const hanging = indent + 4;
  const lines = wrapWords(description, Math.max(MIN_DESCRIPTION, width - hanging));
  return [pad + term, ...lines.map((l) => ' '.repeat(hanging) + l)].join('\n');
}

/**
 * Reflows free text to `width`: a run of unindented lines is one paragraph; an indented line longer
 * than the width is wrapped under itself ("  TERM  description" lines with a hanging indent under the
 * description); `$ ` example lines and blank lines are left alone.
 */
export function wrapText(text: string, width: number): string {
  const out: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) out.push(...wrapWords(paragraph.join(' '), width));
    paragraph = [];
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      flush();
      out.push(line);
    } else if (!/^\s/.test(line)) {
      paragraph.push(line.trim());
    } else {
      flush();
      out.push(wrapIndented(line, width));
    }
  }
  flush();
  return out.join('\n');
}

function wrapIndented(line: string, width: number): string {
  if (displayWidth(line) <= width) return line;
  const indent = /^\s*/.exec(line)?.[0] ?? '';
  const rest = line.slice(indent.length);
  if (rest.startsWith('$ ')) return wrapCommand(indent, rest, width);
  const item = /^(\S(?:.*?\S)?)( {2,})(\S.*)$/.exec(rest);
  if (item) {
    const [, term = '', gap = '', description = ''] = item;
    return formatItem(term, displayWidth(term) + gap.length - 2, description, width, indent.length);
  }
  return wrapWords(rest, Math.max(MIN_DESCRIPTION, width - indent.length))
    .map((l) => indent + l)
    .join('\n');
}

/**
 * `$ agency companies create --name "Acme Ltd" --name "Blue Harbor Dental"` at 60 columns:
 *
 *     $ agency companies create --name "Acme Ltd" \
 *         --name "Blue Harbor Dental"
 */
function wrapCommand(indent: string, command: string, width: number): string {
  const words = command.match(/(?:[^\s'"]+|'[^']*'|"(?:[^"\\]|\\.)*")+/g) ?? [command];
  const continuation = `${indent}    `;
  const lines: string[] = [];
  let line = indent;
  for (const word of words) {
    const start = line === indent || line === continuation;
    // Space for the word, and for " \\" after it unless it is the last.
    if (!start && displayWidth(line) + 1 + displayWidth(word) + 2 > width) {
      lines.push(`${line} \\`);
      line = continuation + word;
    } else line = start ? line + word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join('\n');
}
