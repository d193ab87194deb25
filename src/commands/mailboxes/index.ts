/** `agency mailboxes [--company <company>]`: the mailboxes of the HQ account or of a client company. */
import type { Command } from '@commander-js/extra-typings';
import type { Mailbox } from '../../api/types.js';
import { companyIdFor, parseCompanyRef } from '../../fleet/resolve.js';
import { detail } from '../../output/columns.js';
import type { Runtime } from '../../runtime.js';
import { helpText, type Run } from '../room.js';

export function define(mailboxes: Command, run: Run): void {
  mailboxes
    .option('--company <company>', 'act for this client company, by id or exact name (HQ key + x-company-id)')
    .addHelpText(
      'after',
      helpText(
        'Prints one row per mailbox: id, type, address, sender name, daily limit, sent\n' +
          'today, and its error if it has one. An inactive company answers 409 (exit 5).',
        [
          'agency mailboxes',
          'agency mailboxes --company 1042',
          'agency mailboxes --company 1042 --json | jq length',
        ],
      ),
    )
    .action(run(listMailboxes));
}

export async function listMailboxes(rt: Runtime, opts: { company?: string | undefined }): Promise<void> {
  const ref = opts.company === undefined ? undefined : parseCompanyRef(opts.company, '--company');
  const api = rt.api();
  const companyId = ref === undefined ? undefined : await companyIdFor(api, ref);
  const whose = companyId === undefined ? 'The HQ account' : `Company ${companyId}`;
  await rt.out.list<Mailbox>(
    await api.mailboxes(companyId),
    [
      { header: 'id', value: (m) => m.id },
      { header: 'type', value: (m) => m.type },
      { header: 'email', value: (m) => detail(m, 'email') },
      { header: 'from name', value: (m) => detail(m, 'from_name') },
      { header: 'daily limit', value: (m) => detail(m, 'daily_limit') },
      { header: 'sent today', value: (m) => detail(m, 'sent_today') },
      { header: 'error', value: (m) => detail(m, 'error') },
    ],
    { empty: `${whose} has no mailboxes.`, noun: ['mailbox', 'mailboxes'] },
  );
}
