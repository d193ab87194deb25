/**
 * An account's webhook subscriptions. The specification lists them at GET /v1/webhooks; the
 * service's docs at GET /v2/webhooks (docs mode serves only that one, so a client's fallback can
 * be tried). An empty list answers 204 on v1 (the service's v1 "nothing", with v1Dialect) and, on
 * v2, the `{"message"}` an integration saw.
 *
 * POST /v1/webhooks/subscribe and /unsubscribe take `{target_url, event}`, the event in any case
 * (the docs send it lower-case; it is listed upper-case). The rules, as the docs state them:
 * subscribe answers 201 `{target_url, event, message: "Subscribed."}`; the same pair again, or a
 * 4th URL for one event of an account, 409 E_WRONG_PARAM. Unsubscribe answers 200
 * `{target_url, event, message: "Unsubscribed."}`; a pair that is not subscribed is 404
 * E_WRONG_PARAM "Event not defined for this url." (not documented: our choice, so a client that
 * unsubscribes twice learns it).
 */
import { jsonBody, ok, type Result, type Route, type RouteEnv, v1List } from '../routing.js';
import type { Store } from '../store.js';
import { isObject, type RequestContext, SandboxError, type WebhookRecord } from '../types.js';

const NO_WEBHOOKS_MESSAGE = "You haven't subscribed to any webhooks.";
const MAX_URLS_PER_EVENT = 3;
const EVENT_FORM = /^[A-Za-z][A-Za-z0-9_]*$/;
const MAX_URL_LENGTH = 2048;

function wrongParam(status: number, msg: string): SandboxError {
  return new SandboxError(status, msg, 'E_WRONG_PARAM');
}

/** `{target_url, event}` checked: an absolute http(s) URL and an event of the documented form. */
function pairOf(body: unknown): WebhookRecord {
  if (!isObject(body)) throw wrongParam(400, 'Request body must be an object with "target_url" and "event"');
  const { target_url: url, event } = body;
  if (typeof event !== 'string' || !EVENT_FORM.test(event)) {
    throw wrongParam(400, 'event must be an event name such as prospect_replied');
  }
  if (typeof url !== 'string' || url.length > MAX_URL_LENGTH || !isWebUrl(url)) {
    throw wrongParam(400, 'target_url must be an absolute http or https URL');
  }
  return { target_url: url, event: event.toUpperCase() };
}

function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function subscribe(store: Store, context: RequestContext, body: unknown): Result {
  const pair = pairOf(body);
  const list = store.webhooksOf(context);
  const same = list.filter((w) => w.event.toUpperCase() === pair.event);
  if (same.some((w) => w.target_url === pair.target_url))
    throw wrongParam(409, 'Event defined for this url.');
  if (same.length >= MAX_URLS_PER_EVENT) {
    throw wrongParam(409, `An event can be subscribed to at most ${MAX_URLS_PER_EVENT} URLs per account.`);
  }
  store.replaceWebhooks(context.account, [...list, pair]);
  const sent = (body as { event: string }).event;
  return { status: 201, body: { target_url: pair.target_url, event: sent, message: 'Subscribed.' } };
}

function unsubscribe(store: Store, context: RequestContext, body: unknown): Result {
  const pair = pairOf(body);
  const list = store.webhooksOf(context);
  const rest = list.filter(
    (w) => !(w.event.toUpperCase() === pair.event && w.target_url === pair.target_url),
  );
  if (rest.length === list.length) throw wrongParam(404, 'Event not defined for this url.');
  store.replaceWebhooks(context.account, rest);
  const sent = (body as { event: string }).event;
  return ok({ target_url: pair.target_url, event: sent, message: 'Unsubscribed.' });
}

function v1Webhooks(env: RouteEnv, context: RequestContext): Result {
  const webhooks = env.store.webhooksOf(context);
  return v1List(webhooks, { webhooks }, env);
}

function v2Webhooks(store: Store, context: RequestContext): Result {
  const webhooks = store.webhooksOf(context);
  return ok(webhooks.length === 0 ? { message: NO_WEBHOOKS_MESSAGE } : { webhooks });
}

export function webhookRoutes(options: { docsMode: boolean }): Route[] {
  const list: Route = options.docsMode
    ? {
        pattern: /^\/v2\/webhooks$/,
        methods: ['GET'],
        agency: false,
        handle: (c, _i, { store }) => v2Webhooks(store, c),
      }
    : {
        pattern: /^\/v1\/webhooks$/,
        methods: ['GET'],
        agency: false,
        handle: (c, _i, env) => v1Webhooks(env, c),
      };
  return [
    list,
    change('subscribe', subscribe, 'webhooksSubscribed'),
    change('unsubscribe', unsubscribe, 'webhooksUnsubscribed'),
  ];
}

/** POST /v1/webhooks/{action}: one change of the account's subscriptions, counted in the stats. */
function change(
  action: 'subscribe' | 'unsubscribe',
  apply: (store: Store, context: RequestContext, body: unknown) => Result,
  counter: 'webhooksSubscribed' | 'webhooksUnsubscribed',
): Route {
  return {
    pattern: new RegExp(`^/v1/webhooks/${action}$`),
    methods: ['POST'],
    agency: false,
    handle: (c, { body }, { store, counters }) => {
      const result = apply(store, c, jsonBody(body));
      counters[counter] += 1;
      return result;
    },
  };
}
