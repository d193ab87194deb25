/**
 * A company's keys as the service shows them to this user (each user sees only the keys they
 * created): every page, and the one with a label, compared after trimming as `plan` compares them.
 */
import { collect, paginate } from '../api/paginate.js';
import type { ApiKey } from '../api/types.js';
import type { KeyPort } from './ports.js';

export function companyKeys(api: Pick<KeyPort, 'listKeysPage'>, companyId: number): Promise<ApiKey[]> {
  return collect(paginate((page) => api.listKeysPage(companyId, page)));
}

/** The keys your user created with this label, in the service's order (normally at most one). */
export async function keysLabelled(
  api: Pick<KeyPort, 'listKeysPage'>,
  companyId: number,
  label: string,
): Promise<ApiKey[]> {
  const wanted = label.trim();
  return (await companyKeys(api, companyId)).filter((key) => key.label?.trim() === wanted);
}
