/** `agency keys list <company>`: the keys your user created for a company; masked on a terminal. */
import type { Command } from '@commander-js/extra-typings';
import { collect, paginate } from '../../api/paginate.js';
import type { ApiKey } from '../../api/types.js';
import { maskKey } from '../../config.js';
import { companyIdFor, parseCompanyRef } from '../../fleet/resolve.js';
import { optionalPositiveInt } from '../../input/parse.js';
import { pageFacts } from '../../output/summary.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { command, option } from '../../terms.js';
import { helpText, type OptionsOf, type Run } from '../command.js';

const configureList = (keys: Command) =>
  keys
    .command('list')
    .description("list a company's API keys (those your user created)")
    .argument('<company>', 'company id or exact name')
    .option('--page <n>', 'fetch only this page (50 per page)')
    .option('--limit <n>', 'stop after this many keys')
    .option('--reveal', 'show whole keys in the table (piped and --json output always has them)')
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints one row per key: the key and its label. On a terminal the key is masked
          (wpk_…1a2b) unless --reveal is given; piped output and --json always carry the
          whole key, for scripts.
        `,
        examples: `
          $ agency keys list 1042
          $ agency keys list 1042 --reveal
          $ agency keys list 1042 --json | jq -r '.[]|select(.label=="zapier").api_key'
        `,
      }),
    );

type ListKeysOptions = OptionsOf<typeof configureList>;

async function listKeys(rt: Runtime, company: string, opts: ListKeysOptions): Promise<void> {
  const ref = parseCompanyRef(company);
  const page = optionalPositiveInt(opts.page, option('page'));
  const limit = optionalPositiveInt(opts.limit, option('limit'));
  const { out } = rt;
  // A table on a screen is read over a shoulder: keys are masked there unless --reveal.
  const mask = rt.terminal.stdoutIsTTY && !opts.reveal;
  const columns: Column<ApiKey>[] = [
    // A key cut short is no key at all: never cut, like an id.
    { header: 'api key', value: (k) => (mask ? maskKey(k.api_key) : k.api_key), kind: 'id' },
    { header: 'label', value: (k) => k.label },
  ];
  // The note is for what was masked on the screen: not --json (whole keys), nor columns without the key.
  // out.columns refuses an unknown --columns name before any request.
  const shown = out.columns(columns);
  const masksShown = mask && !out.json && shown.includes(columns[0] as Column<ApiKey>);
  const api = rt.api();
  const id = await companyIdFor(api, ref);
  const pages = pageFacts((p: number) => api.listKeysPage(id, p));
  const keys = await collect(paginate(pages.fetch, { page, limit }));
  await out.list<ApiKey>(keys, columns, {
    empty: `Company ${id} has no keys that your user created — make one with: ${command(`keys create ${id} --label <label>`)}`,
    noun: ['key', 'keys'],
    count: pages.facts({ limit, page }),
  });
  if (masksShown && keys.length > 0)
    out.info(`Keys are masked; use ${option('reveal')} to show them, or pipe the output.`);
}

export function defineList(keys: Command, run: Run): void {
  configureList(keys).action(run(listKeys));
}
