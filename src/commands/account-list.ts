/**
 * What `mailboxes`, `webhooks` and `campaigns` share: the list of one account, the key's own or the
 * `--company` one (by id or exact name), printed with the output's list policy.
 */
import type { AgencyClient } from '../api/client.js';
import { optionalCompanyIdFor, parseOptionalCompanyRef } from '../fleet/resolve.js';
import type { Column } from '../output/writer.js';
import type { Runtime } from '../runtime.js';

export interface AccountList<T> {
  columns: Column<T>[];
  read(api: AgencyClient, companyId: number | undefined): Promise<T[]>;
  noun: [one: string, many: string];
  /** Added to "has no <many>" for an empty list: " with status RUNNING". */
  which?: string | undefined;
}

export async function listOneAccount<T>(
  rt: Runtime,
  company: string | undefined,
  list: AccountList<T>,
): Promise<void> {
  // Both checked before any request: a bad --company, then an unknown --columns name.
  const ref = parseOptionalCompanyRef(company);
  rt.out.columns(list.columns);
  const api = rt.api();
  const companyId = await optionalCompanyIdFor(api, ref);
  const whose = companyId === undefined ? 'The account' : `Company ${companyId}`;
  await rt.out.list(await list.read(api, companyId), list.columns, {
    empty: `${whose} has no ${list.noun[1]}${list.which ?? ''}.`,
    noun: list.noun,
  });
}
