/**
 * What became of stdout during a run (contract, "Output failures and signals"), the one place that
 * decides it for every command. The writer writes through it; commands only say what they created
 * (created()), so that a result that could not be written names it and the command that reads it back.
 * A closed pipe (`| head -1`, EPIPE) is a quiet, normal end; any other failure (a full disk, an I/O
 * error) is exit 1. Either way the run is stopped: no further request starts.
 */
import type { Writable } from 'node:stream';
import { ExitCode, OutputError } from '../errors.js';

export interface Creation {
  /** In the user's terms: 'the key "zapier" of company 1001'. */
  what: string;
  /** The command that shows it again: 'agency keys list 1001 --reveal'. */
  readBack: string;
}

export class StdoutWatch {
  #failure: NodeJS.ErrnoException | undefined;
  readonly #created: Creation[] = [];
  /** Created since the last write that reached stdout: their lines are the next to be written. */
  #unwritten: Creation[] = [];
  readonly #listeners: (() => void)[] = [];

  constructor(readonly stream: Writable) {
    // Help rendering hands in a bare { write } (scripts/build.mjs): it has no errors to tell.
    if (typeof stream.on === 'function') stream.on('error', (error) => this.#fail(error));
  }

  #fail(error: NodeJS.ErrnoException): void {
    if (this.#failure) return;
    this.#failure = error;
    for (const listener of this.#listeners) listener();
  }

  /** The reader went away (EPIPE): nothing more is said, on stdout or stderr. */
  get closed(): boolean {
    return this.#failure?.code === 'EPIPE';
  }

  get failed(): boolean {
    return this.#failure !== undefined;
  }

  /** Called once, when stdout first fails (the run stops starting requests). */
  onFailure(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** Something now exists that the output was about to show. */
  created(creation: Creation): void {
    this.#created.push(creation);
    this.#unwritten.push(creation);
  }

  write(text: string): void {
    if (this.#failure) return;
    this.stream.write(text);
    // A file's stream, and on Linux a pipe's, writes synchronously and knows at once (a closed pipe:
    // EPIPE): nothing more is written, and no further request starts, after a failure.
    const errored = (this.stream as { errored?: Error | null }).errored;
    if (errored) this.#fail(errored);
    else this.#unwritten = [];
  }

  /** Resolves once what was written has left the process (or could not). */
  flushed(): Promise<void> {
    if (this.#failure || this.stream.destroyed || typeof this.stream.on !== 'function')
      return Promise.resolve();
    return new Promise((resolve) => this.stream.write('', () => resolve()));
  }

  /**
   * The run's exit code now that stdout's fate is known: unchanged when stdout was fine, 1 after a
   * failure, with the message (through `report`) of what was lost. A closed pipe is exit 0 without a
   * word, unless something was created whose line the reader never got (the pipe closed while its
   * request was out): that is named, with the command that reads it back, through `note` (stderr).
   */
  exitCode(code: number, report: (error: OutputError) => number, note: (text: string) => void): number {
    const failure = this.#failure;
    if (!failure) return code;
    if (this.closed) {
      const lost = this.#unwritten;
      if (lost.length > 0) {
        const { list, hint } = describeCreated(lost);
        note(
          `The reader of stdout left before ${lost.length === 1 ? 'this was' : 'these were'} shown; created all the same:\n${list}\nhint: ${hint}\n`,
        );
      }
      return ExitCode.ok;
    }
    const reason = describeWriteError(failure);
    const created = this.#created;
    if (created.length === 0)
      return report(new OutputError(`The result could not be written to stdout: ${reason}.`));
    const { list, hint } = describeCreated(created);
    return report(
      new OutputError(
        `The result could not be written to stdout: ${reason}. Created all the same:\n${list}`,
        {
          hint,
        },
      ),
    );
  }
}

/** The first 10 creations, one per line, and the commands that read them back. */
function describeCreated(created: readonly Creation[]): { list: string; hint: string } {
  const shown = created.slice(0, 10);
  const more = created.length > shown.length ? `\n  … and ${created.length - shown.length} more` : '';
  const commands = [...new Set(shown.map((c) => c.readBack))];
  // One command per company would make a paragraph of them: the first says how.
  const named =
    commands.length <= 2
      ? commands.map((c) => `\`${c}\``).join(', ')
      : `\`${commands[0]}\` (and likewise for the others)`;
  return {
    list: shown.map((c) => `  ${c.what}`).join('\n') + more,
    hint: `Read ${created.length === 1 ? 'it' : 'them'} back with ${named}.`,
  };
}

/** "no space left on device (ENOSPC)", in the words of the system. */
export function describeWriteError(error: NodeJS.ErrnoException): string {
  const words: Record<string, string> = {
    ENOSPC: 'no space left on device',
    EIO: 'input/output error',
    EDQUOT: 'disk quota exceeded',
    EFBIG: 'file too large',
    EROFS: 'read-only file system',
    EBADF: 'the stream is not open for writing',
  };
  const code = error.code;
  const text = (code && words[code]) ?? error.message.replace(/^[A-Z]+: /, '').replace(/, write$/, '');
  return code ? `${text} (${code})` : text;
}
