/** Every company of the agency, all pages, one request at a time (plans, checks, fleet commands). */
import { collect, paginate } from '../api/paginate.js';
import type { Company, Page } from '../api/types.js';

export interface CompanyLister {
  listCompaniesPage(page: number, active?: boolean): Promise<Page<Company>>;
}

export function fetchAllCompanies(api: CompanyLister, active?: boolean): Promise<Company[]> {
  return collect(paginate((p) => api.listCompaniesPage(p, active)));
}
