/**
 * Every path the client calls, in one place: where the service and the specification disagree (see
 * shared/spec/public-docs-notes.md), a wrong guess is one constant to change.
 */

export const PATHS = {
  me: '/v1/me',
  mailboxes: '/v2/mailboxes',
  /** The specification's path; the documented service may serve only the v2 one. */
  webhooksV1: '/v1/webhooks',
  webhooksV2: '/v2/webhooks',
  webhookSubscribe: '/v1/webhooks/subscribe',
  webhookUnsubscribe: '/v1/webhooks/unsubscribe',
  campaigns: '/v1/campaign_list',
  companies: '/v2/agency/companies',
  companyKeys: (companyId: number) => `/v2/agency/companies/${companyId}/api_keys`,
  companyEmailAccounts: (companyId: number) => `/v2/agency/companies/${companyId}/email_accounts`,
  companyUsers: (companyId: number) => `/v2/agency/companies/${companyId}/users`,
  companyInviteGuest: (companyId: number) => `/v2/agency/companies/${companyId}/invite_guest`,
  companyGuestPermissions: (companyId: number) => `/v2/agency/companies/${companyId}/guests/permissions`,
  blacklist: (kind: BlacklistKind) => `/v2/agency/blacklist/${kind}`,
  deliverability: '/v2/agency/deliverability',
} as const;

export type BlacklistKind = 'domains' | 'emails';

/** The roles of a company's users, as the `role` filter of the users list takes them. */
export const COMPANY_ROLES = ['admin', 'owner', 'authorized_team_member', 'guest'] as const;
export type CompanyRole = (typeof COMPANY_ROLES)[number];
/** What a guest may be allowed to see beyond the default; none = []. */
export type GuestPermission = 'mailboxes';

/** The service takes at most this many companies in one creation request. */
export const MAX_COMPANIES_PER_REQUEST = 10;
/** ... and at most this many blacklist values in one request. */
export const MAX_BLACKLIST_PER_REQUEST = 500;
/** ... and at most this many guests in one invitation (all or none). */
export const MAX_GUESTS_PER_INVITATION = 10;
/** ... and at most this many URLs subscribed to one event in one account (409 beyond). */
export const MAX_URLS_PER_EVENT = 3;
/** The service refuses a longer request URL (its docs say so of the blacklist's `email_filter`). */
export const MAX_REQUEST_URL_LENGTH = 4_100;
/** The blacklist's page size: the service's default is 100, its maximum 1,000. */
export const MAX_BLACKLIST_PER_PAGE = 1_000;
/** The deliverability listing's page size: the service's maximum (its default is 20). */
export const DELIVERABILITY_PER_PAGE = 50;
/** Answers to GET /v1/webhooks that mean "not served here": the v2 path is tried instead. */
export const MISSING_ENDPOINT_STATUSES: readonly number[] = [404, 405];

/** The query of a blacklist check: one page of the largest size holds every value asked. */
export function blacklistFilterQuery(values: readonly string[]): Record<string, string | number> {
  return { email_filter: values.join(','), per_page: MAX_BLACKLIST_PER_PAGE };
}
