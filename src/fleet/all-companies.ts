/** Every company of the agency, all pages, one request at a time (plans, checks, fleet commands). */
import { collect, paginate } from '../api/paginate.js';
import type { Company } from '../api/types.js';
import type { CompanyLister } from './ports.js';

export function fetchAllCompanies(api: CompanyLister, active?: boolean): Promise<Company[]> {
  return collect(paginate((p) => api.listCompaniesPage(p, active)));
}
