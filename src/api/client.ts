/**
 * One typed method per endpoint of shared/spec/agency-api.md (and the documented ones the commands
 * use). Commands talk to this, never to HTTP. The HTTP layer is injected (tests pass a fake) and, in
 * the real program, loaded on first use. Paths live in endpoints.ts.
 */
import { ApiError } from '../errors.js';
import {
  type BlacklistKind,
  blacklistFilterQuery,
  type CompanyRole,
  DELIVERABILITY_PER_PAGE,
  type GuestPermission,
  MAX_BLACKLIST_PER_REQUEST,
  MAX_GUESTS_PER_INVITATION,
  MISSING_ENDPOINT_STATUSES,
  PATHS,
} from './endpoints.js';
import type { HttpResponse, RequestSpec } from './http.js';
import type { HttpLike } from './lazy-http.js';
import {
  type ApiKey,
  type BlacklistPage,
  blacklistValues,
  type Campaign,
  type Company,
  type CompanyUser,
  type CreatedCompany,
  type Deliverability,
  type EmailAccount,
  expectArray,
  expectList,
  expectObject,
  expectPage,
  type GuestInvitation,
  isApiKey,
  isCompany,
  isCompanyUser,
  isDeliverability,
  isIdentified,
  isRecord,
  isV1Nothing,
  isWebhook,
  type JsonObject,
  type Mailbox,
  type Page,
  shapeError,
  type Webhook,
} from './types.js';

export {
  type BlacklistKind,
  type CompanyRole,
  type GuestPermission,
  MAX_COMPANIES_PER_REQUEST,
} from './endpoints.js';
export type { HttpLike } from './lazy-http.js';
export type {
  ApiKey,
  BlacklistPage,
  Campaign,
  Company,
  CompanyUser,
  CreatedCompany,
  EmailAccount,
  GuestInvitation,
  Mailbox,
  Page,
  Webhook,
} from './types.js';

export class AgencyClient {
  /** Where this service serves the webhook list, once known (the spec's v1 path, else v2). */
  #webhooksPath: string | undefined;

  constructor(private readonly http: HttpLike) {}

  async listCompaniesPage(page: number, active?: boolean): Promise<Page<Company>> {
    const res = await this.http.request({
      method: 'GET',
      path: PATHS.companies,
      query: { active, page },
      action: `list the companies (page ${page})`,
    });
    return expectPage(res.data, isCompany, 'the company list', this.debugging);
  }

  async createCompanies(names: readonly string[]): Promise<CreatedCompany[]> {
    const res = await this.http.request({
      method: 'POST',
      path: PATHS.companies,
      body: { companies: names.map((name) => ({ name })) },
      action: `create ${names.length === 1 ? 'the company' : `${names.length} companies`}`,
    });
    const body = expectObject(res, this.debugging, 'company creation', 'an object with "companies"');
    return expectArray(body.companies, isCompany, 'company creation', this.debugging);
  }

  async listKeysPage(companyId: number, page: number): Promise<Page<ApiKey>> {
    const res = await this.companyRequest(companyId, 'GET', PATHS.companyKeys, 'list the keys of', {
      query: { page },
    });
    return expectPage(res.data, isApiKey, `the key list of company ${companyId}`, this.debugging);
  }

  async createKey(companyId: number, label: string): Promise<string> {
    const res = await this.companyRequest(companyId, 'POST', PATHS.companyKeys, 'create a key for', {
      body: { label },
    });
    const body = expectObject(res, this.debugging, 'key creation', 'an object with "api_key"');
    if (typeof body.api_key !== 'string') {
      throw shapeError('key creation', 'expected an object with "api_key"', this.debugging);
    }
    return body.api_key;
  }

  async emailAccounts(companyId: number): Promise<EmailAccount[]> {
    const list = 'list the email accounts of';
    const res = await this.companyRequest(companyId, 'GET', PATHS.companyEmailAccounts, list);
    const what = `the email accounts of company ${companyId}`;
    return expectList(this.debugging, res.data, isIdentified, what) as EmailAccount[];
  }

  async listCompanyUsersPage(
    companyId: number,
    page: number,
    role?: CompanyRole,
  ): Promise<Page<CompanyUser>> {
    const res = await this.companyRequest(companyId, 'GET', PATHS.companyUsers, 'list the users of', {
      query: { page, role },
    });
    return expectPage(res.data, isCompanyUser, `the user list of company ${companyId}`, this.debugging);
  }

  /**
   * Invites at most 10 guests (the service's limit; all or none). Its answer's shape is not
   * documented, so any success is taken as "invited" and the body is not read.
   */
  async inviteGuests(companyId: number, guests: readonly GuestInvitation[]): Promise<void> {
    if (guests.length > MAX_GUESTS_PER_INVITATION) {
      throw new RangeError(`at most ${MAX_GUESTS_PER_INVITATION} guests per request, got ${guests.length}`);
    }
    const invite = `invite ${guests.length === 1 ? 'a guest' : `${guests.length} guests`} to`;
    await this.companyRequest(companyId, 'POST', PATHS.companyInviteGuest, invite, { body: { guests } });
  }

  /** PUT .../guests/permissions: 200 with no body. */
  async setGuestPermissions(
    companyId: number,
    guests: readonly { id: number; permissions: GuestPermission[] }[],
  ): Promise<void> {
    const set = `set the permissions of ${guests.length === 1 ? 'a guest' : `${guests.length} guests`} of`;
    await this.companyRequest(companyId, 'PUT', PATHS.companyGuestPermissions, set, { body: { guests } });
  }

  async me(companyId?: number): Promise<JsonObject> {
    const res = await this.http.request({
      method: 'GET',
      path: PATHS.me,
      companyId,
      action: companyId === undefined ? 'identify the key' : `read the account of company ${companyId}`,
    });
    return expectObject(res, this.debugging, '/v1/me', 'an object');
  }

  /** Documented as a bare array; a wrapped {content} form is accepted too. */
  async mailboxes(companyId?: number): Promise<Mailbox[]> {
    const res = await this.http.request({
      method: 'GET',
      path: PATHS.mailboxes,
      companyId,
      action: `list the mailboxes of ${accountName(companyId)}`,
    });
    return expectList(this.debugging, res.data, isIdentified, 'the mailbox list') as Mailbox[];
  }

  /**
   * GET /v1/webhooks (the specification); where that is not served (404/405), GET /v2/webhooks (the
   * service's docs), and that path for the rest of the run. "Nothing" comes as 204, an empty body or
   * {"message": ...} without "webhooks": all are an empty list.
   */
  async webhooks(companyId?: number): Promise<Webhook[]> {
    const read = (path: string) =>
      this.http.request({
        method: 'GET',
        path,
        companyId,
        emptyIsNothing: true,
        action: `list the webhooks of ${accountName(companyId)}`,
      });
    let res: HttpResponse;
    if (this.#webhooksPath !== undefined) {
      res = await read(this.#webhooksPath);
    } else {
      try {
        res = await read(PATHS.webhooksV1);
        this.#webhooksPath = PATHS.webhooksV1;
      } catch (error) {
        if (!(error instanceof ApiError && MISSING_ENDPOINT_STATUSES.includes(error.status))) throw error;
        try {
          res = await read(PATHS.webhooksV2);
        } catch (second) {
          // Both 404: more likely the company than the path; the first answer is the one to show.
          if (second instanceof ApiError && MISSING_ENDPOINT_STATUSES.includes(second.status)) throw error;
          throw second;
        }
        this.#webhooksPath = PATHS.webhooksV2;
      }
    }
    const data = res.data;
    if (data === undefined) return [];
    if (Array.isArray(data)) return expectArray(data, isWebhook, 'the webhook list', this.debugging);
    if (!isRecord(data))
      throw shapeError('the webhook list', 'expected an object with "webhooks"', this.debugging);
    if (data.webhooks === undefined || data.webhooks === null) return [];
    return expectArray(data.webhooks, isWebhook, 'the webhook list', this.debugging);
  }

  /**
   * Subscribes `targetUrl` to `event`. The service refuses a pair it already has with 409 "Event
   * defined for this url." (e.g. added since the list was read): the pair is there, which is what was
   * asked, so that is 'exists', not a failure.
   */
  async subscribeWebhook(
    companyId: number | undefined,
    event: string,
    targetUrl: string,
  ): Promise<'subscribed' | 'exists'> {
    try {
      await this.changeWebhook('subscribe', companyId, event, targetUrl);
      return 'subscribed';
    } catch (error) {
      if (error instanceof ApiError && error.status === 409 && ALREADY_SUBSCRIBED.test(error.detail ?? ''))
        return 'exists';
      throw error;
    }
  }

  async unsubscribeWebhook(companyId: number | undefined, event: string, targetUrl: string): Promise<void> {
    await this.changeWebhook('unsubscribe', companyId, event, targetUrl);
  }

  /** Both take the same body; the event is sent in lower case, as the service documents subscriptions. */
  private changeWebhook(
    change: 'subscribe' | 'unsubscribe',
    companyId: number | undefined,
    event: string,
    targetUrl: string,
  ): Promise<HttpResponse> {
    const subscribe = change === 'subscribe';
    return this.http.request({
      method: 'POST',
      path: subscribe ? PATHS.webhookSubscribe : PATHS.webhookUnsubscribe,
      body: { target_url: targetUrl, event: event.toLowerCase() },
      companyId,
      action: `${change} ${accountName(companyId)} ${subscribe ? 'to' : 'from'} ${event.toUpperCase()}`,
    });
  }

  /** GET /v1/campaign_list[?status=A,B]: a bare array; 204, an empty body or a v1 "nothing" = []. */
  async campaigns(companyId?: number, statuses?: readonly string[]): Promise<Campaign[]> {
    const res = await this.http.request({
      method: 'GET',
      path: PATHS.campaigns,
      query: { status: statuses && statuses.length > 0 ? statuses.join(',') : undefined },
      companyId,
      emptyIsNothing: true,
      action: `list the campaigns of ${accountName(companyId)}`,
    });
    const data = res.data;
    if (data === undefined) return [];
    if (isV1Nothing(data)) return [];
    return expectList(this.debugging, data, isIdentified, 'the campaign list') as Campaign[];
  }

  /** One 0-based page of the agency blacklist: {"domains"|"emails": [...], "total": N}. */
  async listBlacklistPage(kind: BlacklistKind, page0: number, perPage: number): Promise<BlacklistPage> {
    const res = await this.http.request({
      method: 'GET',
      path: PATHS.blacklist(kind),
      query: { page: page0, per_page: perPage },
      emptyIsNothing: true,
      // Messages count pages from 1, as for every other listing.
      action: `list the blacklisted ${kind} (page ${page0 + 1})`,
    });
    if (res.data === undefined) return { items: [], total: 0 };
    const body = expectObject(res, this.debugging, `the blacklist of ${kind}`, `an object with "${kind}"`);
    const items = this.blacklistItems(res, kind);
    // Without "total" only a short page ends the listing: a full one may have more after it.
    const total =
      typeof body.total === 'number'
        ? body.total
        : items.length < perPage
          ? page0 * perPage + items.length
          : Number.POSITIVE_INFINITY;
    return { items, total };
  }

  /** Adds at most 500 values (the service's limit) to the agency blacklist; the caller chunks. */
  addToBlacklist(kind: BlacklistKind, values: readonly string[]): Promise<void> {
    return this.changeBlacklist('POST', kind, values);
  }

  /** Removes at most 500 values (DELETE, the same body as adding); the caller chunks. */
  removeFromBlacklist(kind: BlacklistKind, values: readonly string[]): Promise<void> {
    return this.changeBlacklist('DELETE', kind, values);
  }

  /**
   * Which of `values` are on the list: GET with `email_filter=a,b,...` (the caller keeps the URL within
   * MAX_REQUEST_URL_LENGTH and the values within one page of MAX_BLACKLIST_PER_PAGE).
   */
  async blacklisted(kind: BlacklistKind, values: readonly string[]): Promise<string[]> {
    const res = await this.http.request({
      method: 'GET',
      path: PATHS.blacklist(kind),
      query: blacklistFilterQuery(values),
      emptyIsNothing: true,
      action: `check ${values.length} ${values.length === 1 ? kind.slice(0, -1) : kind} against the blacklist`,
    });
    return this.blacklistItems(res, kind);
  }

  private async changeBlacklist(method: 'POST' | 'DELETE', kind: BlacklistKind, values: readonly string[]) {
    if (values.length > MAX_BLACKLIST_PER_REQUEST) {
      throw new RangeError(`at most ${MAX_BLACKLIST_PER_REQUEST} values per request, got ${values.length}`);
    }
    const what = `${values.length} ${values.length === 1 ? kind.slice(0, -1) : kind}`;
    await this.http.request({
      method,
      path: PATHS.blacklist(kind),
      body: { [kind]: values },
      action: method === 'POST' ? `add ${what} to the blacklist` : `remove ${what} from the blacklist`,
    });
  }

  /** The values of a blacklist answer: strings, or objects holding the value. */
  private blacklistItems(res: HttpResponse, kind: BlacklistKind): string[] {
    if (res.data === undefined) return [];
    const body = expectObject(res, this.debugging, `the blacklist of ${kind}`, `an object with "${kind}"`);
    return blacklistValues(body[kind] ?? [], kind, this.debugging);
  }

  /** One page (50 clients) of each client's counters over the period and the period before it. */
  async deliverabilityPage(
    page: number,
    period: { from?: string; to?: string } = {},
  ): Promise<Page<Deliverability>> {
    const query = { from: period.from, to: period.to, page, per_page: DELIVERABILITY_PER_PAGE };
    const action = `read the deliverability of the clients (page ${page})`;
    const res = await this.http.request({ method: 'GET', path: PATHS.deliverability, query, action });
    return expectPage(res.data, isDeliverability, 'the deliverability listing', this.debugging);
  }

  /**
   * A request under one client company's path: error messages name the company, and the action is
   * `doing` followed by it ("list the keys of" company 1042).
   */
  private companyRequest(
    companyId: number,
    method: RequestSpec['method'],
    path: (companyId: number) => string,
    doing: string,
    content: Pick<RequestSpec, 'query' | 'body'> = {},
  ): Promise<HttpResponse> {
    return this.http.request({
      method,
      path: path(companyId),
      ...content,
      company: companyId,
      action: `${doing} company ${companyId}`,
    });
  }

  /** The `api` command: any method and path, the body returned as parsed. */
  raw(spec: RequestSpec): Promise<HttpResponse> {
    return this.http.request(spec);
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private get debugging(): boolean {
    return this.http.debugging === true;
  }
}

/** The service's words for a pair it already has (v1 E_WRONG_PARAM, 409). */
const ALREADY_SUBSCRIBED = /event defined for this url/i;

function accountName(companyId: number | undefined): string {
  return companyId === undefined ? 'the account' : `company ${companyId}`;
}
