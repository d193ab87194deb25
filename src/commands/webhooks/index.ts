/** `agency webhooks [--company <company>]`: the webhooks of the HQ account or of a client company. */
import type { Command } from '@commander-js/extra-typings';
import type { Webhook } from '../../api/types.js';
import { parseCompanyId } from '../../input/parse.js';
import type { Runtime } from '../../runtime.js';
import { helpText, type Run } from '../room.js';

export function define(webhooks: Command, run: Run): void {
  webhooks
    .option('--company <company>', 'act for this client company (HQ key + x-company-id)')
    .addHelpText(
      'after',
      helpText(
        'Prints one row per webhook: the event and the URL it calls. To audit every\n' +
          'company at once, use `agency inventory`.',
        [
          'agency webhooks',
          'agency webhooks --company 1042',
          "agency webhooks --company 1042 --json | jq -r '.[].event'",
        ],
      ),
    )
    .action(run(listWebhooks));
}

export async function listWebhooks(rt: Runtime, opts: { company?: string | undefined }): Promise<void> {
  const companyId = opts.company === undefined ? undefined : parseCompanyId(opts.company);
  const whose = companyId === undefined ? 'The HQ account' : `Company ${companyId}`;
  await rt.out.list<Webhook>(
    await rt.api().webhooks(companyId),
    [
      { header: 'event', value: (w) => w.event },
      { header: 'target url', value: (w) => w.target_url },
    ],
    { empty: `${whose} has no webhooks.`, noun: ['webhook', 'webhooks'] },
  );
}
