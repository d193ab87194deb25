/** The --state file: loaded on start, replaced whole (src/whole-file.ts, 0600). */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { replaceFileWhole } from '../whole-file.js';
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
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  replaceFileWhole(path, JSON.stringify(store.toJSON()));
}
