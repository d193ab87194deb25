/**
 * The service's endpoints, one module per resource (`companies.ts`, `keys.ts`, …): each holds its
 * endpoints as data (`<NOUN>_ENDPOINTS`), its limits and shapes as constants, and one typed function
 * per call. `src/api/client.ts` is a thin facade over them; this table is what tests and the docs read
 * (test/unit/endpoints.test.ts, `npm run docs` → docs/agency-api-coverage.md).
 *
 * How to add an endpoint:
 * 1. In `src/api/resources/<noun>.ts` (a new file for a new noun, listed in RESOURCES below), add an
 *    entry to `<NOUN>_ENDPOINTS` — its route (`'GET /v2/agency/companies/{cid}/users?page&role'`),
 *    what it does, the commands that send it (the scope follows from the path: /v2/agency/ is the
 *    HQ's) — and a function `(http, …) => typed data` that requests `...target(endpoint, {cid})`
 *    and narrows the answer (src/api/types.ts).
 * 2. One method on `AgencyClient` (src/api/client.ts) that calls it, named as the fleet's ports use it.
 * 3. The sandbox's route in `src/sandbox/resources/<noun>.ts` (the same file name), added to its
 *    `…Routes`: the test fails for an endpoint that has no route there.
 * 4. `npm run docs`: the coverage page lists it with its commands (each must exist in the tree).
 */
import { BLACKLIST_ENDPOINTS } from './blacklist.js';
import { CAMPAIGN_ENDPOINTS } from './campaigns.js';
import { COMPANY_ENDPOINTS } from './companies.js';
import { DELIVERABILITY_ENDPOINTS } from './deliverability.js';
import { type Endpoint, partsOf, scopeOf } from './endpoint.js';
import { GUEST_ENDPOINTS } from './guests.js';
import { KEY_ENDPOINTS } from './keys.js';
import { MAILBOX_ENDPOINTS } from './mailboxes.js';
import { REPORT_ENDPOINTS } from './reports.js';
import { USER_ENDPOINTS } from './users.js';
import { WEBHOOK_ENDPOINTS } from './webhooks.js';

export type { Endpoint } from './endpoint.js';

/** Resource (its file name here and in src/sandbox/resources/) → its endpoints, in the coverage page's order. */
export const RESOURCES: Readonly<Record<string, Readonly<Record<string, Endpoint>>>> = {
  companies: COMPANY_ENDPOINTS,
  keys: KEY_ENDPOINTS,
  users: USER_ENDPOINTS,
  guests: GUEST_ENDPOINTS,
  mailboxes: MAILBOX_ENDPOINTS,
  deliverability: DELIVERABILITY_ENDPOINTS,
  blacklist: BLACKLIST_ENDPOINTS,
  webhooks: WEBHOOK_ENDPOINTS,
  campaigns: CAMPAIGN_ENDPOINTS,
  reports: REPORT_ENDPOINTS,
};

/** Every endpoint the client calls, with its resource and its name there. */
export function endpoints() {
  return Object.entries(RESOURCES).flatMap(([resource, table]) =>
    Object.entries(table).map(([name, endpoint]) => ({
      ...endpoint,
      ...partsOf(endpoint),
      resource,
      name,
      scope: scopeOf(endpoint),
    })),
  );
}

/** Documented agency endpoints the tool has no command for (reached with `agency api`). */
export const NOT_CALLED: readonly Omit<Endpoint, 'commands'>[] = [
  { route: 'POST /v2/agency/companies/{cid}/linkedin_accounts', does: 'the LinkedIn connection flow' },
  {
    route: 'POST /v2/agency/companies/{cid}/linkedin_accounts/generate-connect-link',
    does: 'the LinkedIn connection flow',
  },
];
