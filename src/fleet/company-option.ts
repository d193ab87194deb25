/**
 * A single `<company>` (argument or `--company`) as a company id: digits are an id (checked before
 * any request); a name costs one listing and must match exactly (unknown → exit 4).
 */
import type { CompanyLister } from './ports.js';
import { CompanyDirectory, parseCompanyRef } from './resolve.js';

export async function resolveCompanyArgument(
  api: CompanyLister,
  value: string,
  where = 'company',
): Promise<number> {
  const ref = parseCompanyRef(value, where);
  if (ref.id !== undefined) return ref.id;
  return (await new CompanyDirectory(api).resolve(ref)).id;
}

/** `--company` when given; undefined means the key's own account. */
export function resolveCompanyOption(
  api: CompanyLister,
  value: string | undefined,
): Promise<number | undefined> {
  return value === undefined ? Promise.resolve(undefined) : resolveCompanyArgument(api, value, '--company');
}
