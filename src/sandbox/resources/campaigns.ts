/**
 * An account's campaigns (GET /v1/campaign_list): a bare array, filtered by `status=A,B` (the
 * documented statuses, any case), or one campaign with statistics by `id=N`. Own account, or a
 * client through x-company-id. Read-only, derived from the account by seed/campaigns.ts.
 */
import { type Route, type RouteEnv, v1List } from '../routing.js';
import { accountCampaigns, CAMPAIGN_STATUSES, type CampaignItem, campaignStats } from '../seed/campaigns.js';
import { type RequestContext, SandboxError } from '../types.js';

/** HQ accounts' campaign ids start far from the companies' (company id × 100). */
const HQ_CAMPAIGN_KEY = 900;

export function campaignsOf(context: RequestContext): CampaignItem[] {
  if (context.level === 'hq')
    return accountCampaigns(HQ_CAMPAIGN_KEY + context.agency.id, context.agency.name, 2);
  const c = context.company;
  return c.seeded ? accountCampaigns(c.id, c.name, c.runningCampaigns) : [];
}

function statusFilter(raw: string | undefined): Set<string> | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const wanted = raw.split(',').map((s) => s.trim().toUpperCase());
  for (const status of wanted) {
    if (!(CAMPAIGN_STATUSES as readonly string[]).includes(status)) {
      throw new SandboxError(
        400,
        `Unknown campaign status "${status}"; expected ${CAMPAIGN_STATUSES.join(', ')}`,
        'E_WRONG_PARAM',
      );
    }
  }
  return new Set(wanted);
}

function campaignList(env: RouteEnv, context: RequestContext, query: Record<string, string>) {
  const all = campaignsOf(context);
  if (query.id !== undefined) {
    const one = /^\d+$/.test(query.id) ? all.find((c) => c.id === Number(query.id)) : undefined;
    if (!one) throw new SandboxError(404, `Campaign ${query.id} not found`, 'E_WRONG_PARAM');
    return v1List([one], [{ ...one, stats: campaignStats(one) }], env);
  }
  const wanted = statusFilter(query.status);
  const items = wanted ? all.filter((c) => wanted.has(c.status)) : all;
  return v1List(items, items, env);
}

export const campaignRoutes: Route[] = [
  {
    pattern: /^\/v1\/campaign_list$/,
    methods: ['GET'],
    agency: false,
    handle: (c, { query }, env) => campaignList(env, c, query),
  },
];
