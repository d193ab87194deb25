/**
 * People: who the caller is (GET /v1/me: an HQ user, or a client account) and who can reach a
 * client company (GET /v2/agency/companies/{cid}/users, paged like companies). Roles as the docs
 * name them: the agency's admin reaches every client (`admin`); other agency users only the
 * companies where they have a role (`owner` of the companies they own); the client's own team
 * (`authorized_team_member`) and its `guest`s, with `guest_permissions`.
 */
import { type PageBody, pageOf, parsePage } from '../paging.js';
import { ok, type Route } from '../routing.js';
import { type CompanyUserItem, type CompanyUserRole, clientUsers } from '../seed/users.js';
import type { Store } from '../store.js';
import {
  type CompanyRecord,
  type HqContext,
  type RequestContext,
  SandboxError,
  type UserRecord,
} from '../types.js';

function me(context: RequestContext): Record<string, unknown> {
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
export function agencyRoles(user: UserRecord, company: CompanyRecord): CompanyUserRole[] {
  if (user.agencyId !== company.agencyId) return [];
  const roles: CompanyUserRole[] = [];
  if (user.role === 'AGENCY_OWNER') roles.push('admin');
  if (company.ownerId === user.id) roles.push('owner');
  return roles;
}

/**
 * Everyone who can reach the company: the agency's users with a role, the client's own team, then
 * its guests who accepted their invitation (a pending one is not a user yet).
 */
export function companyUsers(store: Store, company: CompanyRecord): CompanyUserItem[] {
  const agencyUsers = store.users(company.agencyId).flatMap((u): CompanyUserItem[] => {
    const roles = agencyRoles(u, company);
    return roles.length === 0
      ? []
      : [{ id: u.id, name: u.name, email: u.email, roles, guest_permissions: null }];
  });
  const team = company.seeded
    ? clientUsers(company.id, company.name).filter((u) => !u.roles.includes('guest'))
    : [];
  const guests = store
    .guestsOf(company)
    .filter((g) => g.accepted)
    .map(
      (g): CompanyUserItem => ({
        id: g.id,
        name: g.name,
        email: g.email,
        roles: ['guest'],
        guest_permissions: g.permissions,
      }),
    );
  return [...agencyUsers, ...team, ...guests];
}

const COMPANY_ROLES: readonly CompanyUserRole[] = ['admin', 'owner', 'authorized_team_member', 'guest'];

function listCompanyUsers(
  store: Store,
  context: HqContext,
  companyId: string,
  query: { page?: string; role?: string },
): PageBody<CompanyUserItem> {
  const page = parsePage(query.page);
  const { role } = query;
  if (role !== undefined && !COMPANY_ROLES.includes(role as CompanyUserRole)) {
    throw new SandboxError(400, `role must be one of ${COMPANY_ROLES.join(', ')} (got "${role}")`);
  }
  const company = store.companyForAgencyEndpoint(context, companyId);
  const users = companyUsers(store, company);
  const chosen = role === undefined ? users : users.filter((u) => u.roles.includes(role as CompanyUserRole));
  return pageOf(chosen, page, (u) => u);
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
