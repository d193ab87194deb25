/**
 * What every resource module shares: an endpoint as data (method, path template, what it is, the
 * commands that call it), the path filled in from it, and a request under one client company's path.
 */
import type { HttpResponse, Method, RequestSpec } from '../http.js';
import type { HttpLike } from '../lazy-http.js';

export interface Endpoint {
  /**
   * What the tool sends, as the coverage page shows it: `GET /v2/agency/companies/{cid}/api_keys?page`.
   * The path is under the base URL (`…/rest`), `{cid}` a company id, `{kind}` `emails` or `domains`;
   * after `?` the query parameters the tool sends.
   */
  readonly route: `${Method} /${string}`;
  /** What the tool does with it, for the coverage page. */
  readonly does: string;
  /** The commands that send it ('companies list'); a test checks each is in the command tree. */
  readonly commands: readonly string[];
}

/** An endpoint's route in parts. */
export function partsOf(endpoint: Pick<Endpoint, 'route'>): {
  method: Method;
  path: string;
  query: string[];
} {
  const [method, rest = ''] = endpoint.route.split(' ') as [Method, string];
  const [path = '', query] = rest.split('?');
  return { method, path, query: query ? query.split('&') : [] };
}

/**
 * `agency`: under /v2/agency/, the HQ key only, never `x-company-id`; `account`: the HQ account's own,
 * or a client's through `x-company-id`.
 */
export function scopeOf(endpoint: Pick<Endpoint, 'route'>): 'agency' | 'account' {
  return partsOf(endpoint).path.startsWith('/v2/agency/') ? 'agency' : 'account';
}

/** The method and the path to request, its `{name}` parts filled in. */
export function target(
  endpoint: Pick<Endpoint, 'route'>,
  values: Readonly<Record<string, string | number>> = {},
): { method: Method; path: string } {
  const { method, path } = partsOf(endpoint);
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${endpoint.route}: no value for {${name}}`);
    return String(value);
  });
  return { method, path: filled };
}

/** The service refuses a longer request URL (its docs say so of the blacklist's `email_filter`). */
export const MAX_REQUEST_URL_LENGTH = 4_100;

export function debugging(http: HttpLike): boolean {
  return http.debugging === true;
}

export function accountName(companyId: number | undefined): string {
  return companyId === undefined ? 'the account' : `company ${companyId}`;
}

/**
 * A request under one client company's path (`{cid}`): error messages name the company, and the
 * action is `doing` followed by it ("list the keys of" company 1042).
 */
export function companyRequest(
  http: HttpLike,
  companyId: number,
  endpoint: Endpoint,
  doing: string,
  content: Pick<RequestSpec, 'query' | 'body' | 'showsKeys'> = {},
): Promise<HttpResponse> {
  return http.request({
    ...target(endpoint, { cid: companyId }),
    ...content,
    company: companyId,
    action: `${doing} company ${companyId}`,
  });
}
