/**
 * The narrow slices of the API client that the fleet logic needs. AgencyClient satisfies each of
 * them; tests pass small fakes.
 */
import type { ApiKey, Company, CreatedCompany, Page, Webhook } from '../api/types.js';

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
