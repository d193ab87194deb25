/** An account's webhook subscriptions (GET /v1/webhooks). */
import { ok, type Route } from '../routing.js';
import { companyWebhooks, hqWebhooks, type WebhookItem } from '../seed/world.js';
import type { Store } from '../store.js';
import type { RequestContext } from '../types.js';

export function listWebhooks(_store: Store, context: RequestContext): { webhooks: WebhookItem[] } {
  if (context.level === 'hq') return { webhooks: hqWebhooks(context.agency.domain) };
  const c = context.company;
  return { webhooks: c.seeded ? companyWebhooks(c.id, c.name) : [] };
}

export const webhookRoutes: Route[] = [
  {
    pattern: /^\/v1\/webhooks$/,
    methods: ['GET'],
    agency: false,
    handle: (c, _input, { store }) => ok(listWebhooks(store, c)),
  },
];
