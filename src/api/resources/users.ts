/** Who a key is (`/v1/me`), and a client company's users (the paged list, with its `role` filter). */
import type { HttpLike } from '../lazy-http.js';
import {
  type CompanyUser,
  expectObject,
  expectPage,
  isCompanyUser,
  type JsonObject,
  type Page,
} from '../types.js';
import { companyRequest, debugging, type Endpoint, target } from './endpoint.js';

/** The roles of a company's users, as the `role` filter of the users list takes them. */
export const COMPANY_ROLES = ['admin', 'owner', 'authorized_team_member', 'guest'] as const;
export type CompanyRole = (typeof COMPANY_ROLES)[number];

export const USER_ENDPOINTS = {
  me: {
    route: 'GET /v1/me',
    does: 'the account a key belongs to (and its user)',
    commands: ['me', 'login', 'plan', 'apply'],
  },
  list: {
    route: 'GET /v2/agency/companies/{cid}/users?page&role',
    does: "a company's users; `role=guest` for its guests",
    commands: ['companies users', 'guests invite', 'guests permissions', 'plan', 'apply'],
  },
} as const satisfies Record<string, Endpoint>;

export async function me(http: HttpLike, companyId?: number): Promise<JsonObject> {
  const res = await http.request({
    ...target(USER_ENDPOINTS.me),
    companyId,
    action: companyId === undefined ? 'identify the key' : `read the account of company ${companyId}`,
  });
  return expectObject(res, debugging(http), '/v1/me', 'an object');
}

export async function listCompanyUsersPage(
  http: HttpLike,
  companyId: number,
  page: number,
  role?: CompanyRole,
): Promise<Page<CompanyUser>> {
  const res = await companyRequest(http, companyId, USER_ENDPOINTS.list, 'list the users of', {
    query: { page, role },
  });
  return expectPage(res.data, isCompanyUser, `the user list of company ${companyId}`, debugging(http));
}
