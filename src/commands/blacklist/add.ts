/**
 * `agency blacklist add --domains|--emails <value>... [--file <path|->] [--dry-run]`: adds what is
 * not on the list yet. Every value is checked before the list is read; nothing is sent for bad input.
 */
import type { Command } from '@commander-js/extra-typings';
import { InterruptedError, PartialFailureError } from '../../errors.js';
import { type BlacklistEntry, normalizeBlacklistEntries } from '../../fleet/blacklist.js';
import {
  addMissingToBlacklist,
  type BlacklistRow,
  summarizeBlacklistAdd,
} from '../../fleet/blacklist-add.js';
import { readInput } from '../../input/read.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { helpText, type Run } from '../command.js';
import { addKindOptions, blacklistKind } from './kind.js';
import { readBlacklist } from './list.js';

export function defineAdd(blacklist: Command, run: Run): void {
  addKindOptions(blacklist.command('add').description('add domains or addresses to the blacklist'), 'add to')
    .argument('[values...]', 'domains (example.com) or addresses (name@example.com)')
    .option('--file <path>', "values from a file, one per line ('-' = stdin; blank and # lines skipped)")
    .option('--dry-run', 'read the list and show what would be added; send nothing')
    .addHelpText(
      'after',
      helpText(
        'Prints one row per value: the value and its result (added, exists, would-add,\n' +
          'failed). Values are lower-cased; a value given twice is sent once; values\n' +
          'already listed are not sent again; the rest goes in requests of at most 500.',
        [
          'agency blacklist add --domains competitor.com spam.example',
          'agency blacklist add --emails --file unsubscribed.txt --dry-run',
          'cut -f1 bounces.tsv | agency blacklist add --emails --file -',
        ],
      ),
    )
    .action(run(addBlacklist));
}

export interface AddBlacklistOptions {
  domains?: boolean | undefined;
  emails?: boolean | undefined;
  file?: string | undefined;
  dryRun?: boolean | undefined;
}

const columns: Column<BlacklistRow>[] = [
  { header: 'value', value: (r) => r.value },
  { header: 'result', value: (r) => r.result },
];
/** Only when a value failed: piped rows of a clean run keep two fields. */
const errorColumn: Column<BlacklistRow> = { header: 'error', value: (r) => r.error?.message };

export async function addBlacklist(rt: Runtime, values: string[], opts: AddBlacklistOptions): Promise<void> {
  const kind = blacklistKind(opts);
  // An unknown --columns name is refused before anything is read or sent (the error column included).
  const chosen = rt.out.options.columns === undefined ? undefined : rt.out.columns([...columns, errorColumn]);
  const entries: BlacklistEntry[] = values.map((value, i) => ({ value, where: `argument ${i + 1}` }));
  if (opts.file !== undefined) {
    const { text, source } = await readInput(opts.file, rt.terminal, rt.ctx.signal);
    text
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)
      .forEach((line, index) => {
        const value = line.trim();
        if (value !== '' && !value.startsWith('#'))
          entries.push({ value, where: `${source} line ${index + 1}` });
      });
  }
  const { values: wanted, notes } = normalizeBlacklistEntries(kind, entries);
  for (const note of notes) rt.out.info(note);
  const existing = await readBlacklist(rt, kind);
  // Ctrl-C lets the POST in flight finish (its outcome is reported); no chunk starts after it.
  const { rows, failure } = await addMissingToBlacklist(
    rt.api({ interruptible: false }),
    kind,
    wanted,
    existing,
    {
      dryRun: Boolean(opts.dryRun),
      signal: rt.ctx.signal,
    },
  );
  await rt.out.list(rows, chosen ?? (failure ? [...columns, errorColumn] : columns));
  rt.out.info(summarizeBlacklistAdd(kind, rows));
  if (failure instanceof InterruptedError) throw failure;
  if (failure) throw new PartialFailureError(failure.message, failure.exitCode, failure.status);
}
