/** An account's campaigns. */
import type { HttpLike } from '../lazy-http.js';
import { type Campaign, expectList, isIdentified, isV1Nothing } from '../types.js';
import { accountName, debugging, type Endpoint, target } from './endpoint.js';

export const CAMPAIGN_ENDPOINTS = {
  list: {
    route: 'GET /v1/campaign_list?status',
    does: 'the campaigns of an account (a bare array; 204 or a v1 "nothing" is an empty list)',
    commands: ['campaigns list', 'inventory', 'health'],
  },
} as const satisfies Record<string, Endpoint>;

/** GET /v1/campaign_list[?status=A,B]: a bare array; 204, an empty body or a v1 "nothing" = []. */
export async function campaigns(
  http: HttpLike,
  companyId?: number,
  statuses?: readonly string[],
): Promise<Campaign[]> {
  const res = await http.request({
    ...target(CAMPAIGN_ENDPOINTS.list),
    query: { status: statuses && statuses.length > 0 ? statuses.join(',') : undefined },
    companyId,
    emptyIsNothing: true,
    action: `list the campaigns of ${accountName(companyId)}`,
  });
  const data = res.data;
  if (data === undefined) return [];
  if (isV1Nothing(data)) return [];
  return expectList(debugging(http), data, isIdentified, 'the campaign list') as Campaign[];
}
