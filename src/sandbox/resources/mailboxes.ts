/**
 * An account's mailboxes (GET /v2/mailboxes, a bare array; GET /v2/mailboxes/{id}, one) and a
 * company's email accounts through the agency endpoint (`{content}` without pagination). Both are
 * read-only, derived from the company by seed/mailboxes.ts.
 */
import { ok, type Route } from '../routing.js';
import {
  companyEmailAccounts,
  companyMailboxes,
  type EmailAccountItem,
  hqMailboxes,
  type MailboxItem,
} from '../seed/mailboxes.js';
import type { Store } from '../store.js';
import { type HqContext, type RequestContext, SandboxError } from '../types.js';

export function mailboxes(context: RequestContext): MailboxItem[] {
  if (context.level === 'hq') return hqMailboxes(context.agency.id, context.agency.domain);
  const c = context.company;
  return c.seeded ? companyMailboxes(c.id, c.name) : [];
}

/** One mailbox of the account in context (GET /v2/mailboxes/{id}); another account's is not found. */
function mailbox(context: RequestContext, id: string): MailboxItem {
  const found = /^\d+$/.test(id) ? mailboxes(context).find((m) => m.id === Number(id)) : undefined;
  if (!found) throw new SandboxError(404, `Mailbox ${id} not found`);
  return found;
}

export function emailAccounts(
  store: Store,
  context: HqContext,
  companyId: string,
): { content: EmailAccountItem[] } {
  const c = store.companyForAgencyEndpoint(context, companyId);
  return { content: c.seeded ? companyEmailAccounts(c.id, c.name, c.runningCampaigns) : [] };
}

export const mailboxRoutes: Route[] = [
  {
    pattern: /^\/v2\/mailboxes$/,
    methods: ['GET'],
    agency: false,
    list: 'mailboxes',
    handle: (c) => ok(mailboxes(c)),
  },
  {
    pattern: /^\/v2\/mailboxes\/([^/]+)$/,
    methods: ['GET'],
    agency: false,
    handle: (c, { params }) => ok(mailbox(c, params[0] as string)),
  },
  {
    pattern: /^\/v2\/agency\/companies\/([^/]+)\/email_accounts$/,
    methods: ['GET'],
    agency: true,
    list: 'email_accounts',
    handle: (c, { params }, { store }) => ok(emailAccounts(store, c, params[0] as string)),
  },
];
