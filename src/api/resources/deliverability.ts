/** Each client's deliverability counters over a period and the period before it. */
import type { HttpLike } from '../lazy-http.js';
import { type Deliverability, expectPage, isDeliverability, type Page } from '../types.js';
import { debugging, type Endpoint, target } from './endpoint.js';

/** The deliverability listing's page size: the service's maximum (its default is 20). */
const DELIVERABILITY_PER_PAGE = 50;

export const DELIVERABILITY_ENDPOINTS = {
  list: {
    route: 'GET /v2/agency/deliverability?from&to&page&per_page',
    does: `each client's counters, ${DELIVERABILITY_PER_PAGE} clients a page`,
    commands: ['deliverability', 'health'],
  },
} as const satisfies Record<string, Endpoint>;

export async function deliverabilityPage(
  http: HttpLike,
  page: number,
  period: { from?: string; to?: string } = {},
): Promise<Page<Deliverability>> {
  const query = { from: period.from, to: period.to, page, per_page: DELIVERABILITY_PER_PAGE };
  const res = await http.request({
    ...target(DELIVERABILITY_ENDPOINTS.list),
    query,
    action: `read the deliverability of the clients (page ${page})`,
  });
  return expectPage(res.data, isDeliverability, 'the deliverability listing', debugging(http));
}
