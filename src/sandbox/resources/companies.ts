/** Agency companies: the paged list (with the `active` filter) and creation in requests of at most 10. */

import { type PageBody, pageOf, parseActive, parsePage } from '../paging.js';
import { jsonBody, ok, type Route } from '../routing.js';
import type { Store } from '../store.js';
import { AUTO_KEY_LABEL, type CompanyRecord, type HqContext, isObject, SandboxError } from '../types.js';

const MAX_COMPANIES_PER_REQUEST = 10;

interface CompanyListItem {
  id: number;
  name: string;
  owner: string;
  active: boolean;
  running_campaigns: number;
  email_slots: number;
  linkedin_slots: number;
}

export interface CreatedCompanyBody {
  id: number;
  name: string;
  owner: string;
  active: boolean;
}

function listCompanies(
  store: Store,
  context: HqContext,
  query: { page?: string; active?: string },
): PageBody<CompanyListItem> {
  const page = parsePage(query.page);
  const active = parseActive(query.active);
  return pageOf(store.companyList(context.agency.id, active), page, (c) => listItem(store, c));
}

function listItem(store: Store, c: CompanyRecord): CompanyListItem {
  return {
    id: c.id,
    name: c.name,
    owner: store.user(c.ownerId)?.name ?? '',
    active: c.active,
    running_campaigns: c.runningCampaigns,
    email_slots: c.emailSlots,
    linkedin_slots: c.linkedinSlots,
  };
}

/** All or nothing: one bad, repeated or existing name refuses the whole request. */
export function createCompanies(
  store: Store,
  context: HqContext,
  body: unknown,
): { companies: CreatedCompanyBody[] } {
  if (!isObject(body)) throw new SandboxError(400, 'Request body must be an object with a "companies" array');
  const items = body.companies;
  if (!Array.isArray(items)) throw new SandboxError(400, '"companies" must be an array');
  if (items.length === 0) throw new SandboxError(400, '"companies" must not be empty');
  if (items.length > MAX_COMPANIES_PER_REQUEST) {
    throw new SandboxError(
      400,
      `At most ${MAX_COMPANIES_PER_REQUEST} companies can be created per request (got ${items.length})`,
    );
  }
  const names = items.map((item, i) => {
    const name = isObject(item) ? item.name : undefined;
    if (typeof name !== 'string' || name.trim() === '') {
      throw new SandboxError(400, `companies[${i}].name must be a non-empty string`);
    }
    return name;
  });
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) {
      throw new SandboxError(400, `Duplicate company name in request: "${name}"; no company was created`);
    }
    seen.add(name);
    if (store.hasCompanyNamed(context.agency.id, name)) {
      throw new SandboxError(400, `A company named "${name}" already exists; no company was created`);
    }
  }
  const created = names.map((name) => {
    const company = store.addCompany({
      agencyId: context.agency.id,
      name,
      ownerId: context.user.id,
      active: true,
      runningCampaigns: 0,
      emailSlots: 0,
      linkedinSlots: 0,
      seeded: false,
    });
    store.addKey({
      key: store.keyMaker.client(),
      label: AUTO_KEY_LABEL,
      companyId: company.id,
      userId: context.user.id,
    });
    return { id: company.id, name, owner: context.user.name, active: true };
  });
  store.changed();
  return { companies: created };
}

export const companyRoutes: Route[] = [
  {
    pattern: /^\/v2\/agency\/companies$/,
    methods: ['GET', 'POST'],
    agency: true,
    list: 'companies',
    handle: (c, { method, query, body }, { store, counters }) => {
      if (method === 'GET') return ok(listCompanies(store, c, query));
      const created = createCompanies(store, c, jsonBody(body));
      counters.createdCompanies += created.companies.length;
      return { status: 201, body: created };
    },
  },
];
