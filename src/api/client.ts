/**
 * One typed method per endpoint of shared/spec/agency-api.md. Commands talk to this, never to HTTP.
 * The HTTP layer is injected (tests pass a fake) and, in the real program, loaded on first use.
 */
import type { HttpOptions, HttpResponse, RequestSpec } from './http.js';
import {
  type ApiKey,
  type Company,
  type CreatedCompany,
  type EmailAccount,
  expectArray,
  expectPage,
  isApiKey,
  isCompany,
  isIdentified,
  isRecord,
  isWebhook,
  type JsonObject,
  type Mailbox,
  type Page,
  shapeError,
  type Webhook,
} from './types.js';

export type { ApiKey, Company, CreatedCompany, EmailAccount, Mailbox, Page, Webhook } from './types.js';

export interface HttpLike {
  request(spec: RequestSpec): Promise<HttpResponse>;
  close(): Promise<void>;
}

/** The service takes at most this many companies in one creation request. */
export const MAX_COMPANIES_PER_REQUEST = 10;

export class AgencyClient {
  constructor(private readonly http: HttpLike) {}

  async listCompaniesPage(page: number, active?: boolean): Promise<Page<Company>> {
    const res = await this.http.request({
      method: 'GET',
      path: '/v2/agency/companies',
      query: { active, page },
      action: `list the companies (page ${page})`,
    });
    return expectPage(res.data, isCompany, 'the company list');
  }

  async createCompanies(names: readonly string[]): Promise<CreatedCompany[]> {
    const res = await this.http.request({
      method: 'POST',
      path: '/v2/agency/companies',
      body: { companies: names.map((name) => ({ name })) },
      action: `create ${names.length === 1 ? 'the company' : `${names.length} companies`}`,
    });
    if (!isRecord(res.data)) throw shapeError('company creation', 'expected an object with "companies"');
    return expectArray(res.data.companies, isCompany, 'company creation');
  }

  async listKeysPage(companyId: number, page: number): Promise<Page<ApiKey>> {
    const res = await this.http.request({
      method: 'GET',
      path: `/v2/agency/companies/${companyId}/api_keys`,
      query: { page },
      company: companyId,
      action: `list the keys of company ${companyId}`,
    });
    return expectPage(res.data, isApiKey, `the key list of company ${companyId}`);
  }

  async createKey(companyId: number, label: string): Promise<string> {
    const res = await this.http.request({
      method: 'POST',
      path: `/v2/agency/companies/${companyId}/api_keys`,
      body: { label },
      company: companyId,
      action: `create a key for company ${companyId}`,
    });
    if (!isRecord(res.data) || typeof res.data.api_key !== 'string') {
      throw shapeError('key creation', 'expected an object with "api_key"');
    }
    return res.data.api_key;
  }

  async emailAccounts(companyId: number): Promise<EmailAccount[]> {
    const res = await this.http.request({
      method: 'GET',
      path: `/v2/agency/companies/${companyId}/email_accounts`,
      company: companyId,
      action: `list the email accounts of company ${companyId}`,
    });
    return listOf(res.data, isIdentified, `the email accounts of company ${companyId}`) as EmailAccount[];
  }

  async me(companyId?: number): Promise<JsonObject> {
    const res = await this.http.request({
      method: 'GET',
      path: '/v1/me',
      companyId,
      action: companyId === undefined ? 'identify the key' : `read the account of company ${companyId}`,
    });
    if (!isRecord(res.data)) throw shapeError('/v1/me', 'expected an object');
    return res.data;
  }

  /** Documented as a bare array; a wrapped {content} form is accepted too. */
  async mailboxes(companyId?: number): Promise<Mailbox[]> {
    const res = await this.http.request({
      method: 'GET',
      path: '/v2/mailboxes',
      companyId,
      action: `list the mailboxes of ${accountName(companyId)}`,
    });
    return listOf(res.data, isIdentified, 'the mailbox list') as Mailbox[];
  }

  async webhooks(companyId?: number): Promise<Webhook[]> {
    const res = await this.http.request({
      method: 'GET',
      path: '/v1/webhooks',
      companyId,
      action: `list the webhooks of ${accountName(companyId)}`,
    });
    if (!isRecord(res.data)) throw shapeError('the webhook list', 'expected an object with "webhooks"');
    return expectArray(res.data.webhooks ?? [], isWebhook, 'the webhook list');
  }

  /** The `api` command: any method and path, the body returned as parsed. */
  raw(spec: RequestSpec): Promise<HttpResponse> {
    return this.http.request(spec);
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

function accountName(companyId: number | undefined): string {
  return companyId === undefined ? 'the account' : `company ${companyId}`;
}

function listOf<T>(data: unknown, check: (v: unknown) => v is T, what: string): T[] {
  if (Array.isArray(data)) return expectArray(data, check, what);
  if (isRecord(data) && Array.isArray(data.content)) return expectArray(data.content, check, what);
  throw shapeError(what, 'expected a list or an object with "content"');
}

/** Defers `import('./http.js')` (and with it undici) until the first request is made. */
export function lazyHttp(options: HttpOptions): HttpLike {
  let loaded: Promise<HttpLike> | undefined;
  const get = () => {
    loaded ??= import('./http.js').then(({ Http }) => new Http(options));
    return loaded;
  };
  return {
    request: async (spec) => (await get()).request(spec),
    close: async () => {
      if (loaded) await (await loaded).close();
    },
  };
}
