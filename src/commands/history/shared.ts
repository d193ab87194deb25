/**
 * What the `history` verbs share: their targets (--company, --file: ids or the exact names the store
 * recorded, matched without a request) and --since, and which agency's runs to read: the one of the
 * current profile (its base URL; when the store holds several agencies there, /v1/me tells which).
 */
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { Database } from 'sql.js';
import { UsageError } from '../../errors.js';
import type { HistoryFilter } from '../../history/queries.js';
import type { Runtime } from '../../runtime.js';
import { option } from '../../terms.js';
import { collectValues, type NoOptions, type OptionsOf } from '../command.js';

/** The targets and --since added to `command`, which keeps its arguments and options (see OptionsOf). */
export function addHistoryTargets<Opts extends OptionValues>(command: Command<[], Opts>) {
  return command
    .option('--company <company>', 'only this client (id or exact name; repeatable)', collectValues)
    .option('--file <path>', "only the clients of a file: ids or exact names, one per line ('-' = stdin)")
    .option('--since <date>', 'only from this day on, YYYY-MM-DD');
}

export type HistoryTargetFlags = OptionsOf<typeof addHistoryTargets<NoOptions>>;

/** The store's file (AGENCY_STATE_DIR or the platform's state directory), and the filter of the verb. */
export async function readHistory<T>(
  rt: Runtime,
  flags: HistoryTargetFlags,
  read: (db: Database, filter: HistoryFilter | undefined) => T,
  extra: Partial<HistoryFilter> = {},
): Promise<T> {
  const { parseDay } = await import('../../input/period.js');
  const since = flags.since === undefined ? undefined : parseDay(flags.since, option('since'));
  const refs = [...(flags.company ?? [])];
  if (flags.file !== undefined) {
    const { readRunInput } = await import('../../input/read.js');
    const { text } = await readRunInput(rt, flags.file);
    for (const line of text.split('\n').map((l) => l.trim()))
      if (line !== '' && !line.startsWith('#')) refs.push(line);
  }
  // Checked as every --company is (digits an id, else a name; 0 refused) before the store is opened.
  const { parseCompanyRef } = await import('../../fleet/resolve.js');
  const parsed = refs.map((ref) => parseCompanyRef(ref));
  const { historyFile } = await import('../../history/paths.js');
  const { readStore } = await import('../../history/store.js');
  const { agenciesAt, companiesNamed } = await import('../../history/queries.js');
  const { findAgency } = await import('../../history/runs.js');
  const file = historyFile(rt.env);
  const baseUrl = rt.ctx.baseUrl;
  // Several agencies recorded at this URL (api.woodpecker.co): the HQ account says which is ours.
  const known = await readStore(file, (db) => agenciesAt(db, baseUrl));
  let agencyId = known.length === 1 ? known[0]?.id : undefined;
  if (known.length > 1) {
    const { currentAgency } = await import('../../history/record.js');
    const agency = await currentAgency(rt);
    agencyId = await readStore(file, (db) => findAgency(db, agency));
  }
  return readStore(file, (db) => {
    if (agencyId === undefined) return read(db, undefined);
    const companies = parsed.flatMap((ref) => {
      // As parsed: exact beyond 2^53 (a plain number would be a neighbour's id).
      if (ref.id !== undefined) return [ref.id];
      const ids = companiesNamed(db, agencyId, ref.name);
      if (ids.length === 0)
        throw new UsageError(`No client named ${JSON.stringify(ref.name)} in the history.`);
      return ids;
    });
    return read(db, { agencyId, companies, since, ...extra });
  });
}

/** Said when the store has nothing of this agency yet. */
export function nothingRecorded(rt: Runtime, what: string): void {
  rt.out.info(`Nothing recorded yet for ${rt.ctx.baseUrl}: ${what}`);
}
