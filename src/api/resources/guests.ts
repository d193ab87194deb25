/** A client company's guests: invitations (at most 10, all or none) and what they may see. */
import type { HttpLike } from '../lazy-http.js';
import type { GuestInvitation } from '../types.js';
import { companyRequest, type Endpoint } from './endpoint.js';

/** The service takes at most this many guests in one invitation (all or none). */
export const MAX_GUESTS_PER_INVITATION = 10;
/** What a guest may be allowed to see beyond the default; none = []. */
export type GuestPermission = 'mailboxes';

export const GUEST_ENDPOINTS = {
  invite: {
    route: 'POST /v2/agency/companies/{cid}/invite_guest',
    does: `invites guests, ${MAX_GUESTS_PER_INVITATION} per request, all or none`,
    commands: ['guests invite', 'apply'],
  },
  permissions: {
    route: 'PUT /v2/agency/companies/{cid}/guests/permissions',
    does: "sets guests' permissions; 200, no body",
    commands: ['guests permissions', 'apply'],
  },
} as const satisfies Record<string, Endpoint>;

/** The answer's shape is not documented, so any success is taken as "invited" and the body is not read. */
export async function inviteGuests(
  http: HttpLike,
  companyId: number,
  guests: readonly GuestInvitation[],
): Promise<void> {
  if (guests.length > MAX_GUESTS_PER_INVITATION) {
    throw new RangeError(`at most ${MAX_GUESTS_PER_INVITATION} guests per request, got ${guests.length}`);
  }
  const invite = `invite ${guests.length === 1 ? 'a guest' : `${guests.length} guests`} to`;
  await companyRequest(http, companyId, GUEST_ENDPOINTS.invite, invite, { body: { guests } });
}

export async function setGuestPermissions(
  http: HttpLike,
  companyId: number,
  guests: readonly { id: number; permissions: GuestPermission[] }[],
): Promise<void> {
  const set = `set the permissions of ${guests.length === 1 ? 'a guest' : `${guests.length} guests`} of`;
  await companyRequest(http, companyId, GUEST_ENDPOINTS.permissions, set, { body: { guests } });
}
