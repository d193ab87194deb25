/**
 * A terminal of a given width in this process: the program's main() with stdout and stderr as that
 * terminal (and stdin one, at its end), both writing to one screen as a tmux pane shows it — lines wrap
 * at the edge, `\r` and erase-line redraw a progress line, tabs stop every 8 columns, colour is not text,
 * trailing blanks are not kept. What a test reads from it is what Terminal.run (tmux.ts) reads from a real
 * one; test/e2e/virtual-terminal.test.ts holds the two to the same screens. A run costs a few ms instead
 * of a spawned binary (50-90 ms of CPU), so a test that reads a table at several widths reads one in a
 * real terminal and the others here.
 */
import { main } from '../../src/cli.js';
import { displayWidth } from '../../src/output/text.js';
import { fakeTerminal } from './fake-terminal.js';

/** The cells of a screen, written as a terminal does. */
export class Screen {
  readonly #width: number;
  readonly #rows: string[][] = [[]];
  #row = 0;
  #column = 0;
  /** The last column was written: the next character goes to the next line (as xterm and tmux do). */
  #atEdge = false;
  /** An escape sequence split between two writes. */
  #partial = '';

  constructor(width: number) {
    this.#width = width;
  }

  write(text: string): void {
    const input = this.#partial + text;
    this.#partial = '';
    let i = 0;
    while (i < input.length) {
      const char = input[i] as string;
      if (char === '\u001b') {
        // CSI (ESC [ parameters final) or another two-character escape; only erase-line changes text.
        const rest = input.slice(i + 1, i + 33);
        const csi = /^\[([0-9;?]*)([@-~])/.exec(rest);
        if (!csi && i + 33 > input.length && /^(\[[0-9;?]*)?$/.test(rest)) {
          this.#partial = input.slice(i);
          return;
        }
        if (csi?.[2] === 'K') this.#eraseLine(csi[1] ?? '');
        i += csi ? csi[0].length + 1 : 2;
        continue;
      }
      const code = input.codePointAt(i) as number;
      const symbol = String.fromCodePoint(code);
      i += symbol.length;
      if (symbol === '\n') this.#newLine();
      else if (symbol === '\r') [this.#column, this.#atEdge] = [0, false];
      else if (symbol === '\t')
        this.#column = Math.min(this.#width - 1, (Math.floor(this.#column / 8) + 1) * 8);
      else if (code >= 0x20 && code !== 0x7f) this.#put(symbol);
    }
  }

  /** The lines shown, trailing blanks removed; the cursor's line left out while it is empty. */
  text(): string {
    const rows = this.#rows.map((cells) => cells.join('').trimEnd());
    if (this.#column === 0 && !this.#atEdge && rows[this.#row] === '') rows.splice(this.#row, 1);
    return rows.join('\n');
  }

  #put(symbol: string): void {
    const width = displayWidth(symbol);
    const cells = this.#line();
    if (width === 0) {
      // A combining mark joins the character before it.
      const at = Math.max(0, this.#column - 1);
      cells[at] = `${cells[at] ?? ' '}${symbol}`;
      return;
    }
    if (this.#atEdge || this.#column + width > this.#width) this.#newLine();
    const line = this.#line();
    while (line.length < this.#column) line.push(' ');
    line[this.#column] = symbol;
    // The second column of a wide character shows nothing of its own.
    if (width === 2) line[this.#column + 1] = '';
    this.#column += width;
    if (this.#column >= this.#width) [this.#column, this.#atEdge] = [this.#width - 1, true];
  }

  #newLine(): void {
    this.#row += 1;
    this.#column = 0;
    this.#atEdge = false;
    this.#line();
  }

  #line(): string[] {
    while (this.#rows.length <= this.#row) this.#rows.push([]);
    return this.#rows[this.#row] as string[];
  }

  #eraseLine(mode: string): void {
    const cells = this.#line();
    if (mode === '2') cells.length = 0;
    else if (mode === '1') cells.fill(' ', 0, this.#column + 1);
    else cells.length = Math.min(cells.length, this.#column);
  }
}

/**
 * The words of a command line as a shell splits them: quotes and backslashes. A line that needs more of a
 * shell (a pipe, a variable, a redirection, a glob) is refused: run it in a real terminal.
 */
export function shellWords(commandLine: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < commandLine.length; i++) {
    const char = commandLine[i] as string;
    if (char === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (char === "'" || char === '"') {
      const end = commandLine.indexOf(char, i + 1);
      if (end === -1) throw new Error(`an unclosed ${char} in: ${commandLine}`);
      const quoted = commandLine.slice(i + 1, end);
      if (char === '"' && /[$`\\]/.test(quoted)) throw new Error(`needs a shell: ${commandLine}`);
      word = (word ?? '') + quoted;
      i = end;
    } else if (char === '\\') {
      word = (word ?? '') + (commandLine[i + 1] ?? '');
      i += 1;
    } else if (/[|&;<>()$`*?[\]{}~#!\n]/.test(char)) {
      throw new Error(`needs a shell (${char}): ${commandLine}`);
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * `agency <args>` run in this process as Terminal.run runs it in tmux (a terminal of `width` columns,
 * exactly `env` as the environment): what the screen showed, and the exit code.
 */
export async function runInVirtualTerminal(
  commandLine: string,
  { width, env }: { width: number; env: Record<string, string> },
): Promise<{ output: string; exit: number }> {
  const [program, ...args] = shellWords(commandLine);
  if (program !== 'agency') throw new Error(`not an agency command line: ${commandLine}`);
  const screen = new Screen(width);
  const terminal = fakeTerminal({
    tty: true,
    stdinTTY: true,
    columns: width,
    onWrite: (text) => screen.write(text),
  });
  const exit = await main(args, { ...terminal.streams, env: { ...env } });
  return { output: screen.text(), exit };
}
