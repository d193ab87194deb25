/**
 * The client the commands and the fleet talk to (never to HTTP): one method per endpoint, each a line
 * over its resource module in src/api/resources/ (the endpoint as data, its path, limits and shapes).
 * The HTTP layer is injected (tests pass a fake) and, in the real program, loaded on first use.
 */
import type { HttpResponse, RequestSpec } from './http.js';
import type { HttpLike } from './lazy-http.js';
import type { BlacklistKind } from './resources/blacklist.js';
import * as blacklist from './resources/blacklist.js';
import * as campaigns from './resources/campaigns.js';
import * as companies from './resources/companies.js';
import * as deliverability from './resources/deliverability.js';
import type { GuestPermission } from './resources/guests.js';
import * as guests from './resources/guests.js';
import * as keys from './resources/keys.js';
import * as mailboxes from './resources/mailboxes.js';
import * as reports from './resources/reports.js';
import type { CompanyRole } from './resources/users.js';
import * as users from './resources/users.js';
import * as webhooks from './resources/webhooks.js';
import type {
  ApiKey,
  BlacklistPage,
  Campaign,
  Company,
  CompanyUser,
  CreatedCompany,
  Deliverability,
  EmailAccount,
  GuestInvitation,
  JsonObject,
  Mailbox,
  Page,
  Webhook,
} from './types.js';

export type { HttpLike } from './lazy-http.js';

export class AgencyClient {
  /** Where this service serves the webhook list, once known (the spec's v1 path, else v2). */
  readonly #webhookPath: webhooks.WebhookPath = {};

  constructor(private readonly http: HttpLike) {}

  listCompaniesPage(page: number, active?: boolean): Promise<Page<Company>> {
    return companies.listCompaniesPage(this.http, page, active);
  }

  createCompanies(names: readonly string[]): Promise<CreatedCompany[]> {
    return companies.createCompanies(this.http, names);
  }

  listKeysPage(companyId: number, page: number): Promise<Page<ApiKey>> {
    return keys.listKeysPage(this.http, companyId, page);
  }

  createKey(companyId: number, label: string): Promise<string> {
    return keys.createKey(this.http, companyId, label);
  }

  emailAccounts(companyId: number): Promise<EmailAccount[]> {
    return mailboxes.emailAccounts(this.http, companyId);
  }

  listCompanyUsersPage(companyId: number, page: number, role?: CompanyRole): Promise<Page<CompanyUser>> {
    return users.listCompanyUsersPage(this.http, companyId, page, role);
  }

  inviteGuests(companyId: number, invitations: readonly GuestInvitation[]): Promise<void> {
    return guests.inviteGuests(this.http, companyId, invitations);
  }

  setGuestPermissions(
    companyId: number,
    changes: readonly { id: number; permissions: GuestPermission[] }[],
  ): Promise<void> {
    return guests.setGuestPermissions(this.http, companyId, changes);
  }

  me(companyId?: number): Promise<JsonObject> {
    return users.me(this.http, companyId);
  }

  mailboxes(companyId?: number): Promise<Mailbox[]> {
    return mailboxes.mailboxes(this.http, companyId);
  }

  webhooks(companyId?: number): Promise<Webhook[]> {
    return webhooks.webhooks(this.http, this.#webhookPath, companyId);
  }

  subscribeWebhook(
    companyId: number | undefined,
    event: string,
    url: string,
  ): Promise<'subscribed' | 'exists'> {
    return webhooks.subscribeWebhook(this.http, companyId, event, url);
  }

  unsubscribeWebhook(companyId: number | undefined, event: string, url: string): Promise<void> {
    return webhooks.unsubscribeWebhook(this.http, companyId, event, url);
  }

  campaigns(companyId?: number, statuses?: readonly string[]): Promise<Campaign[]> {
    return campaigns.campaigns(this.http, companyId, statuses);
  }

  campaign(companyId: number | undefined, campaignId: number): Promise<campaigns.CampaignDetail> {
    return campaigns.campaign(this.http, companyId, campaignId);
  }

  changeCampaign(
    companyId: number | undefined,
    campaignId: number,
    action: campaigns.CampaignAction,
  ): Promise<void> {
    return campaigns.changeCampaign(this.http, companyId, campaignId, action);
  }

  bounceShield(companyId: number | undefined, campaignId: number): Promise<number | null> {
    return campaigns.bounceShield(this.http, companyId, campaignId);
  }

  setBounceShield(companyId: number | undefined, campaignId: number, threshold: number): Promise<void> {
    return campaigns.setBounceShield(this.http, companyId, campaignId, threshold);
  }

  clearBounceShield(companyId: number | undefined, campaignId: number): Promise<void> {
    return campaigns.clearBounceShield(this.http, companyId, campaignId);
  }

  listBlacklistPage(kind: BlacklistKind, page0: number, perPage: number): Promise<BlacklistPage> {
    return blacklist.listBlacklistPage(this.http, kind, page0, perPage);
  }

  addToBlacklist(kind: BlacklistKind, values: readonly string[]): Promise<void> {
    return blacklist.changeBlacklist(this.http, 'add', kind, values);
  }

  removeFromBlacklist(kind: BlacklistKind, values: readonly string[]): Promise<void> {
    return blacklist.changeBlacklist(this.http, 'remove', kind, values);
  }

  blacklisted(kind: BlacklistKind, values: readonly string[]): Promise<string[]> {
    return blacklist.blacklisted(this.http, kind, values);
  }

  deliverabilityPage(
    page: number,
    period: { from?: string; to?: string } = {},
  ): Promise<Page<Deliverability>> {
    return deliverability.deliverabilityPage(this.http, page, period);
  }

  askCampaignReport(companyId: number | undefined, period: { from: string; to: string }): Promise<string> {
    return reports.askCampaignReport(this.http, companyId, period);
  }

  readReport(companyId: number | undefined, hash: string): Promise<reports.ReportAnswer> {
    return reports.readReport(this.http, companyId, hash);
  }

  /** The `api` command: any method and path, the body returned as parsed. */
  raw(spec: RequestSpec): Promise<HttpResponse> {
    return this.http.request(spec);
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
