/** A company's API keys, reached with the HQ key: each user lists only the keys they created. */
import { type PageBody, pageOf, parsePage } from '../paging.js';
import { jsonBody, ok, type Route } from '../routing.js';
import type { Store } from '../store.js';
import { type HqContext, isObject, type KeyRecord, SandboxError } from '../types.js';

function listKeys(
  store: Store,
  context: HqContext,
  companyId: string,
  query: { page?: string },
): PageBody<{ api_key: string; label: string }> {
  const page = parsePage(query.page);
  const c = store.companyForAgencyEndpoint(context, companyId);
  return pageOf(store.keysOf(c.id, context.user.id), page, (k) => ({ api_key: k.key, label: k.label }));
}

export function createKey(
  store: Store,
  context: HqContext,
  companyId: string,
  body: unknown,
): { api_key: string } {
  const c = store.companyForAgencyEndpoint(context, companyId);
  const label = isObject(body) ? body.label : undefined;
  if (typeof label !== 'string' || label.trim() === '') {
    throw new SandboxError(400, 'label is required and must be a non-empty string');
  }
  const record: KeyRecord = { key: store.keyMaker.client(), label, companyId: c.id, userId: context.user.id };
  store.addKey(record);
  store.changed();
  return { api_key: record.key };
}

export const keyRoutes: Route[] = [
  {
    pattern: /^\/v2\/agency\/companies\/([^/]+)\/api_keys$/,
    methods: ['GET', 'POST'],
    agency: true,
    list: 'api_keys',
    handle: (c, { method, params, query, body }, { store, counters }) => {
      const cid = params[0] as string;
      if (method === 'GET') return ok(listKeys(store, c, cid, query));
      const created = createKey(store, c, cid, jsonBody(body));
      counters.createdKeys += 1;
      return { status: 201, body: created };
    },
  },
];
