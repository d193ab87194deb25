/** The --state file: loaded on start, replaced atomically (same-directory temp file + rename, 0600). */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Store } from './store.js';
import type { SeedOptions } from './types.js';

/** The saved world if the file exists, else a fresh one. A damaged file is an error, never overwritten. */
export function loadOrSeed(path: string, seed: SeedOptions | undefined): Store {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Store.seed(seed);
    throw new Error(`Cannot read sandbox state file ${path}: ${(error as Error).message}`);
  }
  try {
    return Store.fromJSON(JSON.parse(text));
  } catch (error) {
    throw new Error(
      `Sandbox state file ${path} is damaged (${(error as Error).message}); fix or remove it, it was left untouched`,
    );
  }
}

export function saveState(path: string, store: Store): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    try {
      const data = Buffer.from(JSON.stringify(store.toJSON()));
      for (let done = 0; done < data.length; ) done += writeSync(fd, data, done);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw error;
  }
}
