/** A client company's API keys: the paged list and creation (the service cannot delete a key). */
import type { HttpLike } from '../lazy-http.js';
import { type ApiKey, expectObject, expectPage, isApiKey, type Page, shapeError } from '../types.js';
import { companyRequest, debugging, type Endpoint } from './endpoint.js';

export const KEY_ENDPOINTS = {
  list: {
    route: 'GET /v2/agency/companies/{cid}/api_keys?page',
    does: "a company's keys",
    commands: ['keys list', 'keys create', 'companies create', 'inventory', 'plan', 'apply'],
  },
  create: {
    route: 'POST /v2/agency/companies/{cid}/api_keys',
    does: 'creates a key; answers 201 `{"api_key"}`',
    commands: ['keys create', 'apply'],
  },
} as const satisfies Record<string, Endpoint>;

export async function listKeysPage(http: HttpLike, companyId: number, page: number): Promise<Page<ApiKey>> {
  const res = await companyRequest(http, companyId, KEY_ENDPOINTS.list, 'list the keys of', {
    query: { page },
    // Showing keys is what a key list is for: the key in use is not masked in it.
    showsKeys: true,
  });
  return expectPage(res.data, isApiKey, `the key list of company ${companyId}`, debugging(http));
}

export async function createKey(http: HttpLike, companyId: number, label: string): Promise<string> {
  const res = await companyRequest(http, companyId, KEY_ENDPOINTS.create, 'create a key for', {
    body: { label },
    showsKeys: true,
  });
  const body = expectObject(res, debugging(http), 'key creation', 'an object with "api_key"');
  if (typeof body.api_key !== 'string') {
    throw shapeError('key creation', 'expected an object with "api_key"', debugging(http));
  }
  return body.api_key;
}
