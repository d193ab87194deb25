/**
 * Guests of a client company, as the service's docs describe them (HQ key only):
 *
 * POST /v2/agency/companies/{cid}/invite_guest `{"guests": [{name, email, guest_permissions}]}`, 1 to
 * 10 guests, all or none (a bad item is 400 and nobody is invited). A new address is invited (pending:
 * not listed among the users until the person accepts); an address invited before gets its original
 * invitation again (the new name and permissions are ignored), and one who accepted gets the original
 * id back, without an error. The answer's shape is not documented: ours is 201
 * `{"guests": [{id, email, status: "invited"|"pending"|"accepted"}]}`.
 *
 * PUT /v2/agency/companies/{cid}/guests/permissions `{"guests": [{id, permissions}]}` sets the
 * permissions of accepted guests: 200 with no body; an id that is not a guest of the company is 404
 * and nothing changes.
 */
import { type Input, jsonBody, type Result, type Route, type RouteEnv } from '../routing.js';
import type { Store } from '../store.js';
import { type GuestRecord, type HqContext, isObject, SandboxError } from '../types.js';
import { companyUsers } from './users.js';

const MAX_GUESTS_PER_INVITATION = 10;
/** The only permission the docs name; [] = none. */
const GUEST_PERMISSIONS: readonly string[] = ['mailboxes'];
const EMAIL = /^[^@\s]+@([a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/i;

function permissionsOf(value: unknown, where: string): string[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value) || value.some((p) => typeof p !== 'string' || !GUEST_PERMISSIONS.includes(p))) {
    throw new SandboxError(400, `${where} must be [] or ["mailboxes"]`);
  }
  return [...new Set(value as string[])];
}

function guestItems(body: unknown, max?: number): unknown[] {
  const items = isObject(body) ? body.guests : undefined;
  if (!Array.isArray(items) || items.length === 0) {
    throw new SandboxError(400, 'Request body must be {"guests": [...]} with at least one guest');
  }
  if (max !== undefined && items.length > max) {
    throw new SandboxError(400, `At most ${max} guests per invitation (got ${items.length})`);
  }
  return items;
}

/** Ids of invited guests come after every id the seed uses (5,000,001 on). */
function nextGuestId(store: Store): number {
  let last = 5_000_000;
  for (const list of Object.values(store.savedGuests())) for (const g of list) last = Math.max(last, g.id);
  return last + 1;
}

function inviteGuests(store: Store, context: HqContext, companyId: string, body: unknown): Result {
  const company = store.companyForAgencyEndpoint(context, companyId);
  const seen = new Set<string>();
  // Every item is checked before anything changes: all or none.
  const wanted = guestItems(body, MAX_GUESTS_PER_INVITATION).map((item, i) => {
    const where = `guests[${i}]`;
    if (!isObject(item)) throw new SandboxError(400, `${where} must be an object`);
    const email = typeof item.email === 'string' ? item.email.trim().toLowerCase() : '';
    if (!EMAIL.test(email)) throw new SandboxError(400, `${where}.email is not an email address`);
    if (seen.has(email)) throw new SandboxError(400, `${where}.email ${email} is given twice`);
    seen.add(email);
    if (item.name !== undefined && item.name !== null && typeof item.name !== 'string') {
      throw new SandboxError(400, `${where}.name must be a string`);
    }
    const name = typeof item.name === 'string' ? item.name : '';
    return { email, name, permissions: permissionsOf(item.guest_permissions, `${where}.guest_permissions`) };
  });
  const members = new Set(
    companyUsers(store, company)
      .filter((u) => !u.roles.includes('guest'))
      .map((u) => u.email.toLowerCase()),
  );
  for (const { email } of wanted) {
    if (members.has(email)) {
      throw new SandboxError(409, `${email} is already a user of company ${company.id}`);
    }
  }
  const list = [...store.guestsOf(company)];
  let id = nextGuestId(store);
  const answer = wanted.map(({ email, name, permissions }) => {
    const known = list.find((g) => g.email === email);
    if (known) return { id: known.id, email, status: known.accepted ? 'accepted' : 'pending' };
    const guest: GuestRecord = { id: id++, email, name, permissions, accepted: false };
    list.push(guest);
    return { id: guest.id, email, status: 'invited' };
  });
  store.replaceGuests(company.id, list);
  return { status: 201, body: { guests: answer } };
}

function setGuestPermissions(store: Store, context: HqContext, companyId: string, body: unknown): Result {
  const company = store.companyForAgencyEndpoint(context, companyId);
  const guests = store.guestsOf(company);
  const changes = guestItems(body).map((item, i) => {
    const where = `guests[${i}]`;
    if (!isObject(item) || typeof item.id !== 'number') {
      throw new SandboxError(400, `${where} must be an object with a numeric "id"`);
    }
    const guest = guests.find((g) => g.id === item.id && g.accepted);
    if (!guest) throw new SandboxError(404, `Guest ${item.id} not found in company ${company.id}`);
    if (!Array.isArray(item.permissions)) throw new SandboxError(400, `${where}.permissions must be a list`);
    return { id: guest.id, permissions: permissionsOf(item.permissions, `${where}.permissions`) };
  });
  store.replaceGuests(
    company.id,
    guests.map((g) => {
      const change = changes.find((c) => c.id === g.id);
      return change ? { ...g, permissions: change.permissions } : g;
    }),
  );
  return { status: 200, body: undefined };
}

/**
 * Invited guests accept (the control API's stand-in for a person following the e-mail's link): of one
 * company or all, one address or all. Returns how many accepted.
 */
export function acceptInvitations(store: Store, filter: { companyId?: number; email?: string } = {}): number {
  let accepted = 0;
  for (const [companyId, list] of Object.entries(store.savedGuests())) {
    if (filter.companyId !== undefined && Number(companyId) !== filter.companyId) continue;
    const email = filter.email?.toLowerCase();
    const next = list.map((g) => {
      if (g.accepted || (email !== undefined && g.email !== email)) return g;
      accepted += 1;
      return { ...g, accepted: true };
    });
    if (next.some((g, i) => g !== list[i])) store.replaceGuests(Number(companyId), next);
  }
  return accepted;
}

/** A company's two guest writes, each counted for the sandbox's stats. */
const GUEST_WRITES = [
  { path: 'invite_guest', method: 'POST', write: inviteGuests, counter: 'guestInvitations' },
  {
    path: 'guests/permissions',
    method: 'PUT',
    write: setGuestPermissions,
    counter: 'guestPermissionChanges',
  },
] as const;

export function guestRoutes(): Route[] {
  return GUEST_WRITES.map(({ path, method, write, counter }) => ({
    pattern: new RegExp(`^/v2/agency/companies/([^/]+)/${path}$`),
    methods: [method],
    agency: true,
    handle: (c: HqContext, { params, body }: Input, env: RouteEnv) => {
      const result = write(env.store, c, params[0] as string, jsonBody(body));
      env.counters[counter] += 1;
      return result;
    },
  }));
}
