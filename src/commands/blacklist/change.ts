/**
 * What `blacklist add` and `blacklist remove` share: the options, reading the values (arguments and
 * --file), the local checks made before any request, and the rows they print. The sending is in
 * src/fleet/blacklist-changes.ts.
 */
import type { Command } from '@commander-js/extra-typings';
import type { AgencyError } from '../../errors.js';
import {
  type BlacklistEntry,
  type BlacklistKind,
  listOf,
  normalizeBlacklistEntries,
} from '../../fleet/blacklist.js';
import {
  addMissingToBlacklist,
  type BlacklistAction,
  type BlacklistRow,
  removeListedFromBlacklist,
  summarizeBlacklistChange,
} from '../../fleet/blacklist-changes.js';
import { runFailure } from '../../fleet/failures.js';
import { readRunInput } from '../../input/read.js';
import { withReasonIfFailed } from '../../output/columns.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { argument, inputLine } from '../../terms.js';
import { type CommandText, helpText, type OptionsOf, type Run } from '../command.js';
import { addKindOptions, blacklistKind } from './kind.js';
import { readBlacklist } from './list.js';

export const VALUES_FILE_HELP = "values from a file, one per line ('-' = stdin; blank and # lines skipped)";

export function defineChange(blacklist: Command, run: Run, action: BlacklistAction, text: CommandText): void {
  configureChange(blacklist, action, text).action(
    run((rt, values: string[], opts: ChangeOptions) => changeBlacklist(rt, action, values, opts)),
  );
}

function configureChange(blacklist: Command, action: BlacklistAction, text: CommandText) {
  return addKindOptions(
    blacklist.command(action).description(text.description),
    action === 'add' ? 'add to' : 'remove from',
    true,
  )
    .argument('[values...]', 'domains (example.com) or addresses (name@example.com)')
    .option('--file <path>', VALUES_FILE_HELP)
    .option(
      '--dry-run',
      `read the list and show what would be ${action === 'add' ? 'added' : 'removed'}; send nothing`,
    )
    .addHelpText('after', helpText(text));
}

type ChangeOptions = OptionsOf<typeof configureChange>;

/** The values of the arguments, then of --file, each with where it came from. */
export async function readValueEntries(
  rt: Runtime,
  values: readonly string[],
  file: string | undefined,
): Promise<BlacklistEntry[]> {
  const entries: BlacklistEntry[] = values.map((value, i) => ({ value, where: argument(i + 1) }));
  if (file === undefined) return entries;
  const { text, source } = await readRunInput(rt, file);
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((line, index) => {
      const value = line.trim();
      if (value !== '' && !value.startsWith('#'))
        entries.push({ value, where: inputLine(source, index + 1) });
    });
  return entries;
}

const columns: Column<BlacklistRow>[] = [
  { header: 'value', value: (r) => r.value },
  { header: 'result', value: (r) => r.result },
];
/** Only when a value failed: piped rows of a clean run keep two fields. */
const errorColumn: Column<BlacklistRow> = { header: 'error', value: (r) => r.error?.message };

async function changeBlacklist(
  rt: Runtime,
  action: BlacklistAction,
  values: string[],
  opts: ChangeOptions,
): Promise<void> {
  // Without --domains / --emails, each value goes to the list its form names.
  const chosen = opts.domains || opts.emails ? blacklistKind(opts) : 'either';
  const shown = withReasonIfFailed(rt.out, columns, errorColumn);
  const entries = await readValueEntries(rt, values, opts.file);
  const { values: wanted, notes } = normalizeBlacklistEntries(chosen, entries, action);
  for (const note of notes) rt.out.note(note);
  const byKind = new Map<BlacklistKind, string[]>();
  for (const value of wanted) {
    const kind = chosen === 'either' ? (listOf(value) as BlacklistKind) : chosen;
    byKind.set(kind, [...(byKind.get(kind) ?? []), value]);
  }
  // Ctrl-C lets the request in flight finish (its outcome is reported); no chunk starts after it.
  const api = rt.api({ interruptible: false });
  const rows = new Map<string, BlacklistRow>();
  const summaries: string[] = [];
  let failure: AgencyError | undefined;
  for (const [kind, kindValues] of byKind) {
    const existing = await readBlacklist(rt, kind);
    const options = {
      dryRun: Boolean(opts.dryRun),
      signal: rt.ctx.signal,
      readBack: () => readBlacklist(rt, kind),
      note: (message: string) => rt.out.note(message),
    };
    const outcome = failure
      ? notSent(kindValues)
      : action === 'add'
        ? await addMissingToBlacklist(api, kind, kindValues, existing, options)
        : await removeListedFromBlacklist(api, kind, kindValues, existing, options);
    for (const row of outcome.rows) rows.set(row.value, row);
    summaries.push(summarizeBlacklistChange(kind, outcome.rows, action));
    failure ??= outcome.failure;
  }
  // Rows in the order the values were given.
  await rt.out.list(
    wanted.map((value) => rows.get(value) as BlacklistRow),
    shown(failure !== undefined),
  );
  for (const summary of summaries) rt.out.info(summary);
  if (failure) throw runFailure(failure);
}

/** The values of a list not reached because an earlier request failed. */
function notSent(values: readonly string[]): { rows: BlacklistRow[]; failure: undefined } {
  const error = { status: null, message: 'not sent: an earlier request failed' };
  return { rows: values.map((value) => ({ value, result: 'failed', error })), failure: undefined };
}
