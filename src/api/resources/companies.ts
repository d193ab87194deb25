/** The agency's client companies: the paged list and creation. */
import type { HttpLike } from '../lazy-http.js';
import {
  type Company,
  type CreatedCompany,
  expectArray,
  expectObject,
  expectPage,
  isCompany,
  type Page,
} from '../types.js';
import { debugging, type Endpoint, target } from './endpoint.js';

/** The service takes at most this many companies in one creation request. */
export const MAX_COMPANIES_PER_REQUEST = 10;

export const COMPANY_ENDPOINTS = {
  list: {
    route: 'GET /v2/agency/companies?active&page',
    does: 'the company list; also read to resolve a company name and for `--all`',
    commands: [
      'companies list',
      'companies view',
      'companies create',
      'inventory',
      'deliverability',
      'health',
      'plan',
      'apply',
    ],
  },
  create: {
    route: 'POST /v2/agency/companies',
    does: `creates companies, ${MAX_COMPANIES_PER_REQUEST} names per request`,
    commands: ['companies create', 'apply'],
  },
} as const satisfies Record<string, Endpoint>;

export async function listCompaniesPage(
  http: HttpLike,
  page: number,
  active?: boolean,
): Promise<Page<Company>> {
  const res = await http.request({
    ...target(COMPANY_ENDPOINTS.list),
    query: { active, page },
    action: `list the companies (page ${page})`,
  });
  return expectPage(res.data, isCompany, 'the company list', debugging(http));
}

export async function createCompanies(http: HttpLike, names: readonly string[]): Promise<CreatedCompany[]> {
  const res = await http.request({
    ...target(COMPANY_ENDPOINTS.create),
    body: { companies: names.map((name) => ({ name })) },
    action: `create ${names.length === 1 ? 'the company' : `${names.length} companies`}`,
  });
  const body = expectObject(res, debugging(http), 'company creation', 'an object with "companies"');
  return expectArray(body.companies, isCompany, 'company creation', debugging(http));
}
