/** Who the caller is (GET /v1/me): an HQ user, or a client account. */
import { ok, type Route } from '../routing.js';
import type { RequestContext } from '../types.js';

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

export const userRoutes: Route[] = [
  { pattern: /^\/v1\/me$/, methods: ['GET'], agency: false, handle: (c) => ok(me(c)) },
];
