/**
 * `agency campaigns [list] [--company <company>] [--status S,...]`: GET /v1/campaign_list, for the
 * key's own account or a client company (x-company-id). Statuses are checked here, before any request.
 */
import { type Command, Option } from '@commander-js/extra-typings';
import type { Campaign } from '../../api/types.js';
import { CAMPAIGN_STATUSES, parseCampaignStatuses } from '../../fleet/campaign-status.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { listOneAccount } from '../account-list.js';
import {
  collectValues,
  commaSeparated,
  helpText,
  type OptionsOf,
  type Run,
  suggestValues,
} from '../command.js';

const HELP = helpText({
  prints: `
    Prints one row per campaign: id, name, status, created, sender address, emails
    per day, and its error if it has one. --status takes any of
    ${CAMPAIGN_STATUSES.join(', ')}
    (any case, comma-separated or repeated).
    For every client at once, see \`agency inventory\`.
  `,
  examples: `
    $ agency campaigns
    $ agency campaigns --company 1042 --status running,paused
    $ agency campaigns --company 1042 --json | jq -r '.[]|select(.error).name'
  `,
});

/** `campaigns` alone runs `campaigns list`, its options included. */
const configureList = (campaigns: Command) =>
  campaigns
    .command('list', { isDefault: true })
    .description('list the campaigns of the HQ account or a company')
    .option('--company <company>', 'a client company (id or exact name; HQ key + x-company-id)')
    .addOption(
      commaSeparated(
        suggestValues(
          new Option('--status <statuses>', 'only these statuses, comma-separated (repeatable)').argParser(
            collectValues,
          ),
          CAMPAIGN_STATUSES.map((status) => status.toLowerCase()),
        ),
      ),
    )
    .addHelpText('after', HELP);

const columns: Column<Campaign>[] = [
  { header: 'id', value: (c) => c.id },
  { header: 'name', value: (c) => c.name },
  { header: 'status', value: (c) => c.status, priority: 1 },
  { header: 'created', value: (c) => c.created, priority: 3 },
  { header: 'from email', value: (c) => c.from_email, priority: 2, kind: 'email' },
  { header: 'per day', value: (c) => c.per_day, kind: 'count', priority: 4 },
  { header: 'error', value: (c) => c.error },
];

type ListCampaignsOptions = OptionsOf<typeof configureList>;

async function listCampaigns(rt: Runtime, opts: ListCampaignsOptions): Promise<void> {
  const statuses = opts.status === undefined ? undefined : parseCampaignStatuses(opts.status);
  await listOneAccount(rt, opts.company, {
    columns,
    read: (api, companyId) => api.campaigns(companyId, statuses),
    noun: ['campaign', 'campaigns'],
    which: statuses ? ` with status ${statuses.join(' or ')}` : undefined,
  });
}

export function defineList(campaigns: Command, run: Run): void {
  configureList(campaigns).action(run(listCampaigns));
}
