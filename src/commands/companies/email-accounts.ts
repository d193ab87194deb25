/** `agency companies email-accounts <company>`: a company's email accounts, read with the HQ key. */
import type { Command } from '@commander-js/extra-typings';
import type { EmailAccount } from '../../api/types.js';
import { companyIdFor, parseCompanyRef } from '../../fleet/resolve.js';
import { detailColumn } from '../../output/columns.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { helpText, type Run } from '../command.js';

export function defineEmailAccounts(companies: Command, run: Run): void {
  companies
    .command('email-accounts')
    .description("list a company's email accounts (with the HQ key)")
    .argument('<company>', 'company id or exact name')
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints one row per email account: id, type, address, provider, sender name,
          running campaigns, and the account's error if it has one.
        `,
        examples: `
          $ agency companies email-accounts 1042
          $ agency companies email-accounts 1042 --json | jq '.[].details.email'
        `,
      }),
    )
    .action(run(listEmailAccounts));
}

const columns: Column<EmailAccount>[] = [
  { header: 'id', value: (a) => a.id },
  { header: 'type', value: (a) => a.type, priority: 2 },
  detailColumn('email', 'email'),
  detailColumn('provider', 'provider', { priority: 3 }),
  detailColumn('from name', 'from_name', { priority: 3 }),
  detailColumn('campaigns', 'running_campaigns', {
    name: 'running_campaigns',
    aliases: ['campaigns'],
    kind: 'count',
    priority: 4,
  }),
  detailColumn('error', 'error'),
];

async function listEmailAccounts(rt: Runtime, company: string, _opts: object): Promise<void> {
  const ref = parseCompanyRef(company);
  rt.out.columns(columns);
  const api = rt.api();
  const id = await companyIdFor(api, ref);
  const accounts = await api.emailAccounts(id);
  await rt.out.list(accounts, columns, {
    empty: `Company ${id} has no email accounts.`,
    noun: ['email account', 'email accounts'],
  });
}
