/**
 * What `blacklist add` and `blacklist remove` share: the options, reading the values (arguments and
 * --file), the local checks made before any request, and the rows they print. The sending is in
 * src/fleet/blacklist-changes.ts.
 */
import type { Command } from '@commander-js/extra-typings';
import { type BlacklistEntry, normalizeBlacklistEntries } from '../../fleet/blacklist.js';
import {
  addMissingToBlacklist,
  type BlacklistAction,
  type BlacklistRow,
  removeListedFromBlacklist,
  summarizeBlacklistChange,
} from '../../fleet/blacklist-changes.js';
import { runFailure } from '../../fleet/failures.js';
import { readInput } from '../../input/read.js';
import { withReasonIfFailed } from '../../output/columns.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { argument, inputLine } from '../../terms.js';
import { type CommandHelp, helpText, type Run } from '../command.js';
import { addKindOptions, blacklistKind } from './kind.js';
import { readBlacklist } from './list.js';

export const VALUES_FILE_HELP = "values from a file, one per line ('-' = stdin; blank and # lines skipped)";

export function defineChange(
  blacklist: Command,
  run: Run,
  action: BlacklistAction,
  text: CommandHelp & { description: string },
): void {
  addKindOptions(
    blacklist.command(action).description(text.description),
    action === 'add' ? 'add to' : 'remove from',
  )
    .argument('[values...]', 'domains (example.com) or addresses (name@example.com)')
    .option('--file <path>', VALUES_FILE_HELP)
    .option(
      '--dry-run',
      `read the list and show what would be ${action === 'add' ? 'added' : 'removed'}; send nothing`,
    )
    .addHelpText('after', helpText(text))
    .action(run((rt, values: string[], opts: ChangeOptions) => changeBlacklist(rt, action, values, opts)));
}

interface ChangeOptions {
  domains?: boolean | undefined;
  emails?: boolean | undefined;
  file?: string | undefined;
  dryRun?: boolean | undefined;
}

/** The values of the arguments, then of --file, each with where it came from. */
export async function readValueEntries(
  rt: Runtime,
  values: readonly string[],
  file: string | undefined,
): Promise<BlacklistEntry[]> {
  const entries: BlacklistEntry[] = values.map((value, i) => ({ value, where: argument(i + 1) }));
  if (file === undefined) return entries;
  const { text, source } = await readInput(file, rt.terminal, rt.ctx.signal);
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
  const kind = blacklistKind(opts);
  const shown = withReasonIfFailed(rt.out, columns, errorColumn);
  const entries = await readValueEntries(rt, values, opts.file);
  const { values: wanted, notes } = normalizeBlacklistEntries(kind, entries, action);
  for (const note of notes) rt.out.note(note);
  const existing = await readBlacklist(rt, kind);
  // Ctrl-C lets the request in flight finish (its outcome is reported); no chunk starts after it.
  const api = rt.api({ interruptible: false });
  const options = { dryRun: Boolean(opts.dryRun), signal: rt.ctx.signal };
  const { rows, failure } =
    action === 'add'
      ? await addMissingToBlacklist(api, kind, wanted, existing, options)
      : await removeListedFromBlacklist(api, kind, wanted, existing, options);
  await rt.out.list(rows, shown(failure !== undefined));
  rt.out.info(summarizeBlacklistChange(kind, rows, action));
  if (failure) throw runFailure(failure);
}
