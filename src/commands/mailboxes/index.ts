/** `agency mailboxes [--company <company>]`: the mailboxes of the HQ account or of a client company. */
import type { Command } from '@commander-js/extra-typings';
import type { Mailbox } from '../../api/types.js';
import { detailColumn } from '../../output/columns.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { listOneAccount } from '../account-list.js';
import { helpText, type OptionsOf, type Run } from '../command.js';

const configure = (mailboxes: Command) =>
  mailboxes
    .option('--company <company>', 'act for this client company, by id or exact name (HQ key + x-company-id)')
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints one row per mailbox: id, type, address, sender name, daily limit, sent
          today, and its error if it has one. An inactive company answers 409 (exit 5).
        `,
        examples: `
          $ agency mailboxes
          $ agency mailboxes --company 1042
          $ agency mailboxes --company 1042 --json | jq length
        `,
      }),
    );

type MailboxesOptions = OptionsOf<typeof configure>;

export async function listMailboxes(rt: Runtime, opts: MailboxesOptions): Promise<void> {
  await listOneAccount<Mailbox>(rt, opts.company, {
    columns: mailboxColumns,
    read: (api, companyId) => api.mailboxes(companyId),
    noun: ['mailbox', 'mailboxes'],
  });
}

/**
 * The address and the error are what a reader looks for; the counters are hidden first on a narrow
 * terminal. Names are the API's fields (under `details`).
 */
const mailboxColumns: Column<Mailbox>[] = [
  { header: 'id', value: (m) => m.id },
  { header: 'type', value: (m) => m.type, priority: 2 },
  detailColumn('email', 'email'),
  detailColumn('from name', 'from_name', { priority: 3 }),
  detailColumn('daily limit', 'daily_limit', { kind: 'count', priority: 4 }),
  detailColumn('sent today', 'sent_today', { kind: 'count', priority: 4 }),
  detailColumn('error', 'error'),
];

export function define(mailboxes: Command, run: Run): void {
  configure(mailboxes).action(run(listMailboxes));
}
