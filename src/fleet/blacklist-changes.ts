/**
 * `blacklist add | remove` once the input is checked and the list is read: send only what changes
 * something (values missing for add, values listed for remove), chunk by chunk, in order, and say what
 * happened to every value. Like bulk creation, the first chunk that fails stops the run (the rest is
 * reported as not sent), so the report is exact; so does Ctrl-C between chunks (the chunk in flight
 * is let finish). A chunk whose answer was lost (no answer, a 5xx) is settled by reading the list
 * back: the values it shows done are reported done, and when all are, the run goes on.
 */
import { AgencyError, InterruptedError } from '../errors.js';
import { type BlacklistKind, chunked, planBlacklistAdd } from './blacklist.js';
import { type RowError, rowError } from './failures.js';
import { answerMayBeLost, SettledLostAnswer } from './lost-answer.js';

export type BlacklistAction = 'add' | 'remove';

type BlacklistResult = 'added' | 'exists' | 'would-add' | 'removed' | 'absent' | 'would-remove' | 'failed';

export interface BlacklistRow {
  value: string;
  result: BlacklistResult;
  /** Why a value failed, as in every fleet row: the service's status and words, or that it was not sent. */
  error?: RowError;
}

export interface BlacklistWriter {
  addToBlacklist(kind: BlacklistKind, values: string[]): Promise<void>;
  removeFromBlacklist(kind: BlacklistKind, values: string[]): Promise<void>;
}

export interface BlacklistChangeOutcome {
  rows: BlacklistRow[];
  /** The error that stopped the run, if any (its exit code is the command's); InterruptedError for Ctrl-C. */
  failure: AgencyError | undefined;
}

/** What each action reports for a value it leaves alone, sends, or would send. */
const RESULTS: Record<
  BlacklistAction,
  { unchanged: BlacklistResult; done: BlacklistResult; would: BlacklistResult }
> = {
  add: { unchanged: 'exists', done: 'added', would: 'would-add' },
  remove: { unchanged: 'absent', done: 'removed', would: 'would-remove' },
};

export interface BlacklistChangeOptions {
  dryRun: boolean;
  signal?: AbortSignal | undefined;
  /** The whole list as the service shows it now: read after a lost answer. */
  readBack: () => Promise<Iterable<string>>;
  /** Told what a read-back found when it settled a lost answer. */
  note?: (message: string) => void;
}

/** Adds the values not listed yet. */
export function addMissingToBlacklist(
  api: Pick<BlacklistWriter, 'addToBlacklist'>,
  kind: BlacklistKind,
  values: readonly string[],
  existing: Iterable<string>,
  options: BlacklistChangeOptions,
): Promise<BlacklistChangeOutcome> {
  const { toAdd, present } = planBlacklistAdd(values, existing);
  return sendChunks((chunk) => api.addToBlacklist(kind, chunk), 'add', kind, values, toAdd, present, options);
}

/** Removes the values that are listed (DELETE, the same body and chunks as adding). */
export function removeListedFromBlacklist(
  api: Pick<BlacklistWriter, 'removeFromBlacklist'>,
  kind: BlacklistKind,
  values: readonly string[],
  existing: Iterable<string>,
  options: BlacklistChangeOptions,
): Promise<BlacklistChangeOutcome> {
  const { toAdd: absent, present } = planBlacklistAdd(values, existing);
  return sendChunks(
    (chunk) => api.removeFromBlacklist(kind, chunk),
    'remove',
    kind,
    values,
    present,
    absent,
    options,
  );
}

async function sendChunks(
  send: (chunk: string[]) => Promise<void>,
  action: BlacklistAction,
  kind: BlacklistKind,
  values: readonly string[],
  toSend: readonly string[],
  unchanged: readonly string[],
  options: BlacklistChangeOptions,
): Promise<BlacklistChangeOutcome> {
  const names = RESULTS[action];
  const results = new Map<string, BlacklistRow>();
  for (const value of unchanged) results.set(value, { value, result: names.unchanged });
  let failure: AgencyError | undefined;
  for (const chunk of chunked(toSend)) {
    if (options.dryRun) {
      for (const value of chunk) results.set(value, { value, result: names.would });
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
      await send(chunk);
      for (const value of chunk) results.set(value, { value, result: names.done });
    } catch (error) {
      if (!(error instanceof AgencyError)) throw error;
      if (!answerMayBeLost(error)) {
        failure = error;
        for (const value of chunk) results.set(value, { value, result: 'failed', error: rowError(error) });
        continue;
      }
      failure = await settleChunk(chunk, error, action, kind, options, results);
    }
  }
  // Rows in the order the user gave the values.
  return { rows: values.map((value) => results.get(value) as BlacklistRow), failure };
}

/**
 * A chunk whose answer was lost: the list read back says which of its values were carried out. Those
 * are reported done; the others failed. Returns the run's failure, or undefined when every value was
 * done (the run goes on with the next chunk).
 */
async function settleChunk(
  chunk: readonly string[],
  lost: AgencyError,
  action: BlacklistAction,
  kind: BlacklistKind,
  options: BlacklistChangeOptions,
  results: Map<string, BlacklistRow>,
): Promise<AgencyError | undefined> {
  const names = RESULTS[action];
  const noun = chunk.length === 1 ? kind.slice(0, -1) : kind;
  const what = `${action === 'add' ? 'adding' : 'removing'} ${chunk.length} ${noun}`;
  let listed: Set<string>;
  try {
    listed = new Set([...(await options.readBack())].map((value) => value.trim().toLowerCase()));
  } catch (readError) {
    if (readError instanceof InterruptedError) throw readError;
    const unknown = new SettledLostAnswer(
      lost,
      `the list could not be read afterwards (${(readError as Error).message}), so whether they were ${action === 'add' ? 'added' : 'removed'} is unknown`,
      'Running the same command again is safe: it reads the list first and sends only what is still needed.',
    );
    for (const value of chunk) results.set(value, { value, result: 'failed', error: rowError(unknown) });
    return unknown;
  }
  const done = chunk.filter((value) => listed.has(value) === (action === 'add'));
  for (const value of done) results.set(value, { value, result: names.done });
  if (done.length === chunk.length) {
    options.note?.(`The answer to ${what} was lost; the list, read again, shows them all ${names.done}.`);
    return undefined;
  }
  const failure = new SettledLostAnswer(
    lost,
    `the list, read again, shows ${done.length} of ${chunk.length} ${names.done}`,
    'Running the same command again is safe: it reads the list first and sends only what is still needed.',
  );
  const error = rowError(failure);
  for (const value of chunk)
    if (!done.includes(value)) results.set(value, { value, result: 'failed', error });
  return failure;
}

/** "Added 3 domains; 2 already listed." / "Removed 2 emails; 1 not listed." for stderr. */
export function summarizeBlacklistChange(
  kind: BlacklistKind,
  rows: readonly BlacklistRow[],
  action: BlacklistAction = 'add',
): string {
  const names = RESULTS[action];
  const count = (result: BlacklistResult) => rows.filter((row) => row.result === result).length;
  const noun = (n: number) => `${n} ${n === 1 ? kind.slice(0, -1) : kind}`;
  const verb = action === 'add' ? 'add' : 'remove';
  const parts: string[] = [];
  const would = count(names.would);
  if (would > 0) parts.push(`would ${verb} ${noun(would)} (dry run, nothing sent)`);
  if (count(names.done) > 0 || (would === 0 && count('failed') === 0)) {
    parts.push(`${verb === 'add' ? 'added' : 'removed'} ${noun(count(names.done))}`);
  }
  const unchanged = count(names.unchanged);
  if (unchanged > 0) parts.push(`${unchanged} ${action === 'add' ? 'already listed' : 'not listed'}`);
  if (count('failed') > 0)
    parts.push(`${noun(count('failed'))} not ${action === 'add' ? 'added' : 'removed'}`);
  const text = parts.join('; ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}
