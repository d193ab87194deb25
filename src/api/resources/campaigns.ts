/**
 * An account's campaigns (the key's own, or a client through x-company-id): the v1 list, and the v2
 * campaign API — read one campaign, change its status (run, pause, stop: no body, 200 with no body),
 * its Bounce Shield threshold. The service has no v2 list.
 */
import type { HttpLike } from '../lazy-http.js';
import {
  type Campaign,
  expectList,
  expectObject,
  isIdentified,
  isV1Nothing,
  type JsonObject,
  shapeError,
} from '../types.js';
import { accountName, debugging, type Endpoint, target } from './endpoint.js';

const CONTROL = ['campaigns pause', 'campaigns stop', 'campaigns resume'];

export const CAMPAIGN_ENDPOINTS = {
  list: {
    route: 'GET /v1/campaign_list?status',
    does: 'the campaigns of an account (a bare array; 204 or a v1 "nothing" is an empty list)',
    commands: [
      'campaigns list',
      'inventory',
      'health',
      ...CONTROL,
      'campaigns bounce-shield',
      'plan',
      'apply',
    ],
  },
  read: {
    route: 'GET /v2/campaigns/{id}',
    does: 'one campaign: reads back its status after a lost answer',
    commands: CONTROL,
  },
  run: {
    route: 'POST /v2/campaigns/{id}/run',
    does: 'runs a PAUSED or STOPPED campaign; no body, 200 with no body',
    commands: ['campaigns resume'],
  },
  pause: {
    route: 'POST /v2/campaigns/{id}/pause',
    does: 'pauses a RUNNING campaign; no body, 200 with no body',
    commands: ['campaigns pause'],
  },
  stop: {
    route: 'POST /v2/campaigns/{id}/stop',
    does: 'stops a RUNNING or PAUSED campaign; no body, 200 with no body',
    commands: ['campaigns stop'],
  },
  bounceShield: {
    route: 'GET /v2/campaigns/{id}/bounce_shield/threshold',
    does: 'a campaign\'s Bounce Shield threshold `{"bounce_rate_threshold": N | null}`',
    commands: ['campaigns bounce-shield', 'plan', 'apply'],
  },
  setBounceShield: {
    route: 'PUT /v2/campaigns/{id}/bounce_shield/threshold',
    does: 'sets the threshold `{"bounce_rate_threshold": 1..99}`; 204',
    commands: ['campaigns bounce-shield', 'apply'],
  },
  clearBounceShield: {
    route: 'DELETE /v2/campaigns/{id}/bounce_shield/threshold',
    does: "back to the service's default threshold; 204",
    commands: ['campaigns bounce-shield'],
  },
} as const satisfies Record<string, Endpoint>;

/** What POST /v2/campaigns/{id}/… does: run (from PAUSED or STOPPED), pause, stop. */
export type CampaignAction = 'run' | 'pause' | 'stop';

/** Bounce Shield: null = the service's default threshold (a bounce rate of 2 %); a set one is 1–99. */
export const BOUNCE_SHIELD_DEFAULT = 2;
export const BOUNCE_SHIELD_MIN = 1;
export const BOUNCE_SHIELD_MAX = 99;

/** GET /v2/campaigns/{id}: `{id, name, status, email_account_ids, settings, steps}` (kept whole). */
export interface CampaignDetail extends JsonObject {
  status: string;
}

const DOING: Record<CampaignAction, string> = { run: 'resume', pause: 'pause', stop: 'stop' };

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

export async function campaign(
  http: HttpLike,
  companyId: number | undefined,
  campaignId: number,
): Promise<CampaignDetail> {
  const res = await http.request({
    ...target(CAMPAIGN_ENDPOINTS.read, { id: campaignId }),
    companyId,
    action: `read campaign ${campaignId} of ${accountName(companyId)}`,
  });
  const what = `campaign ${campaignId}`;
  const body = expectObject(res, debugging(http), what, 'an object with "status"');
  if (typeof body.status !== 'string')
    throw shapeError(what, 'expected an object with "status"', debugging(http));
  return body as CampaignDetail;
}

/** POST /v2/campaigns/{id}/run|pause|stop: no body, and none in the answer. */
export async function changeCampaign(
  http: HttpLike,
  companyId: number | undefined,
  campaignId: number,
  action: CampaignAction,
): Promise<void> {
  await http.request({
    ...target(CAMPAIGN_ENDPOINTS[action], { id: campaignId }),
    companyId,
    action: `${DOING[action]} campaign ${campaignId} of ${accountName(companyId)}`,
  });
}

/** The campaign's threshold in percent; null = the service's default (an empty answer too). */
export async function bounceShield(
  http: HttpLike,
  companyId: number | undefined,
  campaignId: number,
): Promise<number | null> {
  const res = await http.request({
    ...target(CAMPAIGN_ENDPOINTS.bounceShield, { id: campaignId }),
    companyId,
    emptyIsNothing: true,
    action: `read the Bounce Shield of campaign ${campaignId} of ${accountName(companyId)}`,
  });
  if (res.data === undefined) return null;
  const what = `the Bounce Shield of campaign ${campaignId}`;
  const body = expectObject(res, debugging(http), what, 'an object with "bounce_rate_threshold"');
  const value = body.bounce_rate_threshold;
  if (value === null || value === undefined) return null;
  const n = Number(value);
  if (!Number.isFinite(n)) throw shapeError(what, '"bounce_rate_threshold" is not a number', debugging(http));
  return n;
}

/** PUT {"bounce_rate_threshold": N} (204). */
export async function setBounceShield(
  http: HttpLike,
  companyId: number | undefined,
  campaignId: number,
  threshold: number,
): Promise<void> {
  await http.request({
    ...target(CAMPAIGN_ENDPOINTS.setBounceShield, { id: campaignId }),
    body: { bounce_rate_threshold: threshold },
    companyId,
    action: `set the Bounce Shield of campaign ${campaignId} of ${accountName(companyId)}`,
  });
}

/** DELETE: back to the service's default. */
export async function clearBounceShield(
  http: HttpLike,
  companyId: number | undefined,
  campaignId: number,
): Promise<void> {
  await http.request({
    ...target(CAMPAIGN_ENDPOINTS.clearBounceShield, { id: campaignId }),
    companyId,
    action: `clear the Bounce Shield of campaign ${campaignId} of ${accountName(companyId)}`,
  });
}
