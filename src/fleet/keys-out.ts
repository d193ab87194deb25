/**
 * `apply --keys-out FILE`: every new key is appended as it arrives, so none is lost when the terminal
 * is. The file is created 0600 (it holds secrets), opened before the first request (a bad path stops
 * the run before anything is sent), and each line reaches the disk before the next request is made.
 */
import { closeSync, fchmodSync, fstatSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { OutputError, UsageError } from '../errors.js';
import { checkFileNameGiven, folderNotFile } from '../input/output-file.js';
import { describeWriteError } from '../output/stdout-watch.js';

export class KeysOut {
  #fd: number | undefined;

  private constructor(
    fd: number,
    readonly path: string,
  ) {
    this.#fd = fd;
  }

  static open(path: string): KeysOut {
    checkFileNameGiven('--keys-out', path, 'keys.tsv', 'Nothing was sent.');
    let fd: number;
    try {
      fd = openSync(path, 'a', 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EISDIR') throw folderNotFile('--keys-out', path, 'keys.tsv', 'Nothing was sent.');
      const why =
        code === 'ENOENT'
          ? 'its directory does not exist'
          : code === 'EACCES'
            ? 'permission denied'
            : (error as Error).message;
      throw new UsageError(`Cannot write the keys file ${path}: ${why}.`, { hint: 'Nothing was sent.' });
    }
    // An existing file that others can read is tightened: it is about to hold keys.
    try {
      if ((fstatSync(fd).mode & 0o077) !== 0) fchmodSync(fd, 0o600);
    } catch {
      // Not ours to change (another owner): the keys still go where the user asked.
    }
    return new KeysOut(fd, path);
  }

  /** Writes one line and waits for the disk. */
  append(line: string): void {
    if (this.#fd === undefined) throw new Error('keys file already closed');
    writeSync(this.#fd, line);
    fsyncSync(this.#fd);
  }

  /**
   * append(), or the error that says the file failed (a full disk): the key it held still goes to
   * stdout, and the caller creates nothing further.
   */
  tryAppend(line: string): OutputError | undefined {
    try {
      this.append(line);
      return undefined;
    } catch (error) {
      return new OutputError(
        `Could not write to the keys file ${this.path}: ${describeWriteError(error as NodeJS.ErrnoException)}. ` +
          'Nothing further was created; the new key is on stdout.',
        { hint: `Free the space (or choose another --keys-out), then run apply again to finish.` },
      );
    }
  }

  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}
