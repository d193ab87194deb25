/**
 * An account's webhook subscriptions. The specification lists them at GET /v1/webhooks; the
 * service's docs at GET /v2/webhooks (docs mode serves only that one, so a client's fallback can
 * be tried). An empty list answers 204 on v1 (the service's v1 "nothing") and, on v2, the
 * `{"message"}` an integration saw.
 */
import { ok, type Result, type Route, type RouteEnv, v1List } from '../routing.js';
import { companyWebhooks, hqWebhooks, type WebhookItem } from '../seed/webhooks.js';
import type { Store } from '../store.js';
import type { RequestContext } from '../types.js';

export const NO_WEBHOOKS_MESSAGE = "You haven't subscribed to any webhooks.";

export function listWebhooks(_store: Store, context: RequestContext): { webhooks: WebhookItem[] } {
  if (context.level === 'hq') return { webhooks: hqWebhooks(context.agency.domain) };
  const c = context.company;
  return { webhooks: c.seeded ? companyWebhooks(c.id, c.name) : [] };
}

function v1Webhooks(env: RouteEnv, context: RequestContext): Result {
  const list = listWebhooks(env.store, context);
  return v1List(list.webhooks, list, env);
}

function v2List(store: Store, context: RequestContext): Result {
  const list = listWebhooks(store, context);
  return ok(list.webhooks.length === 0 ? { message: NO_WEBHOOKS_MESSAGE } : list);
}

export function webhookRoutes(options: { docsMode: boolean }): Route[] {
  const list: Route = options.docsMode
    ? {
        pattern: /^\/v2\/webhooks$/,
        methods: ['GET'],
        agency: false,
        handle: (c, _i, { store }) => v2List(store, c),
      }
    : {
        pattern: /^\/v1\/webhooks$/,
        methods: ['GET'],
        agency: false,
        handle: (c, _i, env) => v1Webhooks(env, c),
      };
  return [list];
}
