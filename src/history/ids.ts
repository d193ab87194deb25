/**
 * Ids in history.db, kept exactly: SQLite's INTEGER holds 64 bits, so a company id beyond 2^53 (an
 * ExactInteger, src/api/json.ts: a double would be a neighbour's id) is bound as the BigInt of its
 * digits, and integers are read back as BigInts, then held as the tool holds every id (a number when a
 * double holds it exactly, else an ExactInteger). The columns are those of every earlier store, so a
 * store written before reads the same way: no migration.
 */
import type { BindValue, SqlValue } from 'sql.js';
import { ExactInteger, exactInteger } from '../api/json.js';

/** A value to bind: an ExactInteger as its exact integer, anything else as it is. */
export function bindable(value: SqlValue): BindValue {
  return value instanceof ExactInteger ? BigInt(value.digits) : value;
}

/** A value as read with `useBigInt`: an integer as a number when a double holds it, else an ExactInteger. */
export function fromStore(value: SqlValue | bigint): SqlValue {
  return typeof value === 'bigint' ? exactInteger(String(value)) : value;
}

/** A stored id: read as fromStore() made it (a number or an ExactInteger), never through a double. */
export function storedId(value: SqlValue | undefined): number {
  return typeof value === 'number' || value instanceof ExactInteger
    ? (value as number)
    : exactInteger(String(value));
}
