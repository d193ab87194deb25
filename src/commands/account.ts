/** `me`, `mailboxes`, `webhooks`: account-level reads, for the HQ account or a client via x-company-id. */
import type { Mailbox, Webhook } from '../api/types.js';
import type { Runtime } from '../cli.js';
import { detail } from './columns.js';
import { parseCompanyId } from './parse.js';

export async function readAccount(
  rt: Runtime,
  what: 'me' | 'mailboxes' | 'webhooks',
  opts: { company?: string | undefined },
): Promise<void> {
  const companyId = opts.company === undefined ? undefined : parseCompanyId(opts.company);
  const api = rt.api();
  const { out } = rt.ctx;
  const whose = companyId === undefined ? 'The HQ account' : `Company ${companyId}`;
  if (what === 'me') {
    out.record(await api.me(companyId));
  } else if (what === 'mailboxes') {
    await out.list<Mailbox>(
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
  } else {
    await out.list<Webhook>(
      await api.webhooks(companyId),
      [
        { header: 'event', value: (w) => w.event },
        { header: 'target url', value: (w) => w.target_url },
      ],
      { empty: `${whose} has no webhooks.`, noun: ['webhook', 'webhooks'] },
    );
  }
}
