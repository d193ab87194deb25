/**
 * What a command that records does with the store, through its Runtime: whether this run is left out
 * (--no-history, AGENCY_NO_HISTORY), which agency it belongs to (GET /v1/me: the HQ account's id), and
 * the rule that the store never fails the command: a store that cannot be read or written is a
 * warning, and the result on stdout is what counts.
 */
import type { JsonObject } from '../api/types.js';
import { HistoryError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { historyFile, historyOffByEnvironment } from './paths.js';
import type { AgencyKey } from './runs.js';

/** commander's --no-history: `history` is false when it was given. */
export interface HistoryFlag {
  history?: boolean | undefined;
}

export const NO_HISTORY_OPTION = [
  '--no-history',
  'leave this run out of the local history (also AGENCY_NO_HISTORY=1)',
] as const;

/** The store's file, or undefined when this run is left out. */
export function historyFor(rt: Runtime, opts: HistoryFlag): string | undefined {
  if (opts.history === false || historyOffByEnvironment(rt.env)) return undefined;
  return historyFile(rt.env);
}

/**
 * The HQ account's id as /v1/me tells it (its shape is not documented: the agency's id where it names
 * one, else the account's own), with the base URL. Never the key.
 */
export function agencyKey(baseUrl: string, me: JsonObject): AgencyKey {
  const agency = me.agency;
  const nested =
    agency !== null && typeof agency === 'object' && !Array.isArray(agency)
      ? (agency as JsonObject).id
      : undefined;
  const id = nested ?? me.company_id ?? me.id;
  return { baseUrl, accountId: id === undefined || id === null ? '' : String(id) };
}

export async function currentAgency(rt: Runtime): Promise<AgencyKey> {
  return agencyKey(rt.ctx.baseUrl, await rt.api().me());
}

/**
 * Runs a step of the store; a failure of the store (or of the /v1/me it needs) is a warning that names
 * what happened, and the step's result is then undefined. Errors of any other kind are bugs: thrown.
 */
export async function tolerated<T>(rt: Runtime, step: () => Promise<T>): Promise<T | undefined> {
  try {
    return await step();
  } catch (error) {
    if (rt.ctx.signal.aborted) return undefined;
    if (error instanceof HistoryError) {
      // A system error ends the message ("…: ENOSPC: no space left on device, write"): a sentence first.
      const said = /[.!?]$/.test(error.message) ? error.message : `${error.message}.`;
      rt.out.warn(`${said} This run is not recorded.${error.hint ? ` ${error.hint}` : ''}`);
      return undefined;
    }
    if (error instanceof Error && 'exitCode' in error) {
      rt.out.warn(`The history is not used for this run: the account could not be read (${error.message}).`);
      return undefined;
    }
    throw error;
  }
}

/**
 * Records this run under its agency (one /v1/me, then the store changed under its lock); the store's
 * failures are warnings. Loaded and run only when the run is recorded.
 */
export async function recordRun(
  rt: Runtime,
  file: string,
  write: (db: import('sql.js').Database, agency: AgencyKey) => void,
): Promise<void> {
  const { changeStore } = await import('./store.js');
  await tolerated(rt, async () => {
    const agency = await currentAgency(rt);
    await changeStore(file, (db) => write(db, agency));
  });
}
