/**
 * Guests of a client company (a client's own people with a read-only view): who is a guest already
 * (and who is a user with another role, never invited), inviting the others (at most 10 per request,
 * all or none, each with its permissions), and setting the permissions of existing guests. A pending invitation is not visible through the API: inviting
 * it again is safe (the service repeats the original invitation), so it is simply `invited` again.
 * Shared by `guests invite`, `guests permissions`, `plan` and `apply`.
 */

import { collect, paginate } from '../api/paginate.js';
import type { GuestPermission } from '../api/resources/guests.js';
import { MAX_GUESTS_PER_INVITATION } from '../api/resources/guests.js';
import type { CompanyUser, GuestInvitation, Page } from '../api/types.js';
import { AgencyError, InterruptedError, PartialFailureError, UsageError } from '../errors.js';
import { asciiForm, asciiFormNote, chunked, isEmailAddress } from './blacklist.js';
import { type RowError, rowError } from './failures.js';
import { answerMayBeLost } from './lost-answer.js';

export type { GuestPermission };

export interface GuestReader {
  listCompanyUsersPage(companyId: number, page: number, role?: 'guest'): Promise<Page<CompanyUser>>;
}

export interface GuestWriter {
  inviteGuests(companyId: number, guests: readonly GuestInvitation[]): Promise<void>;
  setGuestPermissions(
    companyId: number,
    guests: readonly { id: number; permissions: GuestPermission[] }[],
  ): Promise<void>;
}

/** A guest as the user wants them: from flags, a CSV line or a plan file. */
export interface WantedGuest {
  /** Checked and lower-cased. */
  email: string;
  name?: string | undefined;
  permissions: GuestPermission[];
  /** Where it came from, for messages ("--email", "guests.csv line 3"). */
  where: string;
}

/** The company's guests (users with the role `guest`), every page. */
export function readGuests(api: GuestReader, companyId: number): Promise<CompanyUser[]> {
  return collect(paginate((page) => api.listCompanyUsersPage(companyId, page, 'guest')));
}

/** Every user of the company, guests and the others (one listing: their roles tell them apart). */
export function readUsers(api: GuestReader, companyId: number): Promise<CompanyUser[]> {
  return collect(paginate((page) => api.listCompanyUsersPage(companyId, page)));
}

function isGuest(user: CompanyUser): boolean {
  return Array.isArray(user.roles) && user.roles.includes('guest');
}

const emailOf = (user: CompanyUser) => user.email?.trim().toLowerCase();

/** A listed guest's permissions in the form the service takes them ([] or ["mailboxes"]). */
export function permissionsOf(user: CompanyUser): GuestPermission[] {
  const raw = user.guest_permissions;
  const has = Array.isArray(raw)
    ? raw.includes('mailboxes')
    : typeof raw === 'object' && raw !== null && (raw as Record<string, unknown>).mailboxes === true;
  return has ? ['mailboxes'] : [];
}

/**
 * A guest's permissions written as one word, as the CSV's permissions column and a plan file's bare
 * `permissions: mailboxes` say them: `mailboxes` (any case), or empty / `none` for none. Undefined for
 * any other word.
 */
export function permissionsOfWord(word: string): GuestPermission[] | undefined {
  const said = word.trim().toLowerCase();
  if (said === 'mailboxes') return ['mailboxes'];
  return said === '' || said === 'none' ? [] : undefined;
}

export function samePermissions(a: readonly GuestPermission[], b: readonly GuestPermission[]): boolean {
  return a.length === b.length && a.every((p) => b.includes(p));
}

/**
 * The address checked and lower-cased, an internationalised domain in its ASCII form (with a note in
 * `notes` when given); `where` names its source in the error (exit 2).
 */
export function checkGuestEmail(value: string, where: string, notes?: string[]): string {
  const given = value.trim().toLowerCase();
  const email = asciiForm(given);
  if (!isEmailAddress(email)) {
    throw new UsageError(
      `${JSON.stringify(value)} (${where}) is not an e-mail address (such as name@example.com).`,
    );
  }
  if (email !== given) notes?.push(asciiFormNote(given, email, where));
  return email;
}

/** Every address once: the same address twice is an error naming both places (which name would win?). */
export function checkDistinct(guests: readonly WantedGuest[]): void {
  const first = new Map<string, string>();
  const problems: string[] = [];
  for (const guest of guests) {
    const seen = first.get(guest.email);
    if (seen) problems.push(`${guest.email} is given twice (${seen} and ${guest.where}).`);
    else first.set(guest.email, guest.where);
  }
  if (problems.length > 0) {
    throw new UsageError(problems.length === 1 ? (problems[0] as string) : problems.join('\n'), {
      hint: 'Nothing was sent.',
    });
  }
}

/** `unknown`: the answer was lost, and an invitation stays invisible until accepted, so nothing tells. */
type InviteResult = 'invited' | 'already-guest' | 'already-user' | 'would-invite' | 'unknown' | 'failed';

/** What a row whose answer was lost says: never "not invited" of invitations the service may have taken. */
const UNKNOWN_INVITATION =
  'the answer was lost, and a pending invitation cannot be read back: whether it was sent is unknown; running the same command again is safe (the service repeats a pending invitation, nothing is duplicated)';

/**
 * An invitation request that failed, when its answer may have been lost (the service may have taken
 * it): its rows are `unknown`, never `failed` — a pending invitation cannot be read back, so nothing
 * settles it — and `failure` is the run's error, saying so. Undefined for a refusal (nothing sent).
 * `guests invite` and `apply` both report a lost invitation through this.
 */
export function lostInvitations(
  error: AgencyError,
  count: number,
): { row: { result: 'unknown'; error: RowError }; failure: PartialFailureError } | undefined {
  if (!answerMayBeLost(error)) return undefined;
  return {
    row: { result: 'unknown', error: { status: error.status, message: UNKNOWN_INVITATION } },
    failure: new PartialFailureError(
      `${error.message}; whether ${count === 1 ? 'the invitation was' : `the ${count} invitations were`} sent is unknown`,
      error.exitCode,
      error.status,
      'Running the same command again is safe: the service repeats a pending invitation, and an accepted one is already-guest.',
    ),
  };
}

export interface InviteRow {
  email: string;
  result: InviteResult;
  /** `already-user`: the roles the address has in the company (authorized_team_member, owner, admin). */
  roles?: string[];
  error?: RowError;
}

export interface InviteOutcome {
  rows: InviteRow[];
  /** The error that stopped the invitations (the rest were not sent); InterruptedError for Ctrl-C. */
  failure: AgencyError | undefined;
}

/** The invitation the service takes for a wanted guest. */
export function invitationOf(guest: WantedGuest): GuestInvitation {
  return {
    email: guest.email,
    ...(guest.name ? { name: guest.name } : {}),
    guest_permissions: [...guest.permissions],
  };
}

/** A wanted address that is a user of the company with another role than guest (a team member, the owner). */
export interface AlreadyUser {
  email: string;
  /** Its roles in the company (authorized_team_member, owner, admin); [] when the service lists none. */
  roles: string[];
}

/** The wanted guests as the company's users (every role, one listing) find them. */
export interface GuestStanding {
  /** Not users of the company: to invite (a pending invitation is not listed, so it is here again). */
  toInvite: WantedGuest[];
  /** Guests already, each with its listed user. */
  guests: { wanted: WantedGuest; user: CompanyUser }[];
  /** Users with another role: never invited (the service refuses to make a member a guest). */
  alreadyUsers: AlreadyUser[];
}

/**
 * Where each wanted guest stands among the company's `users` (all of them, not only guests): the one
 * decision `guests invite`, `plan` and `apply` share.
 */
export function guestStanding(wanted: readonly WantedGuest[], users: readonly CompanyUser[]): GuestStanding {
  const known = new Map(users.map((u) => [emailOf(u), u]));
  const standing: GuestStanding = { toInvite: [], guests: [], alreadyUsers: [] };
  for (const w of wanted) {
    const user = known.get(w.email);
    if (!user) standing.toInvite.push(w);
    else if (isGuest(user)) standing.guests.push({ wanted: w, user });
    else standing.alreadyUsers.push({ email: w.email, roles: Array.isArray(user.roles) ? user.roles : [] });
  }
  return standing;
}

/** "cannot invite mia@acme.example as a guest: already a user with role authorized_team_member" */
export function notInvitedReason({ email, roles }: AlreadyUser): string {
  const as =
    roles.length === 0
      ? ' (no role listed)'
      : ` with role${roles.length === 1 ? '' : 's'} ${roles.join(', ')}`;
  return `cannot invite ${email} as a guest: already a user${as}`;
}

/**
 * Invites the wanted guests who are not users of the company yet, 10 per request in the order given;
 * those who are guests are `already-guest`, those with another role `already-user` (nothing sent for
 * either: the service refuses to make a member a guest, and would refuse the whole request of 10).
 * The first refused request stops the rest (reported as not sent), so the rows say exactly who was
 * invited.
 */
export async function inviteMissingGuests(
  api: Pick<GuestWriter, 'inviteGuests'>,
  companyId: number,
  wanted: readonly WantedGuest[],
  users: readonly CompanyUser[],
  options: { dryRun: boolean; signal?: AbortSignal | undefined },
): Promise<InviteOutcome> {
  const { toInvite, guests, alreadyUsers } = guestStanding(wanted, users);
  const results = new Map<string, InviteRow>();
  for (const { wanted: g } of guests) results.set(g.email, { email: g.email, result: 'already-guest' });
  for (const u of alreadyUsers)
    results.set(u.email, { email: u.email, result: 'already-user', roles: u.roles });
  let failure: AgencyError | undefined;
  for (const chunk of chunked(toInvite, MAX_GUESTS_PER_INVITATION)) {
    if (options.dryRun) {
      for (const g of chunk) results.set(g.email, { email: g.email, result: 'would-invite' });
      continue;
    }
    if (!failure && options.signal?.aborted) failure = new InterruptedError();
    if (failure) {
      const message =
        failure instanceof InterruptedError ? 'not sent: interrupted' : 'not sent: an earlier request failed';
      for (const g of chunk)
        results.set(g.email, { email: g.email, result: 'failed', error: { status: null, message } });
      continue;
    }
    try {
      await api.inviteGuests(companyId, chunk.map(invitationOf));
      for (const g of chunk) results.set(g.email, { email: g.email, result: 'invited' });
    } catch (error) {
      if (!(error instanceof AgencyError)) throw error;
      const lost = lostInvitations(error, chunk.length);
      failure = lost?.failure ?? error;
      const row = lost?.row ?? { result: 'failed' as const, error: rowError(error) };
      for (const g of chunk) results.set(g.email, { email: g.email, ...row });
    }
  }
  return { rows: wanted.map((g) => results.get(g.email) as InviteRow), failure };
}

/** Existing guests whose permissions differ from what is wanted (the invitations carry the others'). */
export function permissionChanges(
  guests: GuestStanding['guests'],
): { id: number; email: string; from: GuestPermission[]; to: GuestPermission[] }[] {
  return guests.flatMap(({ wanted, user }) => {
    if (typeof user.id !== 'number') return [];
    const from = permissionsOf(user);
    return samePermissions(from, wanted.permissions)
      ? []
      : [{ id: user.id, email: wanted.email, from, to: wanted.permissions }];
  });
}
