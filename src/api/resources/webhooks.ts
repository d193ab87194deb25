/**
 * An account's webhooks: the list (the specification's v1 path, else the documented v2 one), and
 * subscribing or unsubscribing one URL to one event.
 */
import { ApiError } from '../../errors.js';
import type { HttpResponse } from '../http.js';
import type { HttpLike } from '../lazy-http.js';
import { expectArray, isRecord, isWebhook, shapeError, type Webhook } from '../types.js';
import { accountName, debugging, type Endpoint, target } from './endpoint.js';

/** The service takes at most this many URLs subscribed to one event in one account (409 beyond). */
export const MAX_URLS_PER_EVENT = 3;
/** Answers to GET /v1/webhooks that mean "not served here": the v2 path is tried instead. */
const MISSING_ENDPOINT_STATUSES: readonly number[] = [404, 405];

const WEBHOOK_USERS = [
  'webhooks list',
  'webhooks subscribe',
  'webhooks unsubscribe',
  'webhooks move',
  'inventory',
  'health',
  'plan',
  'apply',
];

export const WEBHOOK_ENDPOINTS = {
  listV1: {
    route: 'GET /v1/webhooks',
    does: "an account's subscriptions (the specification's path)",
    commands: WEBHOOK_USERS,
  },
  listV2: {
    route: 'GET /v2/webhooks',
    does: `the same, where /v1/webhooks answers ${MISSING_ENDPOINT_STATUSES.join(' or ')} (the service's docs)`,
    commands: WEBHOOK_USERS,
  },
  subscribe: {
    route: 'POST /v1/webhooks/subscribe',
    does: `subscribes a URL to an event; at most ${MAX_URLS_PER_EVENT} URLs per event`,
    commands: ['webhooks subscribe', 'webhooks move', 'apply'],
  },
  unsubscribe: {
    route: 'POST /v1/webhooks/unsubscribe',
    does: 'unsubscribes a URL from an event',
    commands: ['webhooks unsubscribe', 'webhooks move'],
  },
} as const satisfies Record<string, Endpoint>;

/** Where one service serves the webhook list, once known: kept by the client for its whole life. */
export interface WebhookPath {
  path?: string;
}

/**
 * GET /v1/webhooks (the specification); where that is not served (404/405), GET /v2/webhooks (the
 * service's docs), and that path for the rest of the run. "Nothing" comes as 204, an empty body or
 * {"message": ...} without "webhooks": all are an empty list.
 */
export async function webhooks(http: HttpLike, known: WebhookPath, companyId?: number): Promise<Webhook[]> {
  const read = (path: string) =>
    http.request({
      method: 'GET',
      path,
      companyId,
      emptyIsNothing: true,
      action: `list the webhooks of ${accountName(companyId)}`,
    });
  const v1 = target(WEBHOOK_ENDPOINTS.listV1).path;
  const v2 = target(WEBHOOK_ENDPOINTS.listV2).path;
  let res: HttpResponse;
  if (known.path !== undefined) {
    res = await read(known.path);
  } else {
    try {
      res = await read(v1);
      known.path = v1;
    } catch (error) {
      if (!(error instanceof ApiError && MISSING_ENDPOINT_STATUSES.includes(error.status))) throw error;
      try {
        res = await read(v2);
      } catch (second) {
        // Both 404: more likely the company than the path; the first answer is the one to show.
        if (second instanceof ApiError && MISSING_ENDPOINT_STATUSES.includes(second.status)) throw error;
        throw second;
      }
      known.path = v2;
    }
  }
  const data = res.data;
  const debug = debugging(http);
  if (data === undefined) return [];
  if (Array.isArray(data)) return expectArray(data, isWebhook, 'the webhook list', debug);
  if (!isRecord(data)) throw shapeError('the webhook list', 'expected an object with "webhooks"', debug);
  if (data.webhooks === undefined || data.webhooks === null) return [];
  return expectArray(data.webhooks, isWebhook, 'the webhook list', debug);
}

/**
 * Subscribes `targetUrl` to `event`. The service refuses a pair it already has with 409 "Event
 * defined for this url." (e.g. added since the list was read): the pair is there, which is what was
 * asked, so that is 'exists', not a failure.
 */
export async function subscribeWebhook(
  http: HttpLike,
  companyId: number | undefined,
  event: string,
  targetUrl: string,
): Promise<'subscribed' | 'exists'> {
  try {
    await changeWebhook(http, 'subscribe', companyId, event, targetUrl);
    return 'subscribed';
  } catch (error) {
    if (error instanceof ApiError && error.status === 409 && ALREADY_SUBSCRIBED.test(error.detail ?? ''))
      return 'exists';
    throw error;
  }
}

export async function unsubscribeWebhook(
  http: HttpLike,
  companyId: number | undefined,
  event: string,
  targetUrl: string,
): Promise<void> {
  await changeWebhook(http, 'unsubscribe', companyId, event, targetUrl);
}

/** Both take the same body; the event is sent in lower case, as the service documents subscriptions. */
function changeWebhook(
  http: HttpLike,
  change: 'subscribe' | 'unsubscribe',
  companyId: number | undefined,
  event: string,
  targetUrl: string,
): Promise<HttpResponse> {
  const subscribe = change === 'subscribe';
  const endpoint = subscribe ? WEBHOOK_ENDPOINTS.subscribe : WEBHOOK_ENDPOINTS.unsubscribe;
  return http.request({
    ...target(endpoint),
    body: { target_url: targetUrl, event: event.toLowerCase() },
    companyId,
    action: `${change} ${accountName(companyId)} ${subscribe ? 'to' : 'from'} ${event.toUpperCase()}`,
  });
}

/** The service's words for a pair it already has (v1 E_WRONG_PARAM, 409). */
const ALREADY_SUBSCRIBED = /event defined for this url/i;
