/**
 * An account's mailboxes (GET /v2/mailboxes, a bare array) and a company's email accounts through
 * the agency endpoint (`{content}` without pagination). Both are read-only, derived from the
 * company by seed/world.ts.
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
import type { HqContext, RequestContext } from '../types.js';

export function mailboxes(context: RequestContext): MailboxItem[] {
  if (context.level === 'hq') return hqMailboxes(context.agency.id, context.agency.domain);
  const c = context.company;
  return c.seeded ? companyMailboxes(c.id, c.name) : [];
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
    pattern: /^\/v2\/agency\/companies\/([^/]+)\/email_accounts$/,
    methods: ['GET'],
    agency: true,
    list: 'email_accounts',
    handle: (c, { params }, { store }) => ok(emailAccounts(store, c, params[0] as string)),
  },
];
