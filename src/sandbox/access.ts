/**
 * Which account a request acts on: the x-company-id rules of the specification (400, 403, 404, 409,
 * 403, in that order) and the HQ-only agency endpoints.
 */
import type { Store } from './store.js';
import {
  accountOfAgency,
  accountOfCompany,
  type HqContext,
  type Principal,
  type RequestContext,
  SandboxError,
} from './types.js';

/** Applies the x-company-id rules in the specification's order: 400, 403, 404, 409, 403. */
export function resolveContext(
  store: Store,
  principal: Principal,
  companyHeader: string | undefined,
): RequestContext {
  if (companyHeader === undefined) {
    return principal.kind === 'hq'
      ? {
          level: 'hq',
          account: accountOfAgency(principal.agency.id),
          agency: principal.agency,
          user: principal.user,
        }
      : {
          level: 'client',
          account: accountOfCompany(principal.company.id),
          agency: principal.agency,
          company: principal.company,
        };
  }
  if (!/^\d+$/.test(companyHeader)) {
    throw new SandboxError(400, `x-company-id must be a number (got "${companyHeader}")`);
  }
  if (principal.kind !== 'hq') {
    throw new SandboxError(
      403,
      "x-company-id can only be used with the agency's main account key; this key belongs to a client account",
    );
  }
  const company = store.companyInAgency(principal.agency, companyHeader);
  if (!company.active) {
    throw new SandboxError(409, `Company ${company.id} is inactive`);
  }
  if (!store.hasAccess(principal.user, company)) {
    throw new SandboxError(403, `User ${principal.user.name} has no access to company ${company.id}`);
  }
  return {
    level: 'client',
    account: accountOfCompany(company.id),
    agency: principal.agency,
    company,
    user: principal.user,
  };
}

/** Agency endpoints are served on the HQ account only. */
export function requireHq(context: RequestContext): HqContext {
  if (context.level === 'hq') return context;
  if (context.user) {
    throw new SandboxError(
      403,
      "Agency endpoints act on the agency's HQ account; call them without x-company-id",
    );
  }
  throw new SandboxError(403, "Agency endpoints require the agency's main account key");
}
