/**
 * The history store: one ordinary SQLite file, history.db, read and written with sql.js (SQLite compiled
 * to WebAssembly: nothing to compile or download at install time). sql.js works on a copy in memory, so
 * a write is: take the lock (src/file-lock.ts, as the config file's writers do), read the file afresh,
 * change the copy, write it whole to a temporary file (0600, synced) and rename it over the old one.
 * So two runs at once (cron overlap) are both recorded, one after the other; a reader (this tool, or
 * `sqlite3 history.db`) sees the old file or the new one, never half of one; a crash or a full disk
 * leaves the old file. A file that is not a sound SQLite database is never written over: the run is
 * not recorded and the file is left byte for byte as it was.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database, SqlJsStatic } from 'sql.js';
import { HistoryError } from '../errors.js';
import { acquireLock } from '../file-lock.js';
import { removeLeftoverTemporaries, replaceFileWhole } from '../whole-file.js';
import { SCHEMA, SCHEMA_VERSION } from './schema.js';

/** Runs older than this are pruned by the next run that records. */
const RETENTION_DAYS = 400;

let engine: Promise<SqlJsStatic> | undefined;

/** sql.js and its WebAssembly, loaded once per process and only by the commands that use the store. */
function sqlite(): Promise<SqlJsStatic> {
  engine ??= import('sql.js').then(({ default: initSqlJs }) => initSqlJs());
  return engine;
}

/** The store's bytes; undefined when there is no store yet. */
function readBytes(file: string): Uint8Array | undefined {
  try {
    return readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new HistoryError(
      'unwritable',
      `Cannot read the history store ${file}: ${(error as Error).message}`,
    );
  }
}

function damaged(file: string, reason: string): HistoryError {
  return new HistoryError('damaged', `The history store ${file} is damaged (${reason}).`, {
    hint: `It is left as it is. Move it away (mv ${file} ${file}.damaged) to start a new one.`,
  });
}

/** Opens a copy of the store in memory; a file that is not a sound SQLite database is an error. */
async function open(file: string, bytes: Uint8Array | undefined): Promise<Database> {
  const { Database } = await sqlite();
  let db: Database | undefined;
  try {
    db = new Database(bytes);
    const check = db.exec('PRAGMA quick_check')[0]?.values[0]?.[0];
    if (check !== 'ok') throw new Error(String(check ?? 'no answer to its check'));
    const found = schemaVersion(db);
    if (found > SCHEMA_VERSION) {
      throw new Error(`it was written by a newer agency (schema ${found}; this one knows ${SCHEMA_VERSION})`);
    }
    db.exec('PRAGMA foreign_keys = ON');
    return db;
  } catch (error) {
    db?.close();
    if (error instanceof HistoryError) throw error;
    throw damaged(file, (error as Error).message);
  }
}

/** Runs `read` on the store as it is now (an empty store when there is none yet). */
export async function readStore<T>(file: string, read: (db: Database) => T): Promise<T> {
  const db = await open(file, readBytes(file));
  try {
    if (!hasTables(db)) db.exec(SCHEMA);
    return read(db);
  } finally {
    db.close();
  }
}

/** The schema version the file says it has (a store made before the version was kept: this one). */
function schemaVersion(db: Database): number {
  if (db.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").length === 0)
    return SCHEMA_VERSION;
  const value = db.exec("SELECT value FROM meta WHERE key = 'schema_version'")[0]?.values[0]?.[0];
  return value === undefined ? SCHEMA_VERSION : Number(value);
}

function hasTables(db: Database): boolean {
  return db.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs'").length > 0;
}

/**
 * Changes the store under the lock: `change` gets the current copy (with every table), then runs older
 * than the retention are pruned and the copy replaces the file. Returns what `change` returned.
 */
export async function changeStore<T>(
  file: string,
  change: (db: Database) => T,
  { now = new Date(), prune = true }: { now?: Date; prune?: boolean } = {},
): Promise<T> {
  const dir = dirname(file);
  await sqlite();
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new HistoryError(
      'unwritable',
      `Cannot create the history directory ${dir}: ${(error as Error).message}`,
    );
  }
  const release = await acquireLock(`${file}.lock`, {
    cannotLock: (lockFile, reason) =>
      new HistoryError('unwritable', `Cannot lock the history store (${lockFile}): ${reason}`),
    busy: (lockFile) =>
      new HistoryError('busy', `The history store is locked by another agency process (${lockFile}).`, {
        hint: 'If no other agency process is running, remove the lock file.',
      }),
  });
  try {
    removeLeftoverTemporaries(file);
    const db = await open(file, readBytes(file));
    try {
      db.exec(SCHEMA);
      db.run("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)", [
        String(SCHEMA_VERSION),
      ]);
      const result = change(db);
      if (prune) pruneOlderThan(db, RETENTION_DAYS, now);
      replaceFile(file, db.export());
      return result;
    } finally {
      db.close();
    }
  } finally {
    release();
  }
}

/** Deletes the runs (and their rows) recorded more than `days` days before `now`; 0: every run. */
export function pruneOlderThan(db: Database, days: number, now: Date): number {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
  db.run(days === 0 ? 'DELETE FROM runs' : 'DELETE FROM runs WHERE at < ?', days === 0 ? [] : [cutoff]);
  const pruned = db.getRowsModified();
  if (days === 0) db.run('DELETE FROM invitations');
  else db.run('DELETE FROM invitations WHERE invited_at < ?', [cutoff]);
  return pruned;
}

/** The store whole (src/whole-file.ts): a full disk or a kill leaves the last good file. */
function replaceFile(file: string, bytes: Uint8Array): void {
  try {
    replaceFileWhole(file, bytes);
  } catch (error) {
    throw new HistoryError(
      'unwritable',
      `Cannot write the history store ${file}: ${(error as Error).message}`,
    );
  }
}
