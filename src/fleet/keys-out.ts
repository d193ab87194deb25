/**
 * Files a run appends to line by line as things happen, so that none is lost when the terminal (or the
 * process) is: `apply --keys-out FILE` (every new key) and `campaigns pause|stop --record FILE` (every
 * campaign changed). The file is created 0600 (keys are secrets; a record says what the agency did),
 * opened before the first request (a bad path stops the run before anything is sent), and each line
 * reaches the disk (fsync) before the next request is made.
 */
import { closeSync, fchmodSync, fstatSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { OutputError, UsageError } from '../errors.js';
import { checkFileNameGiven, folderNotFile } from '../input/output-file.js';
import { describeWriteError } from '../output/stdout-watch.js';
import { option } from '../terms.js';

/** What one kind of appended file is called in messages, and what a failed line leaves behind. */
export interface AppendedFileKind {
  /** The option that names it: `--keys-out`. */
  option: string;
  /** A file name to offer: `keys.tsv`. */
  example: string;
  /** "the keys file". */
  noun: string;
  /** What the error of a line that could not be written says after the reason. */
  consequence: string;
  hint: string;
}

const KEYS_FILE: AppendedFileKind = {
  option: option('keys-out'),
  example: 'keys.tsv',
  noun: 'the keys file',
  consequence: 'Nothing further was created; the new key is on stdout.',
  hint: `Free the space (or choose another ${option('keys-out')}), then run apply again to finish.`,
};

export class AppendedFile {
  #fd: number | undefined;

  private constructor(
    fd: number,
    readonly path: string,
    private readonly kind: AppendedFileKind,
  ) {
    this.#fd = fd;
  }

  static open(path: string, kind: AppendedFileKind): AppendedFile {
    checkFileNameGiven(kind.option, path, kind.example, 'Nothing was sent.');
    let fd: number;
    try {
      fd = openSync(path, 'a', 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EISDIR') throw folderNotFile(kind.option, path, kind.example, 'Nothing was sent.');
      const why =
        code === 'ENOENT'
          ? 'its directory does not exist'
          : code === 'EACCES'
            ? 'permission denied'
            : (error as Error).message;
      throw new UsageError(`Cannot write ${kind.noun} ${path}: ${why}.`, { hint: 'Nothing was sent.' });
    }
    // An existing file that others can read is tightened: it is about to hold keys, or a record.
    try {
      if ((fstatSync(fd).mode & 0o077) !== 0) fchmodSync(fd, 0o600);
    } catch {
      // Not ours to change (another owner): the lines still go where the user asked.
    }
    return new AppendedFile(fd, path, kind);
  }

  /** Writes one line and waits for the disk. */
  append(line: string): void {
    if (this.#fd === undefined) throw new Error(`${this.kind.noun} is already closed`);
    writeSync(this.#fd, line);
    fsyncSync(this.#fd);
  }

  /**
   * append(), or the error that says the file failed (a full disk): what the line held is still on
   * stdout, and the caller sends nothing further.
   */
  tryAppend(line: string): OutputError | undefined {
    try {
      this.append(line);
      return undefined;
    } catch (error) {
      const why = describeWriteError(error as NodeJS.ErrnoException);
      return new OutputError(
        `Could not write to ${this.kind.noun} ${this.path}: ${why}. ${this.kind.consequence}`,
        {
          hint: this.kind.hint,
        },
      );
    }
  }

  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}

/** `apply --keys-out FILE`. */
export type KeysOut = AppendedFile;
export const KeysOut = { open: (path: string): KeysOut => AppendedFile.open(path, KEYS_FILE) };
