/**
 * Help text that fits the terminal: paragraphs are reflowed to its width, lists get a hanging indent,
 * and no word is ever broken (a word wider than the screen stays whole on a line of its own). An example
 * command line (`  $ agency ...`) too long for the screen is continued with ` \` between shell words
 * (never inside quotes, never between an option and its value), so that it can still be copied and pasted;
 * a trailing `# comment` goes on its own line above the command (at every width), never wrapped into
 * it. A sample (a YAML file's lines) is printed as it is written. Help is never wider than 100 columns,
 * however wide the terminal: longer lines are hard to read (gh and git stop at 80 to 100 too).
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
/** On a wider terminal, help lines stop here: prose the full width of a 200-column screen is hard to read. */
const MAX_HELP_WIDTH = 100;

/** The width to wrap help at: the terminal's up to 100 columns, else 80. */
export function helpWidth(stream: { isTTY?: boolean; columns?: number }): number {
  return stream.isTTY && stream.columns && stream.columns > 0
    ? Math.min(stream.columns, MAX_HELP_WIDTH)
    : DEFAULT_HELP_WIDTH;
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
 * description); an example command (`$ ` and the lines that continue it after `|`, `\`, `&&` or
 * `||`) is continued with ` \`; a sample (an indented block with a `key:` line, YAML) and blank lines
 * are left alone.
 */
export function wrapText(text: string, width: number): string {
  const out: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) out.push(...wrapWords(paragraph.join(' '), width));
    paragraph = [];
  };
  const lines = text.split('\n');
  const sample = sampleLines(lines);
  let continuesCommand = false;
  lines.forEach((line, index) => {
    const command = /^\s+\$ /.test(line) || (continuesCommand && /^\s/.test(line));
    continuesCommand = command && /(\||\\|&&)\s*$/.test(line);
    if (line.trim() === '') {
      flush();
      out.push(line);
    } else if (!/^\s/.test(line)) {
      paragraph.push(line.trim());
    } else {
      flush();
      if (sample.has(index)) out.push(line);
      else if (command) out.push(wrapCommand(line, width));
      else if (displayWidth(line) <= width) out.push(line);
      else out.push(wrapIndented(line, width));
    }
  });
  flush();
  return out.join('\n');
}

/** YAML: a line that starts a mapping entry (`  defaults:`, `    keys: [zapier]`). */
const SAMPLE_LINE = /^\s+[A-Za-z_][\w-]*:(\s|$)/;

/**
 * The indexes of the lines of samples: each block of indented lines (up to a blank or unindented
 * line) with a YAML mapping line in it. Wrapping one would change what it says.
 */
function sampleLines(lines: readonly string[]): Set<number> {
  const sample = new Set<number>();
  let block: number[] = [];
  const close = () => {
    if (block.some((i) => SAMPLE_LINE.test(lines[i] ?? ''))) for (const i of block) sample.add(i);
    block = [];
  };
  lines.forEach((line, index) => {
    if (/^\s+\S/.test(line) && !/^\s+\$ /.test(line)) block.push(index);
    else close();
  });
  close();
  return sample;
}

function wrapIndented(line: string, width: number): string {
  const indent = /^\s*/.exec(line)?.[0] ?? '';
  const rest = line.slice(indent.length);
  const item = /^(\S(?:.*?\S)?)( {2,})(\S.*)$/.exec(rest);
  if (item) {
    const [, term = '', gap = '', description = ''] = item;
    return formatItem(term, displayWidth(term) + gap.length - 2, description, width, indent.length);
  }
  return wrapWords(rest, Math.max(MIN_DESCRIPTION, width - indent.length))
    .map((l) => indent + l)
    .join('\n');
}

/** Shell words: runs of unquoted text and quoted strings, each with where it starts. */
function shellWords(command: string): { word: string; at: number }[] {
  return [...command.matchAll(/(?:[^\s'"]+|'[^']*'|"(?:[^"\\]|\\.)*")+/g)].map((m) => ({
    word: m[0],
    at: m.index ?? 0,
  }));
}

/**
 * The pieces a command line may be broken between: shell words, except that an option stays with
 * its value (`--event prospect_bounced`, never `--event \` then `prospect_bounced`).
 */
function commandPieces(words: readonly string[]): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    const next = words[i + 1];
    const takesValue = /^--?[A-Za-z][\w-]*$/.test(word) && next !== undefined && !/^(-.|[|&;<>#])/.test(next);
    if (takesValue) {
      pieces.push(`${word} ${next}`);
      i++;
    } else pieces.push(word);
  }
  return pieces;
}

/**
 * `$ agency companies create --name "Acme Ltd" --name "Blue Harbor Dental"` at 60 columns:
 *
 *     $ agency companies create --name "Acme Ltd" \
 *         --name "Blue Harbor Dental"
 *
 * A trailing comment goes on its own line(s) above, as `# …`, at every width (so the help reads the
 * same on any screen): a ` \` inside a comment would not continue the command, and pasting the
 * lines would run the comment's words.
 */
function wrapCommand(line: string, width: number): string {
  const indent = /^\s*/.exec(line)?.[0] ?? '';
  const command = line.slice(indent.length);
  const words = shellWords(command);
  const hash = words.findIndex((w, i) => i > 0 && w.word.startsWith('#'));
  if (hash > 0) {
    const at = words[hash]?.at ?? command.length;
    const comment = command.slice(at).replace(/^#\s*/, '');
    const commentLines = wrapWords(comment, Math.max(MIN_DESCRIPTION, width - indent.length - 2));
    return [
      ...commentLines.map((l) => `${indent}# ${l}`),
      wrapCommand(indent + command.slice(0, at).trimEnd(), width),
    ].join('\n');
  }
  if (displayWidth(line) <= width) return line;
  const continuation = `${indent}    `;
  const lines: string[] = [];
  let current = indent;
  for (const piece of commandPieces(words.map((w) => w.word))) {
    const start = current === indent || current === continuation;
    // Space for the piece, and for " \\" after it unless it is the last.
    if (!start && displayWidth(current) + 1 + displayWidth(piece) + 2 > width) {
      lines.push(`${current} \\`);
      current = continuation + piece;
    } else current = start ? current + piece : `${current} ${piece}`;
  }
  lines.push(current);
  return lines.join('\n');
}

/**
 * Each line of `text` that is wider than `width`, wrapped between words: continuation lines indented 2
 * more than the line's own indent (a list under a message keeps its indent). No width: as it is.
 */
export function hangingWrap(text: string, width: number | undefined): string {
  if (!width) return text;
  const lines = text.split('\n').flatMap((line) => {
    if (displayWidth(line) <= width) return [line];
    const indent = /^\s*/.exec(line)?.[0] ?? '';
    // Continuation lines are indented 2 more than the first: wrap them 2 narrower, or they overflow.
    const [first = '', ...rest] = wrapWords(line, Math.max(20, width - indent.length));
    const tail = rest.length ? wrapWords(rest.join(' '), Math.max(20, width - indent.length - 2)) : [];
    return [indent + first, ...tail.map((part) => `${indent}  ${part}`)];
  });
  return lines.join('\n');
}
