/** `agency webhooks list [--company <company>]` (also plain `agency webhooks`): an account's webhooks. */
import type { Command } from '@commander-js/extra-typings';
import type { Webhook } from '../../api/types.js';
import { optionalCompanyIdFor, parseOptionalCompanyRef } from '../../fleet/resolve.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { helpText, type Run } from '../command.js';

export function defineList(webhooks: Command, run: Run): void {
  webhooks
    // The default subcommand: `agency webhooks --company 1042` is `agency webhooks list --company 1042`.
    .command('list', { isDefault: true })
    .description('list the webhooks of the HQ account or a company')
    .option('--company <company>', 'act for this client company, by id or exact name (HQ key + x-company-id)')
    .addHelpText(
      'after',
      helpText(
        'Prints one row per webhook: the event and the URL it calls. `agency webhooks` alone\n' +
          'is the same command. To audit every company at once, use `agency inventory`.',
        [
          'agency webhooks',
          'agency webhooks list --company 1042',
          'agency webhooks --company "Acme Ltd"',
          "agency webhooks --company 1042 --json | jq -r '.[].event'",
        ],
      ),
    )
    .action(run(listWebhooks));
}

export async function listWebhooks(rt: Runtime, opts: { company?: string | undefined }): Promise<void> {
  const ref = parseOptionalCompanyRef(opts.company);
  rt.out.columns(webhookColumns);
  const api = rt.api();
  const companyId = await optionalCompanyIdFor(api, ref);
  const whose = companyId === undefined ? 'The HQ account' : `Company ${companyId}`;
  await rt.out.list<Webhook>(await api.webhooks(companyId), webhookColumns, {
    empty: `${whose} has no webhooks.`,
    noun: ['webhook', 'webhooks'],
  });
}

/** Both columns are what a row is: on a narrow terminal they are cut, never hidden. */
const webhookColumns: Column<Webhook>[] = [
  { header: 'event', value: (w) => w.event, kind: 'name' },
  { header: 'target url', value: (w) => w.target_url },
];
