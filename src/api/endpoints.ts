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
  blacklist: (kind: BlacklistKind) => `/v2/agency/blacklist/${kind}`,
} as const;

export type BlacklistKind = 'domains' | 'emails';

/** The service takes at most this many companies in one creation request. */
export const MAX_COMPANIES_PER_REQUEST = 10;
/** ... and at most this many blacklist values in one request. */
export const MAX_BLACKLIST_PER_REQUEST = 500;
/** The blacklist's page size: the service's default is 100, its maximum 1,000. */
export const MAX_BLACKLIST_PER_PAGE = 1_000;
/** Answers to GET /v1/webhooks that mean "not served here": the v2 path is tried instead. */
export const MISSING_ENDPOINT_STATUSES: readonly number[] = [404, 405];
