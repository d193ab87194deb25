/** The sandbox's campaigns as its routes serve them, for tests of the campaign commands. */
import { MAIN_AGENCY_ID, type Sandbox } from '../../src/sandbox/index.js';
import { campaignsOf } from '../../src/sandbox/resources/campaigns.js';
import { SHARED_MAILBOX } from '../../src/sandbox/seed/campaigns.js';
import { accountOfCompany, type RequestContext } from '../../src/sandbox/types.js';
import { hqContext, owner } from './core.js';

/** A client's account as the sandbox's routes see it (HQ key + x-company-id). */
export function clientContext(sandbox: Sandbox, companyId: number): RequestContext {
  const company = sandbox.store.company(companyId);
  if (!company) throw new Error(`no company ${companyId}`);
  const { agency, user } = hqContext(sandbox, owner(sandbox));
  return { level: 'client', agency, user, company, account: accountOfCompany(companyId) };
}

/** Every active client's campaigns with the statuses the sandbox holds now, each with its company. */
export function clientCampaigns(sandbox: Sandbox) {
  return sandbox.store.companies(MAIN_AGENCY_ID, { active: true }).flatMap((c) =>
    campaignsOf(clientContext(sandbox, c.id), sandbox.store).map((campaign) => ({
      company: c.id,
      ...campaign,
    })),
  );
}

export const sendsFromShared = (c: { from_emails: string[] }) => c.from_emails.includes(SHARED_MAILBOX);
