/**
 * People: who the caller is (GET /v1/me: an HQ user, or a client account) and who can reach a
 * client company (GET /v2/agency/companies/{cid}/users, paged like companies). Roles as the docs
 * name them: the agency's admin reaches every client (`admin`); other agency users only the
 * companies where they have a role (`owner` of the companies they own); the client's own team
 * (`authorized_team_member`) and its `guest`s, with `guest_permissions`.
 */
import { type Page, pageOf, parsePage } from '../paging.js';
import { ok, type Route } from '../routing.js';
import { type CompanyRole, type CompanyUserItem, clientUsers } from '../seed/users.js';
import type { Store } from '../store.js';
import type { CompanyRecord, HqContext, RequestContext, UserRecord } from '../types.js';

export function me(context: RequestContext): Record<string, unknown> {
  const agency = { id: context.agency.id, name: context.agency.name };
  if (context.level === 'hq') {
    const { user } = context;
    return { id: user.id, email: user.email, name: user.name, role: user.role, agency, account_type: 'HQ' };
  }
  return {
    id: context.company.id,
    company_id: context.company.id,
    company_name: context.company.name,
    account_type: 'CLIENT',
    agency,
  };
}

/** The roles an agency user holds in a company; none = no access (the x-company-id 403). */
export function agencyRoles(user: UserRecord, company: CompanyRecord): CompanyRole[] {
  if (user.agencyId !== company.agencyId) return [];
  const roles: CompanyRole[] = [];
  if (user.role === 'AGENCY_OWNER') roles.push('admin');
  if (company.ownerId === user.id) roles.push('owner');
  return roles;
}

/** Everyone who can reach the company: the agency's users with a role, then the client's own people. */
export function companyUsers(store: Store, company: CompanyRecord): CompanyUserItem[] {
  const agencyUsers = store.users(company.agencyId).flatMap((u): CompanyUserItem[] => {
    const roles = agencyRoles(u, company);
    return roles.length === 0
      ? []
      : [{ id: u.id, name: u.name, email: u.email, roles, guest_permissions: null }];
  });
  return company.seeded ? [...agencyUsers, ...clientUsers(company.id, company.name)] : agencyUsers;
}

export function listCompanyUsers(
  store: Store,
  context: HqContext,
  companyId: string,
  query: { page?: string },
): Page<CompanyUserItem> {
  const page = parsePage(query.page);
  const company = store.companyForAgencyEndpoint(context, companyId);
  return pageOf(companyUsers(store, company), page, (u) => u);
}

export const userRoutes: Route[] = [
  { pattern: /^\/v1\/me$/, methods: ['GET'], agency: false, handle: (c) => ok(me(c)) },
  {
    pattern: /^\/v2\/agency\/companies\/([^/]+)\/users$/,
    methods: ['GET'],
    agency: true,
    handle: (c, { params, query }, { store }) => ok(listCompanyUsers(store, c, params[0] as string, query)),
  },
];
