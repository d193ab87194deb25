/**
 * `apply`: carries out a plan in the contract's order — companies (chunks of 10, file order), then
 * missing key labels (HQ account, one at a time), then missing webhook pairs (client accounts, several
 * at once, one write at a time per account). Goes on past a failure; a company that could not be
 * created gets none of its keys, webhooks or guests; guests come last (HQ account: invitations, then
 * permission changes). Every new key is handed to `onKey` before the next
 * request is sent, so that it is written down even if the run dies right after.
 */

import { MAX_GUESTS_PER_INVITATION } from '../api/resources/guests.js';
import type { CreatedCompany } from '../api/types.js';
import { type AgencyError, InterruptedError } from '../errors.js';
import { chunked } from './blacklist.js';
import { isRowFailure, type RowError, type RowFailure, rowError, rowFailure } from './failures.js';
import { type GuestWriter, invitationOf, lostInvitations } from './guests.js';
import { createKeySettled, setBounceShieldSettled } from './lost-answer.js';
import { forCompany } from './names.js';
import { mapPool } from './ordered.js';
import type { Change, Plan, PlannedCompany } from './plan.js';
import { describeShield } from './plan-bounce-shield.js';
import { permissionList } from './plan-lines.js';
import type { UnmanagedWebhook } from './plan-unmanaged.js';
import type { BounceShieldPort, KeyPort, WebhookPort } from './ports.js';
import { listedEvent } from './webhook-input.js';

/** `unknown`: an invitation whose answer was lost (it cannot be read back until accepted). */
type AppliedResult =
  | 'created'
  | 'subscribed'
  | 'unsubscribed'
  | 'invited'
  | 'set'
  | 'unknown'
  | 'failed'
  | 'skipped';

/** What one line of apply's output is about: a change of the plan, with the company's id once it exists. */
type AppliedSubject =
  | { type: 'company'; name: string; company_id: number | null }
  | (Extract<Change, { type: 'key' }> & { api_key?: string })
  | Extract<Change, { type: 'webhook' | 'unmanaged-webhook' | 'guest' }>
  | Omit<Extract<Change, { type: 'guest-permissions' }>, 'guest_id'>
  | Extract<Change, { type: 'bounce-shield' }>;

/** One line of apply's output. */
export type Applied = AppliedSubject & { result: AppliedResult; error?: RowError };

/** What creating the new companies achieved; names in neither list were not attempted (interrupted). */
export interface CreationOutcome {
  created: CreatedCompany[];
  /** Names that were not created, or whose creation is unknown, with the reason. */
  failed: { name: string; error: AgencyError }[];
}

export interface ApplyPorts {
  keys: Pick<KeyPort, 'createKey' | 'listKeysPage'>;
  webhooks: Pick<WebhookPort, 'subscribeWebhook' | 'unsubscribeWebhook'>;
  guests: GuestWriter;
  /** Bounce Shield thresholds of `bounce_shield` (a plan without them needs none). */
  campaigns?: BounceShieldPort | undefined;
  /**
   * Creates the names in chunks of 10, in order, with the lost-answer reconciliation of bulk
   * creation; `knownIds` are the companies that existed when the plan was made.
   */
  createCompanies(
    names: string[],
    knownIds: ReadonlySet<number>,
    onCreated?: (companies: readonly { id: number; name: string }[]) => void,
  ): Promise<CreationOutcome>;
}

export interface ApplyPlanOptions {
  concurrency: number;
  signal?: AbortSignal | undefined;
  /** Told what a read-back found after an answer was lost. */
  note?: ((message: string) => void) | undefined;
  /** Told of each change as it is made (or fails), in order per account. */
  onChange?: ((applied: Applied) => void | Promise<void>) | undefined;
}

export interface ApplyOutcome {
  applied: Applied[];
  failures: RowFailure[];
  interrupted: boolean;
}

export async function applyPlan(
  plan: Plan,
  ports: ApplyPorts,
  options: ApplyPlanOptions,
): Promise<ApplyOutcome> {
  const applied: Applied[] = [];
  const failures: RowFailure[] = [];
  let interrupted = false;
  const report = async (entry: Applied, error?: AgencyError) => {
    if (error)
      failures.push(rowFailure(entry.company_id ?? ('name' in entry ? entry.name : entry.company), error));
    applied.push(entry);
    await options.onChange?.(entry);
  };
  const stopped = () => {
    if (options.signal?.aborted) interrupted = true;
    return interrupted;
  };

  // 1. Companies. An id per company of the file that exists now; undefined = none to give it.
  const ids = new Map<PlannedCompany, number>();
  const notCreated = new Map<PlannedCompany, string>();
  for (const c of plan.companies) if (c.existing) ids.set(c, c.existing.id);
  const toCreate = plan.companies.filter((c) => !c.existing);
  if (toCreate.length > 0 && !stopped()) {
    const byName = new Map(toCreate.map((c) => [c.desired.name, c]));
    // Each request's companies are reported as soon as they exist (a closed stdout stops the next).
    const reportCreated = (companies: readonly { id: number; name: string }[]) => {
      for (const company of companies) {
        const c = byName.get(company.name.trim());
        if (!c || ids.has(c)) continue;
        ids.set(c, company.id);
        void report({ type: 'company', name: c.desired.name, company_id: company.id, result: 'created' });
      }
    };
    const outcome = await ports.createCompanies(
      toCreate.map((c) => c.desired.name),
      plan.knownIds,
      reportCreated,
    );
    reportCreated(outcome.created);
    const failed = new Map(outcome.failed.map((f) => [f.name, f.error]));
    for (const c of toCreate) {
      const error = failed.get(c.desired.name);
      if (ids.has(c)) continue;
      if (error) {
        notCreated.set(c, `company ${JSON.stringify(c.desired.name)} was not created`);
        await report(
          {
            type: 'company',
            name: c.desired.name,
            company_id: null,
            result: 'failed',
            error: rowError(error),
          },
          error,
        );
      } else {
        notCreated.set(c, `company ${JSON.stringify(c.desired.name)} was not created (interrupted)`);
        interrupted = true;
      }
    }
  }

  /**
   * One request for one company of the file, making one change or several at once (all or none): one
   * row each. False when the run must stop (interrupted).
   */
  const attemptAll = async (
    c: PlannedCompany,
    subjects: AppliedSubject[],
    write: (id: number) => Promise<{ result: AppliedResult; api_key?: string }>,
    /** What a failure whose answer may have been lost reports instead of `failed`, if anything. */
    lost?: (error: AgencyError) => { result: 'unknown'; error: RowError } | undefined,
  ): Promise<boolean> => {
    const id = ids.get(c);
    if (id === undefined) {
      const message = notCreated.get(c) ?? 'its company was not created';
      for (const subject of subjects)
        await report({ ...subject, result: 'skipped', error: { status: null, message } });
      return true;
    }
    if (stopped()) return false;
    try {
      const made = await write(id);
      for (const subject of subjects) await report({ ...subject, ...made } as Applied);
    } catch (error) {
      if (error instanceof InterruptedError) {
        interrupted = true;
        return false;
      }
      if (!isRowFailure(error)) throw error;
      const row = lost?.(error) ?? { result: 'failed' as const, error: rowError(error) };
      for (const subject of subjects) await report({ ...subject, ...row }, error);
    }
    return true;
  };
  const attempt = (
    c: PlannedCompany,
    subject: AppliedSubject,
    write: (id: number) => Promise<{ result: AppliedResult; api_key?: string }>,
  ) => attemptAll(c, [subject], write);
  const subjectOf = (c: PlannedCompany) => ({
    company: c.existing?.name ?? c.desired.name,
    company_id: ids.get(c) ?? null,
  });
  /** --prune's removals of one company, one at a time; false when the run must stop. */
  const unsubscribeAll = async (c: PlannedCompany, unmanaged: readonly UnmanagedWebhook[]) => {
    for (const u of unmanaged) {
      const subject = { type: 'unmanaged-webhook' as const, ...subjectOf(c), event: u.event, url: u.url };
      const going = await attempt(c, subject, async (id) => {
        await ports.webhooks.unsubscribeWebhook(id, u.event, u.url);
        return { result: 'unsubscribed' };
      });
      if (!going) return false;
    }
    return true;
  };

  // 2. Keys, on the HQ account: one request at a time.
  keys: for (const c of plan.companies) {
    for (const label of c.missingKeys) {
      const subject = { type: 'key' as const, ...subjectOf(c), label };
      // The plan read the keys: none has this label, so after a lost answer one with it is the new one.
      const going = await attempt(c, subject, async (id) => ({
        result: 'created',
        api_key: await createKeySettled(ports.keys, id, label, {
          before: new Set(),
          retry: 'Running apply again is safe: it reads first and creates only what is missing.',
          note: (message) => options.note?.(message),
        }),
      }));
      if (!going) break keys;
    }
  }

  // 3. Webhooks, on each client account: accounts in parallel, one write at a time within one. The
  // file's own first, then (--prune) the unsubscriptions, so that no URL it wants waits on a removal,
  // except an event that gets a new URL: its pruned ones go first, as the service's limit of URLs
  // per event counts them (the plan counted what stays).
  const prunes = (c: PlannedCompany) => (plan.prune ? c.unmanagedWebhooks : []);
  await mapPool(
    plan.companies.filter((c) => c.missingWebhooks.length + prunes(c).length > 0),
    options.concurrency,
    async (c) => {
      const renewed = new Set(c.missingWebhooks.map((w) => w.event.toLowerCase()));
      const early = (u: UnmanagedWebhook) => renewed.has(u.event.toLowerCase());
      if (!(await unsubscribeAll(c, prunes(c).filter(early)))) return;
      for (const w of c.missingWebhooks) {
        const subject = {
          type: 'webhook' as const,
          ...subjectOf(c),
          event: listedEvent(w.event),
          url: w.url,
        };
        const going = await attempt(c, subject, async (id) => {
          await ports.webhooks.subscribeWebhook(id, w.event, w.url);
          return { result: 'subscribed' };
        });
        if (!going) return;
      }
      await unsubscribeAll(
        c,
        prunes(c).filter((u) => !early(u)),
      );
    },
    options.signal,
  );
  if (options.signal?.aborted) interrupted = true;

  // 4. Guests, on the HQ account: invitations (10 at most, each with its permissions), then one
  // permission change per company for the guests whose permissions differ.
  guests: for (const c of plan.companies) {
    for (const chunk of chunked(c.missingGuests, MAX_GUESTS_PER_INVITATION)) {
      const subjects = chunk.map((g) => ({
        type: 'guest' as const,
        ...subjectOf(c),
        email: g.email,
        permissions: g.permissions,
      }));
      const going = await attemptAll(
        c,
        subjects,
        async (id) => {
          await ports.guests.inviteGuests(id, chunk.map(invitationOf));
          return { result: 'invited' };
        },
        (error) => lostInvitations(error, chunk.length)?.row,
      );
      if (!going) break guests;
    }
    if (c.guestChanges.length === 0) continue;
    const subjects = c.guestChanges.map((g) => ({
      type: 'guest-permissions' as const,
      ...subjectOf(c),
      email: g.email,
      from: g.from,
      to: g.to,
    }));
    const going = await attemptAll(c, subjects, async (id) => {
      await ports.guests.setGuestPermissions(
        id,
        c.guestChanges.map((g) => ({ id: g.id, permissions: g.to })),
      );
      return { result: 'set' };
    });
    if (!going) break;
  }

  // 5. Bounce Shield thresholds, on each client account: accounts in parallel, one write at a time within one.
  const shields = ports.campaigns;
  const byCompany = new Map<number, typeof plan.shields>();
  for (const s of plan.shields) byCompany.set(s.company_id, [...(byCompany.get(s.company_id) ?? []), s]);
  if (shields && !stopped()) {
    await mapPool(
      [...byCompany.values()],
      options.concurrency,
      async (list) => {
        for (const s of list) {
          if (stopped()) return;
          const subject = { type: 'bounce-shield' as const, ...s };
          try {
            await setBounceShieldSettled(shields, s.company_id, s.campaign_id, s.to, (m) =>
              options.note?.(m),
            );
            await report({ ...subject, result: 'set' });
          } catch (error) {
            if (error instanceof InterruptedError) {
              interrupted = true;
              return;
            }
            if (!isRowFailure(error)) throw error;
            await report({ ...subject, result: 'failed', error: rowError(error) }, error);
          }
        }
      },
      options.signal,
    );
  }
  return { applied, failures, interrupted: interrupted || options.signal?.aborted === true };
}

/** `company_id<TAB>name<TAB>label<TAB>api_key`, the line `--keys-out` appends for each new key. */
export function keysOutLine(entry: Applied & { type: 'key' }): string {
  return `${entry.company_id ?? ''}\t${entry.company}\t${entry.label}\t${entry.api_key ?? ''}\n`;
}

/** One line of apply's stdout ("+ key …"), or of a failure on stderr ("failed: key …", after a ✗). */
export function describeApplied(entry: Applied): string {
  const failed = entry.result === 'failed' || entry.result === 'skipped' || entry.result === 'unknown';
  const mark = failed ? `${entry.result}:` : '+';
  const reason = entry.error ? ` — ${entry.error.message}` : '';
  switch (entry.type) {
    case 'company':
      return `${mark} company ${JSON.stringify(entry.name)}${entry.company_id !== null ? ` (id ${entry.company_id})` : ''}${reason}`;
    case 'key':
      return `${mark} key ${JSON.stringify(entry.label)} ${forCompany(entry.company)}${entry.api_key ? `: ${entry.api_key}` : ''}${reason}`;
    case 'webhook':
      return `${mark} webhook ${entry.event} → ${entry.url} ${forCompany(entry.company)}${reason}`;
    case 'unmanaged-webhook':
      return failed
        ? `${mark} unsubscribing webhook ${entry.event} → ${entry.url} ${forCompany(entry.company)}${reason}`
        : `- webhook ${entry.event} → ${entry.url} ${forCompany(entry.company)} (unsubscribed)`;
    case 'guest':
      return `${mark} guest ${entry.email} ${forCompany(entry.company)}${failed ? '' : ' (invited)'}${reason}`;
    case 'guest-permissions':
      return `${failed ? mark : '~'} guest ${entry.email} permissions ${permissionList(entry.from)} → ${permissionList(entry.to)} ${forCompany(entry.company)}${reason}`;
    case 'bounce-shield':
      return `${failed ? `${mark} ` : ''}${describeShield(entry)}${reason}`;
  }
}
