/**
 * An account's campaigns. GET /v1/campaign_list: a bare array, filtered by `status=A,B` (the
 * documented statuses, any case), or one campaign with statistics by `id=N`. Own account, or a client
 * through x-company-id. The campaigns are derived from the account by seed/campaigns.ts; what the v2
 * API changed (a status, a Bounce Shield threshold) is kept in the store.
 *
 * The v2 campaign API, as the docs state it: GET /v2/campaigns/{id}; POST .../run|pause|stop, no body,
 * 200 with no body (PAUSED and STOPPED both run again; stop is not final); GET/PUT/DELETE
 * .../bounce_shield/threshold ({"bounce_rate_threshold": 1..99 | null}, PUT and DELETE 204). A campaign
 * with features the v2 API does not support answers 409 API_UNSUPPORTED_CAMPAIGN_FEATURES to all of
 * them; a missing one 404 CAMPAIGN_NOT_EXIST. What pause does to a campaign that is not running is not
 * documented: this sandbox refuses it (400), as it refuses to stop one that is neither running nor
 * paused, and to run a DRAFT, EDITED or COMPLETED one (409).
 */
import { jsonBody, ok, type Result, type Route, type RouteEnv, v1List } from '../routing.js';
import {
  accountCampaigns,
  CAMPAIGN_STATUSES,
  type CampaignItem,
  campaignStats,
  unsupportedCampaign,
} from '../seed/campaigns.js';
import type { Store } from '../store.js';
import { isObject, type RequestContext, SandboxError } from '../types.js';

/** HQ accounts' campaign ids start far from the companies' (company id × 100). */
const HQ_CAMPAIGN_KEY = 900;

/** The account's campaigns as seeded, with the statuses the v2 API changed when `store` is given. */
export function campaignsOf(context: RequestContext, store?: Store): CampaignItem[] {
  const seeded = seededCampaigns(context);
  const changes = store?.campaignChanges(context.account);
  if (!changes) return seeded;
  return seeded.map((c) => {
    const status = changes[c.id]?.status;
    return status === undefined ? c : { ...c, status: status as CampaignItem['status'] };
  });
}

function seededCampaigns(context: RequestContext): CampaignItem[] {
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
  const all = campaignsOf(context, env.store);
  if (query.id !== undefined) {
    const one = /^\d+$/.test(query.id) ? all.find((c) => c.id === Number(query.id)) : undefined;
    if (!one) throw new SandboxError(404, `Campaign ${query.id} not found`, 'E_WRONG_PARAM');
    return v1List([one], [{ ...one, stats: campaignStats(one) }], env);
  }
  const wanted = statusFilter(query.status);
  const items = wanted ? all.filter((c) => wanted.has(c.status)) : all;
  return v1List(items, items, env);
}

/** The campaign of a v2 path, in the caller's account; 404 or 409 as the service answers. */
function v2Campaign(env: RouteEnv, context: RequestContext, raw: string): CampaignItem {
  const campaign = campaignsOf(context, env.store).find((c) => String(c.id) === raw);
  if (!campaign) throw new SandboxError(404, `CAMPAIGN_NOT_EXIST: campaign ${raw} does not exist.`);
  if (unsupportedCampaign(campaign.id)) {
    throw new SandboxError(
      409,
      'API_UNSUPPORTED_CAMPAIGN_FEATURES: this campaign uses features the API does not support (an IF condition, a scheduled start, or manual, call or SMS tasks).',
    );
  }
  return campaign;
}

/** What each action may start from, and the status it leaves. */
const ACTIONS: Record<string, { from: readonly string[]; to: string; refusal: number }> = {
  pause: { from: ['RUNNING'], to: 'PAUSED', refusal: 400 },
  stop: { from: ['RUNNING', 'PAUSED'], to: 'STOPPED', refusal: 400 },
  run: { from: ['PAUSED', 'STOPPED', 'RUNNING'], to: 'RUNNING', refusal: 409 },
};

function changeStatus(env: RouteEnv, context: RequestContext, raw: string, action: string): Result {
  const campaign = v2Campaign(env, context, raw);
  const rule = ACTIONS[action] as (typeof ACTIONS)[string];
  if (!rule.from.includes(campaign.status)) {
    throw new SandboxError(
      rule.refusal,
      `A ${campaign.status} campaign cannot be ${action === 'run' ? 'run' : `${action}ped`}.`,
    );
  }
  if (campaign.status !== rule.to)
    env.store.updateCampaign(context.account, campaign.id, { status: rule.to });
  return { status: 200, body: undefined };
}

function threshold(env: RouteEnv, context: RequestContext, campaign: CampaignItem): number | null {
  return env.store.campaignChanges(context.account)[campaign.id]?.threshold ?? null;
}

function bounceShield(
  env: RouteEnv,
  context: RequestContext,
  raw: string,
  input: { method: string; body: Parameters<typeof jsonBody>[0] },
): Result {
  const campaign = v2Campaign(env, context, raw);
  if (input.method === 'GET') return ok({ bounce_rate_threshold: threshold(env, context, campaign) });
  if (input.method === 'DELETE') {
    if (threshold(env, context, campaign) !== null)
      env.store.updateCampaign(context.account, campaign.id, { threshold: null });
    return { status: 204, body: undefined };
  }
  const body = jsonBody(input.body);
  const value = isObject(body) ? body.bounce_rate_threshold : undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 99) {
    throw new SandboxError(400, 'Value of bounce_rate_threshold is incorrect: a whole number from 1 to 99.');
  }
  env.store.updateCampaign(context.account, campaign.id, { threshold: value });
  return { status: 204, body: undefined };
}

export const campaignRoutes: Route[] = [
  {
    pattern: /^\/v1\/campaign_list$/,
    methods: ['GET'],
    agency: false,
    handle: (c, { query }, env) => campaignList(env, c, query),
  },
  {
    pattern: /^\/v2\/campaigns\/([^/]+)$/,
    methods: ['GET'],
    agency: false,
    handle: (c, { params }, env) => {
      const campaign = v2Campaign(env, c, params[0] as string);
      const { id, name, status } = campaign;
      return ok({ id, name, status, email_account_ids: [], settings: { timezone: campaign.tz }, steps: {} });
    },
  },
  {
    pattern: /^\/v2\/campaigns\/([^/]+)\/(run|pause|stop)$/,
    methods: ['POST'],
    agency: false,
    handle: (c, { params }, env) => changeStatus(env, c, params[0] as string, params[1] as string),
  },
  {
    pattern: /^\/v2\/campaigns\/([^/]+)\/bounce_shield\/threshold$/,
    methods: ['GET', 'PUT', 'DELETE'],
    agency: false,
    handle: (c, input, env) => bounceShield(env, c, input.params[0] as string, input),
  },
];
