/** `agency history prune --older-than <days>`: forget the runs recorded more than N days ago. */
import type { Command } from '@commander-js/extra-typings';
import { UsageError } from '../../errors.js';
import type { Runtime } from '../../runtime.js';
import { option } from '../../terms.js';
import { helpText, type OptionsOf, printsNoList, type Run } from '../command.js';

const configurePrune = (history: Command) =>
  printsNoList(history.command('prune'))
    .description('delete the runs recorded more than N days ago')
    .requiredOption('--older-than <days>', 'days to keep (0: delete every stored run)')
    .addHelpText(
      'after',
      helpText({
        prints: `
          Deletes from the local history (history.db) the runs of every agency recorded
          more than N days ago, with their rows, and the remembered guest invitations sent
          before then; 0 deletes them all. Says on stderr how many runs it deleted. Runs
          older than 400 days are deleted anyway by the next run that records one.
        `,
        examples: `
          $ agency history prune --older-than 90
          $ agency history prune --older-than 0   # forget everything
        `,
      }),
    );

type PruneOptions = OptionsOf<typeof configurePrune>;

async function prune(rt: Runtime, opts: PruneOptions): Promise<void> {
  const text = opts.olderThan.trim();
  if (!/^\d+$/.test(text) || Number(text) > 100_000)
    throw new UsageError(
      `${option('older-than')} must be a whole number of days, 0 or more (got ${JSON.stringify(opts.olderThan)}).`,
    );
  const days = Number(text);
  const { historyFile } = await import('../../history/paths.js');
  const { changeStore, pruneOlderThan } = await import('../../history/store.js');
  const file = historyFile(rt.env);
  const { existsSync } = await import('node:fs');
  if (!existsSync(file)) {
    rt.out.info(`Nothing to prune: there is no history yet (${file}).`);
    return;
  }
  const now = new Date();
  const pruned = await changeStore(file, (db) => pruneOlderThan(db, days, now), { now, prune: false });
  const what = days === 0 ? 'every stored run' : `runs recorded more than ${days} days ago`;
  rt.out.success(`Deleted ${pruned} ${pruned === 1 ? 'run' : 'runs'} from ${file} (${what}).`);
}

export function definePrune(history: Command, run: Run): void {
  configurePrune(history).action(run(prune));
}
