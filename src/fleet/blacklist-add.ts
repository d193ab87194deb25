/**
 * `blacklist add` once its input is checked and the list is read: send what is missing, chunk by
 * chunk, in order, and say what happened to every value. Like bulk creation, the first chunk that
 * fails stops the run (the rest is reported as not sent), so the report is exact; so does Ctrl-C
 * between chunks (the chunk in flight is let finish).
 */
import { AgencyError, InterruptedError } from '../errors.js';
import { type BlacklistKind, chunked, planBlacklistAdd } from './blacklist.js';
import { type RowError, rowError } from './failures.js';

export type BlacklistResult = 'added' | 'exists' | 'would-add' | 'failed';

export interface BlacklistRow {
  value: string;
  result: BlacklistResult;
  /** Why a value failed, as in every fleet row: the service's status and words, or that it was not sent. */
  error?: RowError;
}

export interface BlacklistWriter {
  addToBlacklist(kind: BlacklistKind, values: string[]): Promise<void>;
}

export interface BlacklistAddOutcome {
  rows: BlacklistRow[];
  /** The error that stopped the run, if any (its exit code is the command's); InterruptedError for Ctrl-C. */
  failure: AgencyError | undefined;
}

export async function addMissingToBlacklist(
  api: BlacklistWriter,
  kind: BlacklistKind,
  values: readonly string[],
  existing: Iterable<string>,
  options: { dryRun: boolean; signal?: AbortSignal | undefined },
): Promise<BlacklistAddOutcome> {
  const plan = planBlacklistAdd(values, existing);
  const results = new Map<string, BlacklistRow>();
  for (const value of plan.present) results.set(value, { value, result: 'exists' });
  let failure: AgencyError | undefined;
  for (const chunk of chunked(plan.toAdd)) {
    if (options.dryRun) {
      for (const value of chunk) results.set(value, { value, result: 'would-add' });
      continue;
    }
    if (!failure && options.signal?.aborted) failure = new InterruptedError();
    if (failure) {
      const error: RowError = {
        status: null,
        message:
          failure instanceof InterruptedError
            ? 'not sent: interrupted'
            : 'not sent: an earlier request failed',
      };
      for (const value of chunk) results.set(value, { value, result: 'failed', error });
      continue;
    }
    try {
      await api.addToBlacklist(kind, chunk);
      for (const value of chunk) results.set(value, { value, result: 'added' });
    } catch (error) {
      if (!(error instanceof AgencyError)) throw error;
      failure = error;
      for (const value of chunk) results.set(value, { value, result: 'failed', error: rowError(error) });
    }
  }
  // Rows in the order the user gave the values.
  return { rows: values.map((value) => results.get(value) as BlacklistRow), failure };
}

/** "Added 3 domains; 2 were already listed." for stderr. */
export function summarizeBlacklistAdd(kind: BlacklistKind, rows: readonly BlacklistRow[]): string {
  const count = (result: BlacklistResult) => rows.filter((row) => row.result === result).length;
  const noun = (n: number) => `${n} ${n === 1 ? kind.slice(0, -1) : kind}`;
  const parts: string[] = [];
  if (count('would-add') > 0) parts.push(`would add ${noun(count('would-add'))} (dry run, nothing sent)`);
  if (count('added') > 0 || (count('would-add') === 0 && count('failed') === 0)) {
    parts.push(`added ${noun(count('added'))}`);
  }
  if (count('exists') > 0) parts.push(`${count('exists')} already listed`);
  if (count('failed') > 0) parts.push(`${noun(count('failed'))} not added`);
  const text = parts.join('; ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
