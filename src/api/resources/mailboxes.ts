/** Mailboxes: an account's own (`/v2/mailboxes`), and a client company's email accounts seen from HQ. */
import type { HttpLike } from '../lazy-http.js';
import { type EmailAccount, expectList, isIdentified, type Mailbox } from '../types.js';
import { accountName, companyRequest, debugging, type Endpoint, target } from './endpoint.js';

export const MAILBOX_ENDPOINTS = {
  list: {
    route: 'GET /v2/mailboxes',
    does: "an account's mailboxes (a bare array; a wrapped `{content}` is read too)",
    commands: ['mailboxes', 'inventory', 'health'],
  },
  emailAccounts: {
    route: 'GET /v2/agency/companies/{cid}/email_accounts',
    does: "a company's email accounts",
    commands: ['companies email-accounts', 'inventory'],
  },
} as const satisfies Record<string, Endpoint>;

export async function mailboxes(http: HttpLike, companyId?: number): Promise<Mailbox[]> {
  const res = await http.request({
    ...target(MAILBOX_ENDPOINTS.list),
    companyId,
    action: `list the mailboxes of ${accountName(companyId)}`,
  });
  return expectList(debugging(http), res.data, isIdentified, 'the mailbox list') as Mailbox[];
}

export async function emailAccounts(http: HttpLike, companyId: number): Promise<EmailAccount[]> {
  const list = 'list the email accounts of';
  const res = await companyRequest(http, companyId, MAILBOX_ENDPOINTS.emailAccounts, list);
  const what = `the email accounts of company ${companyId}`;
  return expectList(debugging(http), res.data, isIdentified, what) as EmailAccount[];
}
