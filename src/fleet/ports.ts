/**
 * The narrow slices of the API client that the fleet logic needs. AgencyClient satisfies each of
 * them; tests pass small fakes.
 */
import type { CampaignAction, CampaignDetail } from '../api/resources/campaigns.js';
import type { ApiKey, Campaign, Company, CreatedCompany, Page, Webhook } from '../api/types.js';

export interface CompanyLister {
  listCompaniesPage(page: number, active?: boolean): Promise<Page<Company>>;
}

export interface CompanyCreator {
  createCompanies(names: readonly string[]): Promise<CreatedCompany[]>;
}

export interface KeyPort {
  listKeysPage(companyId: number, page: number): Promise<Page<ApiKey>>;
  createKey(companyId: number, label: string): Promise<string>;
}

export interface WebhookReader {
  webhooks(companyId?: number): Promise<Webhook[]>;
}

export interface WebhookPort extends WebhookReader {
  subscribeWebhook(
    companyId: number | undefined,
    event: string,
    targetUrl: string,
  ): Promise<'subscribed' | 'exists'>;
  unsubscribeWebhook(companyId: number | undefined, event: string, targetUrl: string): Promise<void>;
}

/** A campaign's status: read one (v2), change it (v2). */
export interface CampaignStatusPort {
  campaign(companyId: number | undefined, campaignId: number): Promise<CampaignDetail>;
  changeCampaign(companyId: number | undefined, campaignId: number, action: CampaignAction): Promise<void>;
}

/** A campaign's Bounce Shield threshold (v2): null = the service's default. */
export interface BounceShieldPort {
  bounceShield(companyId: number | undefined, campaignId: number): Promise<number | null>;
  setBounceShield(companyId: number | undefined, campaignId: number, threshold: number): Promise<void>;
  clearBounceShield(companyId: number | undefined, campaignId: number): Promise<void>;
}

/** The campaign list of an account (v1) and the v2 campaign endpoints, as AgencyClient has them. */
export interface CampaignPort extends CampaignStatusPort, BounceShieldPort {
  campaigns(companyId?: number): Promise<Campaign[]>;
}
