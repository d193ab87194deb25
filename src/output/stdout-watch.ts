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
  }

  write(text: string): void {
    if (this.#failure) return;
    this.stream.write(text);
    // A file's stream writes synchronously and knows at once: nothing more is written after a failure.
    const errored = (this.stream as { errored?: Error | null }).errored;
    if (errored) this.#fail(errored);
  }

  /** Resolves once what was written has left the process (or could not). */
  flushed(): Promise<void> {
    if (this.#failure || this.stream.destroyed || typeof this.stream.on !== 'function')
      return Promise.resolve();
    return new Promise((resolve) => this.stream.write('', () => resolve()));
  }

  /**
   * The run's exit code now that stdout's fate is known: unchanged when stdout was fine, 0 after a
   * closed pipe, 1 after any other failure, with the message (through `report`) of what was lost.
   */
  exitCode(code: number, report: (error: OutputError) => number): number {
    const failure = this.#failure;
    if (!failure) return code;
    if (this.closed) return ExitCode.ok;
    const reason = describeWriteError(failure);
    const created = this.#created;
    if (created.length === 0)
      return report(new OutputError(`The result could not be written to stdout: ${reason}.`));
    const shown = created.slice(0, 10);
    const more = created.length > shown.length ? `\n  … and ${created.length - shown.length} more` : '';
    const commands = [...new Set(shown.map((c) => c.readBack))];
    return report(
      new OutputError(
        `The result could not be written to stdout: ${reason}. Created all the same:\n` +
          shown.map((c) => `  ${c.what}`).join('\n') +
          more,
        {
          hint: `Read ${created.length === 1 ? 'it' : 'them'} back with ${commands.map((c) => `\`${c}\``).join(', ')}.`,
        },
      ),
    );
  }
}

const watches = new WeakMap<Writable, StdoutWatch>();

/** The one watch of a stream (a run may open its output more than once). */
export function watchStdout(stream: Writable): StdoutWatch {
  let watch = watches.get(stream);
  if (!watch) {
    watch = new StdoutWatch(stream);
    watches.set(stream, watch);
  }
  return watch;
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
