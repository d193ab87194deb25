/**
 * `plan`: what it takes to bring the agency to a desired state. Reads only: the company list (one
 * listing), and for each existing company named in the file its key list and users (HQ account) and
 * its webhooks (its own account via x-company-id, several companies at once).
 */

import { MAX_URLS_PER_EVENT } from '../api/resources/webhooks.js';
import type { Company } from '../api/types.js';
import { AgencyError, ExitCode } from '../errors.js';
import { type RowFailure, rowFailure } from './failures.js';
import {
  type GuestPermission,
  type GuestReader,
  guestStanding,
  notInvitedReason,
  permissionChanges,
  readUsers,
  type WantedGuest,
} from './guests.js';
import { companyKeys } from './keys.js';
import { lookalikeWarning } from './names.js';
import { mapPool } from './ordered.js';
import { planShields, type ShieldChange, type ShieldReader } from './plan-bounce-shield.js';
import type { DesiredCompany, DesiredState, DesiredWebhook } from './plan-file.js';
import { type Similar, similarJson } from './plan-similar.js';
import { type UnmanagedWebhook, unmanagedWebhooks } from './plan-unmanaged.js';
import { type UserReader, userName } from './plan-user.js';
import type { CompanyLister, KeyPort, WebhookReader } from './ports.js';
import { CompanyDirectory } from './resolve.js';
import { withinUrlLimit } from './webhook-changes.js';
import { listedEvent } from './webhook-input.js';
import { hasWebhook, lookalikeUrls, lookalikeUrlWarning } from './webhook-lookalikes.js';

/** Where a change other than a company's creation is made: the company by name, and its id if it exists. */
interface AtCompany {
  company: string;
  company_id: number | null;
}

export type Change =
  | { type: 'company'; name: string }
  | ({ type: 'key' } & AtCompany & { label: string })
  | ({ type: 'webhook' } & AtCompany & { event: string; url: string })
  /** A subscription the file does not list, unsubscribed by apply --prune. */
  | ({ type: 'unmanaged-webhook' } & AtCompany & { event: string; url: string })
  | ({ type: 'guest' } & AtCompany & { email: string; permissions: GuestPermission[] })
  | ({ type: 'guest-permissions' } & AtCompany & {
        email: string;
        guest_id: number;
        from: GuestPermission[];
        to: GuestPermission[];
      })
  | ({ type: 'bounce-shield' } & Omit<ShieldChange, 'company' | 'company_id'> & AtCompany);

/** What a change of one type says besides its type and its company. */
type ChangeFields<K extends Change['type']> = Omit<Extract<Change, { type: K }>, 'type' | keyof AtCompany>;

export interface Blocked {
  company: string;
  company_id: number;
  reason: string;
  /** The key's user, when the company is blocked because that user has no access to it. */
  user?: string;
  /** A guest of the file who is already a user of the company with these roles (never invited). */
  email?: string;
  roles?: string[];
}

type GuestChange = ReturnType<typeof permissionChanges>[number];

/** One company of the file and what it lacks. */
export interface PlannedCompany {
  desired: DesiredCompany;
  /** The company that has the name exactly; undefined when it is to be created. */
  existing: Company | undefined;
  missingKeys: string[];
  missingWebhooks: DesiredWebhook[];
  /** Not guests yet (a pending invitation cannot be seen, so it is here again): to invite. */
  missingGuests: WantedGuest[];
  /** Guests whose permissions differ from the file's. */
  guestChanges: GuestChange[];
  /** Subscriptions the file does not list, when it manages the company's webhooks. */
  unmanagedWebhooks: UnmanagedWebhook[];
}

/** The lists of what a company is missing or has otherwise: each a kind of change. */
type ChangeList = 'missingKeys' | 'missingWebhooks' | 'missingGuests' | 'guestChanges' | 'unmanagedWebhooks';

export interface Plan {
  companies: PlannedCompany[];
  blocked: Blocked[];
  /** Things the file asks for that are in place: companies, key labels, webhook pairs. */
  unchanged: number;
  /** Companies of the agency that the file does not name (never changed). */
  unmentioned: number;
  /** Near-miss names and unknown events. */
  warnings: string[];
  /** Companies of the file that only look like existing ones: left out ("!"), apply refuses the file. */
  similar: Similar[];
  /** Ids of every company that existed when the plan was made (for reconciling a lost answer). */
  knownIds: Set<number>;
  /**
   * Companies of the file whose keys, webhooks or guests could not be read (403: the key's user has no
   * access to them): blocked, left out of the changes, and the plan's exit code.
   */
  unreadable: RowFailure[];
  /** `bounce_shield` changes of campaigns, by company in file order. */
  shields: ShieldChange[];
  /** Subscriptions of managed companies that the file does not list ("?" lines). */
  unmanaged: UnmanagedWebhook[];
  /** apply --prune: the unmanaged subscriptions are changes (unsubscribed), not "?" lines. */
  prune: boolean;
}

export interface PlanPorts {
  keys: Pick<KeyPort, 'listKeysPage'>;
  webhooks: WebhookReader;
  guests: GuestReader;
  /** Read only to name the user in a "has no access" line. */
  user?: UserReader | undefined;
  campaigns?: ShieldReader | undefined;
}

/**
 * The plan for `desired`, read from the agency through `api`. Warnings the reads add (near-miss names)
 * go to `warn`; the file's own were given when it was read.
 */
export async function computePlan(
  desired: DesiredState,
  api: CompanyLister &
    PlanPorts['keys'] &
    PlanPorts['webhooks'] &
    PlanPorts['guests'] &
    UserReader &
    ShieldReader,
  options: {
    concurrency: number;
    signal: AbortSignal;
    warn: (message: string) => void;
    allowSimilar?: boolean | undefined;
    prune?: boolean | undefined;
  },
): Promise<Plan> {
  const ports = { keys: api, webhooks: api, guests: api, user: api, campaigns: api };
  const plan = await makePlan(desired, new CompanyDirectory(api), ports, options);
  for (const warning of plan.warnings.slice(desired.warnings.length)) options.warn(warning);
  return plan;
}

export async function makePlan(
  desired: DesiredState,
  directory: CompanyDirectory,
  ports: PlanPorts,
  options: {
    concurrency: number;
    signal?: AbortSignal | undefined;
    allowSimilar?: boolean | undefined;
    prune?: boolean | undefined;
  },
): Promise<Plan> {
  const all = await directory.all();
  const index = await directory.index();
  const warnings = [...desired.warnings];
  const blocked: Blocked[] = [];
  const similar: Similar[] = [];
  const companies: PlannedCompany[] = desired.companies.flatMap((d) => {
    const existing = index.find(d.name);
    const lookalikes = existing ? [] : index.lookalikes(d.name);
    if (lookalikes.length > 0 && !options.allowSimilar) {
      similar.push({ name: d.name, companies: lookalikes });
      return [];
    }
    if (lookalikes.length > 0) warnings.push(lookalikeWarning(d.name, lookalikes));
    return {
      desired: d,
      existing,
      missingKeys: [...d.keys],
      missingWebhooks: [...d.webhooks],
      missingGuests: [...d.guests],
      guestChanges: [],
      unmanagedWebhooks: [],
    };
  });

  let unchanged = 0;
  const noAccess: { planned: PlannedCompany; error: AgencyError }[] = [];
  await mapPool(
    companies.filter((c) => c.existing !== undefined),
    options.concurrency,
    async (planned) => {
      const company = planned.existing as Company;
      unchanged++;
      // Key lists are HQ-account reads: the HTTP layer's gate keeps up to the run's depth of them in
      // the HQ queue at once, so they are asked for together rather than one after another.
      const keysRead = planned.desired.keys.length === 0 ? undefined : readLabels(ports.keys, company.id);
      const webhooksRead = readWebhooks(ports.webhooks, planned, company, blocked);
      // Every user, not only the guests: a team member is never invited (the service refuses it).
      const usersRead = planned.desired.guests.length === 0 ? undefined : readUsers(ports.guests, company.id);
      const reads = await Promise.all([keysRead, webhooksRead, usersRead]).catch((error: unknown) => {
        if (error instanceof AgencyError && error.status === 403) return error;
        throw error;
      });
      if (reads instanceof AgencyError) {
        // The key's user has no access to this company: it is left out, the rest of the plan goes on.
        unchanged--;
        planned.missingKeys = [];
        planned.missingWebhooks = [];
        planned.missingGuests = [];
        noAccess.push({ planned, error: reads });
        return;
      }
      const [labels, present, users] = reads;
      if (users) {
        const standing = guestStanding(planned.desired.guests, users);
        planned.missingGuests = standing.toInvite;
        planned.guestChanges = permissionChanges(standing.guests);
        unchanged += standing.guests.length - planned.guestChanges.length;
        for (const user of standing.alreadyUsers)
          blocked.push({
            company: company.name,
            company_id: company.id,
            reason: notInvitedReason(user),
            ...user,
          });
      }
      if (labels) {
        planned.missingKeys = planned.desired.keys.filter((label) => !labels.has(label));
        unchanged += planned.desired.keys.length - planned.missingKeys.length;
      }
      if (present === 'blocked') planned.missingWebhooks = [];
      else {
        planned.unmanagedWebhooks = unmanagedWebhooks(planned.desired, company, present);
        const missing = planned.desired.webhooks.filter((w) => !hasWebhook(present, w.event, w.url));
        // With --prune the limit counts what stays: apply removes an event's pruned URLs before its new one.
        const staying = options.prune
          ? present.filter(
              (p) =>
                !planned.unmanagedWebhooks.some(
                  (u) => u.url === p.target_url && u.event.toLowerCase() === p.event.toLowerCase(),
                ),
            )
          : present;
        planned.missingWebhooks = withinUrlLimit(missing, staying, (w) =>
          blocked.push({
            company: company.name,
            company_id: company.id,
            reason: `cannot get webhook ${listedEvent(w.event)} → ${w.url}: ${listedEvent(w.event)} has ${MAX_URLS_PER_EVENT} URLs already, the service's limit per event and account`,
          }),
        );
        for (const w of planned.missingWebhooks) {
          for (const existing of lookalikeUrls(present, w.event, w.url)) {
            warnings.push(
              lookalikeUrlWarning(w.url, w.event, existing, `for ${JSON.stringify(planned.desired.name)}`),
            );
          }
        }
        unchanged += planned.desired.webhooks.length - missing.length;
      }
    },
    options.signal,
  );

  const unreadable: RowFailure[] = [];
  if (noAccess.length > 0) {
    const user = ports.user ? await userName(ports.user) : 'The user of this key';
    for (const { planned, error } of noAccess) {
      const company = planned.existing as Company;
      // "has no access" says it all: an "is inactive" line of the same company goes.
      for (let i = blocked.length - 1; i >= 0; i--)
        if (blocked[i]?.company_id === company.id) blocked.splice(i, 1);
      blocked.push({ company: company.name, company_id: company.id, user, reason: unreadableParts(planned) });
      unreadable.push(rowFailure(company.id, error));
    }
  }
  const shields = ports.campaigns ? await planShields(companies, ports.campaigns, options) : undefined;
  blocked.push(...(shields?.blocked ?? []));
  const mentioned = new Set(companies.flatMap((c) => (c.existing ? [c.existing.id] : [])));
  // Blocked entries follow the file's order, whatever order the reads finished in.
  const order = new Map(companies.map((c, i) => [c.existing?.id, i]));
  blocked.sort((a, b) => (order.get(a.company_id) ?? 0) - (order.get(b.company_id) ?? 0));
  return {
    companies,
    blocked,
    unchanged: unchanged + (shields?.unchanged ?? 0),
    unmentioned: all.filter((c) => !mentioned.has(c.id)).length,
    warnings,
    similar,
    knownIds: new Set(all.map((c) => c.id)),
    unreadable,
    shields: shields?.changes ?? [],
    unmanaged: companies.flatMap((c) => c.unmanagedWebhooks),
    prune: options.prune === true,
  };
}

/** "its keys and webhooks cannot be read": what the file asks of a company that could not be read. */
function unreadableParts({ desired }: PlannedCompany): string {
  const parts = [
    ...(desired.keys.length ? ['keys'] : []),
    ...(desired.webhooks.length ? ['webhooks'] : []),
    ...(desired.guests.length ? ['guests'] : []),
  ];
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0];
  return `its ${list} cannot be read`;
}

/** Labels of the keys the user created for a company (the service shows each user only their own). */
async function readLabels(api: Pick<KeyPort, 'listKeysPage'>, companyId: number): Promise<Set<string>> {
  return new Set((await companyKeys(api, companyId)).map((k) => k.label?.trim()));
}

async function readWebhooks(
  api: WebhookReader,
  planned: PlannedCompany,
  company: Company,
  blocked: Blocked[],
): Promise<Awaited<ReturnType<WebhookReader['webhooks']>> | 'blocked'> {
  if (!planned.desired.managesWebhooks) return [];
  const block = (reason: string) => {
    blocked.push({ company: company.name, company_id: company.id, reason });
    return 'blocked' as const;
  };
  if (!company.active) return block('is inactive: webhooks cannot be read or changed');
  try {
    return await api.webhooks(company.id);
  } catch (error) {
    // The company became inactive since the listing: the service says so with 409.
    if (error instanceof AgencyError && error.exitCode === ExitCode.conflict) {
      return block(`webhooks cannot be read or changed: ${error.message}`);
    }
    throw error;
  }
}

/** The changes in the order apply makes them: companies (file order), then keys, then webhooks. */
export function planChanges(plan: Plan): Change[] {
  /** One kind of change over every company, in file order, from that company's list of them. */
  const each = <K extends Exclude<Change['type'], 'company'>, L extends ChangeList>(
    type: K,
    list: L,
    fields: (item: PlannedCompany[L][number]) => ChangeFields<K>,
  ): Change[] =>
    plan.companies.flatMap((c) => {
      const at: AtCompany = {
        company: c.existing?.name ?? c.desired.name,
        company_id: c.existing?.id ?? null,
      };
      return c[list].map((item) => ({ type, ...at, ...fields(item) }) as Extract<Change, { type: K }>);
    });
  return [
    ...plan.companies
      .filter((c) => !c.existing)
      .map((c): Change => ({ type: 'company', name: c.desired.name })),
    ...each('key', 'missingKeys', (label) => ({ label })),
    ...each('webhook', 'missingWebhooks', (w) => ({ event: listedEvent(w.event), url: w.url })),
    ...(plan.prune
      ? each('unmanaged-webhook', 'unmanagedWebhooks', (u) => ({ event: u.event, url: u.url }))
      : []),
    ...each('guest', 'missingGuests', (g) => ({ email: g.email, permissions: g.permissions })),
    ...each('guest-permissions', 'guestChanges', (g) => ({
      email: g.email,
      guest_id: g.id,
      from: g.from,
      to: g.to,
    })),
    ...plan.shields.map((s): Change => ({ type: 'bounce-shield', ...s })),
  ];
}

/** `--json`: {"changes": [...], "unchanged": N, "blocked": [...], "similar": [...], "unmanaged": [...], "unmentioned": N}. */
export function planJson(plan: Plan) {
  return {
    changes: planChanges(plan),
    unchanged: plan.unchanged,
    blocked: plan.blocked,
    similar: similarJson(plan.similar),
    unmanaged: plan.unmanaged,
    unmentioned: plan.unmentioned,
  };
}
