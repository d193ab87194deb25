/**
 * `webhooks subscribe | unsubscribe` across accounts: read each account's webhooks, then send only
 * what is missing (subscribe) or present (unsubscribe). Accounts run several at once (each client
 * account has its own rate limit); within one account the writes go one at a time, in order.
 */

import { ServiceUnreachableError } from '../api/reachability.js';
import { MAX_URLS_PER_EVENT } from '../api/resources/webhooks.js';
import type { Webhook } from '../api/types.js';
import { AgencyError, ExitCode, InterruptedError } from '../errors.js';
import { command } from '../terms.js';
import { isRowFailure, type RowError, type RowFailure, rowError, rowFailure } from './failures.js';
import { settledWebhookWrites } from './lost-answer.js';
import { mapPool } from './ordered.js';
import type { WebhookPort, WebhookReader } from './ports.js';
import type { Target } from './targets.js';
import { listedEvent } from './webhook-input.js';
import { hasWebhook, LookalikeNotes } from './webhook-lookalikes.js';

export type WebhookAction = 'subscribe' | 'unsubscribe';

type WebhookResult =
  | 'subscribed'
  | 'exists'
  | 'unsubscribed'
  | 'absent'
  | 'would-subscribe'
  | 'would-unsubscribe'
  | 'skipped-inactive'
  | 'failed';

/** One row per (account, event). */
export interface WebhookRow {
  /** null for the key's own account. */
  company_id: number | null;
  /** Upper case, as the service lists events. */
  event: string;
  target_url: string;
  result: WebhookResult;
  error?: RowError;
}

export interface WebhookChange {
  action: WebhookAction;
  /** Checked, lower case, each once. */
  events: readonly string[];
  url: string;
  targets: readonly Target[];
  dryRun?: boolean;
  concurrency: number;
  signal?: AbortSignal | undefined;
}

export interface WebhookChangeOutcome {
  rows: WebhookRow[];
  /** The failed rows, for the closing error. */
  failures: RowFailure[];
  /** Look-alike URLs met (host case, a trailing slash): one warning each, with the accounts (webhook-lookalikes.ts). */
  warnings: string[];
  /** Some accounts were not reached because the run was interrupted. */
  interrupted: boolean;
  /** The run stopped starting accounts: the service could not be reached. */
  unreachable?: ServiceUnreachableError | undefined;
}

/**
 * The missing webhooks the service will take: an event has at most 3 URLs per account, so a pair that
 * would be a 4th is refused (409) and is handed to `refused` instead, counting the ones planned before
 * it (`plan`). What is already subscribed stays: the file does not say which URL could go.
 */
export function withinUrlLimit<W extends { event: string }>(
  missing: readonly W[],
  present: readonly Webhook[],
  refused: (webhook: W) => void,
): W[] {
  const urls = new Map<string, number>();
  for (const w of present) urls.set(w.event.toLowerCase(), (urls.get(w.event.toLowerCase()) ?? 0) + 1);
  return missing.filter((w) => {
    const event = w.event.toLowerCase();
    const count = urls.get(event) ?? 0;
    if (count >= MAX_URLS_PER_EVENT) {
      refused(w);
      return false;
    }
    urls.set(event, count + 1);
    return true;
  });
}

/** What each account of a fleet command turns into: rows, from the account's own list (`L`). */
export interface AccountWork<R, L = Webhook[]> {
  /** `--all` only: an inactive company, never sent a request. */
  skipped(target: Target): R[];
  /** Its list could not be read (the service's answer, or the network). */
  unreadable(target: Target, error: AgencyError): R[];
  /**
   * The rows of an account whose list was read; `fail` counts a failed row for the closing error
   * (`reason`: the words it is grouped under there, when the error's own would mislead).
   */
  withList(target: Target, present: L, fail: (error: AgencyError, reason?: string) => void): Promise<R[]>;
}

export interface AccountsOutcome<R> {
  rows: R[];
  /** The failed rows, in the targets' order, for the closing error. */
  failures: RowFailure[];
  /** Some accounts were not reached, or not finished, because the run was interrupted. */
  interrupted: boolean;
  /** The run stopped starting accounts: the service could not be reached. */
  unreachable?: ServiceUnreachableError | undefined;
}

/** The fan-out of the webhook commands: eachAccountList over each account's webhooks. */
export function eachAccount<R>(
  api: WebhookReader,
  targets: readonly Target[],
  options: { concurrency: number; signal?: AbortSignal | undefined },
  work: AccountWork<R>,
): Promise<AccountsOutcome<R>> {
  return eachAccountList((companyId) => api.webhooks(companyId), targets, options, work);
}

/**
 * The one fan-out of the fleet commands: each target account's list is read (several accounts at
 * once, `concurrency`), then `work` decides its rows; within an account everything is in order.
 */
export async function eachAccountList<R, L>(
  read: (companyId: number | undefined) => Promise<L>,
  targets: readonly Target[],
  options: { concurrency: number; signal?: AbortSignal | undefined },
  work: AccountWork<R, L>,
): Promise<AccountsOutcome<R>> {
  // Each account's rows are kept as it ends, so that a run stopped because the service is gone still
  // reports what was done.
  const perTarget = new Array<{ rows: R[]; failures: RowFailure[] } | undefined>(targets.length);
  let unreachable: ServiceUnreachableError | undefined;
  await mapPool(
    targets,
    options.concurrency,
    async (target, index): Promise<void> => {
      // Failures per account, flattened in the targets' order (not the order accounts finished in).
      const failures: RowFailure[] = [];
      const fail = (error: AgencyError, reason?: string) =>
        failures.push(rowFailure(target.companyId ?? 'this account', error, reason));
      if (target.skipInactive) {
        perTarget[index] = { rows: work.skipped(target), failures };
        return;
      }
      let present: L;
      try {
        present = await read(target.companyId ?? undefined);
      } catch (error) {
        // An interrupted read leaves this account's rows out: the outcome says the run was interrupted.
        if (error instanceof InterruptedError) return;
        if (!isRowFailure(error)) throw error;
        const rows = work.unreadable(target, error);
        for (const _ of rows) fail(error);
        perTarget[index] = { rows, failures };
        return;
      }
      perTarget[index] = { rows: await work.withList(target, present, fail), failures };
    },
    options.signal,
  ).catch((error: unknown) => {
    if (!(error instanceof ServiceUnreachableError)) throw error;
    unreachable = error;
  });
  const reached = perTarget.filter((account) => account !== undefined).length;
  return {
    rows: perTarget.flatMap((account) => account?.rows ?? []),
    failures: perTarget.flatMap((account) => account?.failures ?? []),
    interrupted: !unreachable && (reached < targets.length || options.signal?.aborted === true),
    unreachable,
  };
}

export async function changeWebhooks(api: WebhookPort, change: WebhookChange): Promise<WebhookChangeOutcome> {
  const subscribe = change.action === 'subscribe';
  const lookalikes = new LookalikeNotes(change.url, subscribe ? 'second-subscription' : 'stays');
  // A write whose answer was lost is settled by reading the account's webhooks again.
  const settledNotes: string[] = [];
  const changeRows = changeAccount(
    settledWebhookWrites(api, (note) => settledNotes.push(note)),
    change,
  );
  const outcome = await eachAccount(api, change.targets, change, {
    skipped: (target) =>
      change.events.map((event) => row(target.companyId, event, change.url, 'skipped-inactive')),
    unreadable: (target, error) =>
      change.events.map((event) => ({
        ...row(target.companyId, event, change.url, 'failed'),
        error: rowError(error),
      })),
    withList: (target, present, fail) => {
      for (const event of change.events) lookalikes.note(target, present, event);
      return changeRows(target, present, fail);
    },
  });
  const expected = change.targets.length * change.events.length;
  return {
    ...outcome,
    warnings: [...settledNotes, ...lookalikes.warnings()],
    interrupted: !outcome.unreachable && outcome.rows.length < expected,
  };
}

/**
 * A subscription the service would refuse: the event has its 3 URLs in the account already. Known
 * before any request, so none is sent; a conflict (exit 5), as the service's 409 would be.
 */
class UrlLimitReached extends AgencyError {
  readonly exitCode = ExitCode.conflict;
  constructor(event: string, urls: readonly string[]) {
    super(
      `${listedEvent(event)} has ${MAX_URLS_PER_EVENT} URLs already, the service's limit per event and account (${urls.join(', ')}); not sent`,
      {
        hint: `Unsubscribe one of them first (${command('webhooks unsubscribe')}, or ${command('webhooks move')}).`,
      },
    );
  }
}

/** The URLs subscribed to `event` in an account's list. */
function urlsOf(present: readonly Webhook[], event: string): string[] {
  return present.filter((w) => w.event.toLowerCase() === event).map((w) => w.target_url);
}

/** One account whose list was read: only what is missing (subscribe) or present (unsubscribe) is sent. */
function changeAccount(api: WebhookPort, change: WebhookChange): AccountWork<WebhookRow>['withList'] {
  const subscribe = change.action === 'subscribe';
  const { url } = change;
  return (target, present, fail) =>
    eachEvent(change.events, change.signal, async (event) => {
      const { companyId } = target;
      if (hasWebhook(present, event, url) === subscribe)
        return row(companyId, event, url, subscribe ? 'exists' : 'absent');
      const taken = urlsOf(present, event);
      if (subscribe && taken.length >= MAX_URLS_PER_EVENT) {
        const error = new UrlLimitReached(event, taken);
        fail(error, `${listedEvent(event)} has ${MAX_URLS_PER_EVENT} URLs already (the service's limit)`);
        return { ...row(companyId, event, url, 'failed'), error: rowError(error) };
      }
      if (change.dryRun)
        return row(companyId, event, url, subscribe ? 'would-subscribe' : 'would-unsubscribe');
      try {
        let result: WebhookResult = 'unsubscribed';
        if (subscribe) result = await api.subscribeWebhook(companyId ?? undefined, event, url);
        else await api.unsubscribeWebhook(companyId ?? undefined, event, url);
        return row(companyId, event, url, result);
      } catch (error) {
        if (!isRowFailure(error)) throw error;
        fail(error);
        return { ...row(companyId, event, url, 'failed'), error: rowError(error) };
      }
    });
}

/**
 * The rows of one account's events, one event at a time and in order. None starts once the run is
 * interrupted (Ctrl-C); the rows made so far are kept.
 */
export async function eachEvent<R>(
  events: readonly string[],
  signal: AbortSignal | undefined,
  rowOf: (event: string) => Promise<R>,
): Promise<R[]> {
  const rows: R[] = [];
  for (const event of events) {
    if (signal?.aborted) break;
    try {
      rows.push(await rowOf(event));
    } catch (error) {
      if (error instanceof InterruptedError) break;
      throw error;
    }
  }
  return rows;
}

function row(companyId: number | null, event: string, url: string, result: WebhookResult): WebhookRow {
  return { company_id: companyId, event: listedEvent(event), target_url: url, result };
}
