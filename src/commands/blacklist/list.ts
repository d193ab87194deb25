/**
 * `agency blacklist list --domains|--emails [--filter TEXT]`: the whole list, read in 0-based pages
 * of 1,000 (the service's largest), filtered here.
 */
import type { Command } from '@commander-js/extra-typings';
import { collect, paginateZeroBased } from '../../api/paginate.js';
import { BLACKLIST_PAGE_SIZE, unicodeForm } from '../../fleet/blacklist.js';
import { progressLine } from '../../output/progress.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { helpText, type OptionsOf, type Run } from '../command.js';
import { addKindOptions, blacklistKind } from './kind.js';

function configureList(blacklist: Command) {
  return addKindOptions(
    blacklist.command('list').description('list the blacklisted domains or addresses'),
    'list',
  )
    .option('--filter <text>', 'only values containing this text (any case; bücher matches xn--bcher-kva)')
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints one value per line. The whole list is read (1,000 values a request).
        `,
        examples: `
          $ agency blacklist list --domains
          $ agency blacklist list --emails --filter @acme.com
          $ agency blacklist list --domains --json | jq length
        `,
      }),
    );
}

type ListBlacklistOptions = OptionsOf<typeof configureList>;

async function listBlacklist(rt: Runtime, opts: ListBlacklistOptions): Promise<void> {
  const kind = blacklistKind(opts);
  const singular = kind === 'domains' ? 'domain' : 'email';
  const columns: Column<string>[] = [{ header: singular, value: (v) => v }];
  rt.out.columns(columns); // an unknown --columns name is refused before any request
  const values = await readBlacklist(rt, kind);
  const needle = opts.filter?.toLowerCase();
  // The filter is matched against the Unicode form too: the list holds internationalised names in ASCII.
  const matches = (v: string) =>
    v.toLowerCase().includes(needle ?? '') ||
    unicodeForm(v)
      .toLowerCase()
      .includes(needle ?? '');
  const shown = needle === undefined ? values : values.filter(matches);
  await rt.out.list(shown, columns, {
    empty:
      needle === undefined
        ? `The blacklist has no ${kind}.`
        : `No blacklisted ${kind} contain ${JSON.stringify(opts.filter)}.`,
    noun: [singular, kind],
  });
}

/** Every value of one list, with a progress line on a terminal while it is read. */
export async function readBlacklist(rt: Runtime, kind: 'domains' | 'emails'): Promise<string[]> {
  const api = rt.api();
  const progress = progressLine(rt, `blacklisted ${kind} read`);
  let read = 0;
  try {
    return await collect(
      paginateZeroBased(
        async (page, perPage) => {
          const result = await api.listBlacklistPage(kind, page, perPage);
          read += result.items.length;
          progress.update(undefined, read);
          return result;
        },
        { perPage: BLACKLIST_PAGE_SIZE },
      ),
    );
  } finally {
    progress.done();
  }
}

export function defineList(blacklist: Command, run: Run): void {
  configureList(blacklist).action(run(listBlacklist));
}
