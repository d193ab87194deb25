/**
 * The terminal facts of one run, decided in one place (as gh's iostreams): which streams are terminals,
 * how wide stdout is, and whether colour may be used. Everything else asks here instead of a stream.
 */
import type { Readable, Writable } from 'node:stream';
import type { StdoutWatch } from './stdout-watch.js';
import { Writer } from './writer.js';

export interface TerminalStreams {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean; columns?: number };
  /**
   * Opens the controlling terminal for reading an answer when stdin is not a terminal (bin/agency.js:
   * /dev/tty); absent or undefined: there is none to ask on.
   */
  openTty?: (() => AnswerInput | undefined) | undefined;
}

/** Where an answer is read from: a terminal opened for one question, destroyed after it. */
export type AnswerInput = Readable & { isTTY?: boolean };

/** What the environment says about the terminal (read by context.ts) and the global flags. */
export interface TerminalSettings {
  json: boolean;
  /** --csv, --columns and -q (see WriterOptions). */
  csv?: boolean | undefined;
  columns?: string | undefined;
  quiet?: boolean | undefined;
  /** False with --no-color, NO_COLOR, FORCE_COLOR=0 or TERM=dumb. */
  colorAllowed: boolean;
  /** TERM=dumb: no progress line (it moves the cursor). */
  dumbTerminal?: boolean | undefined;
  /** COLUMNS, for a pty that reports no size. */
  columnsHint: number | undefined;
}

export interface Terminal {
  /** Created on first use: reading process.stdin creates its stream, which most commands never need. */
  readonly stdin: Readable & { isTTY?: boolean };
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /** For questions asked on a terminal (they never go to stdout). */
  readonly stderr: Writable;
  /** The controlling terminal, opened to read an answer when stdin is taken; undefined when there is none. */
  openControllingTerminal(): AnswerInput | undefined;
  /**
   * A line for the person at the terminal (how to end what they type): stderr, wrapped like messages,
   * kept with -q since it says how to go on.
   */
  tell(message: string): void;
}

export function openTerminal(
  streams: TerminalStreams,
  settings: TerminalSettings,
  /** The run's watch of stdout (one per run, so that every writer knows what became of it). */
  stdoutWatch?: StdoutWatch,
): {
  terminal: Terminal;
  out: Writer;
} {
  const stdoutIsTTY = streams.stdout.isTTY === true;
  const stderrIsTTY = streams.stderr.isTTY === true;
  const out = new Writer(
    {
      stdout: streams.stdout,
      stderr: streams.stderr,
      stdoutIsTTY,
      stderrIsTTY,
      // A pty that reports no size (script, some CI runners) still deserves a table that fits.
      columns: stdoutIsTTY ? streams.stdout.columns || settings.columnsHint || 80 : undefined,
    },
    {
      json: settings.json,
      csv: settings.csv,
      columns: settings.columns,
      quiet: settings.quiet,
      // Colour only ever goes to a terminal.
      color: settings.colorAllowed && stdoutIsTTY,
      stderrColor: settings.colorAllowed && stderrIsTTY,
      dumbTerminal: settings.dumbTerminal,
    },
    stdoutWatch,
  );
  const terminal: Terminal = {
    get stdin() {
      return streams.stdin;
    },
    get stdinIsTTY() {
      return streams.stdin.isTTY === true;
    },
    stdoutIsTTY,
    stderrIsTTY,
    stderr: streams.stderr,
    openControllingTerminal: () => streams.openTty?.(),
    tell: (message) => out.log(message),
  };
  return { terminal, out };
}
