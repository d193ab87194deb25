/**
 * Files written whole or not at all: the bytes go into a temporary file beside the file (created new,
 * synced), which is then renamed over it, and the folder is synced so that the rename outlives a power
 * cut. A full disk, a kill or a second Ctrl-C leaves the old file as it was, and at most a temporary
 * file that `leftoverTemporaries` finds. The one writer of the history store, the sandbox's state file
 * and the pages commands write (--html); the config file is written by conf (its own atomic writer)
 * under our lock, and only its folder is synced here.
 */
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** `.<name>.<pid>.<8 hex>.tmp`: hidden, and never a name a user gives. */
const TEMPORARY = /^\.(.+)\.\d+\.[0-9a-f]{8}\.tmp$/;

/**
 * Replaces `path` with `data`. `mode` is the new file's (0600 by default: most of what we write is
 * private; the umask still applies).
 */
export function replaceFileWhole(path: string, data: string | Uint8Array, mode = 0o600): void {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  // Random enough beside the pid: the file is created new ('wx'), so a clash fails rather than shares.
  const tag = Math.floor(Math.random() * 2 ** 32)
    .toString(16)
    .padStart(8, '0');
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${tag}.tmp`);
  try {
    const fd = openSync(temporary, 'wx', mode);
    try {
      for (let written = 0; written < bytes.length; )
        written += writeSync(fd, bytes, written, bytes.length - written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  syncFolder(dirname(path));
}

/** Flushes a folder's entries (a rename in it); best effort, as not every platform opens a folder. */
export function syncFolder(folder: string): void {
  try {
    const fd = openSync(folder, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Best effort.
  }
}

/**
 * Removes the temporary files that writers of `path` killed mid-write left beside it. Call it where no
 * writer of that file can be running (under its lock).
 */
export function removeLeftoverTemporaries(path: string): void {
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names)
    if (TEMPORARY.exec(name)?.[1] === basename(path)) rmSync(join(dirname(path), name), { force: true });
}
