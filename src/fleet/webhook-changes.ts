/**
 * `webhooks subscribe | unsubscribe` across accounts: read each account's webhooks, then send only
 * what is missing (subscribe) or present (unsubscribe). Accounts run several at once (each client
 * account has its own rate limit); within one account the writes go one at a time, in order.
 */
import { mapPool } from '../api/limit.js';
import type { Webhook } from '../api/types.js';
import { type ExitCode, InterruptedError } from '../errors.js';
import { isRowFailure, type RowError, rowError } from './failures.js';
import type { WebhookPort } from './ports.js';
import type { Target } from './targets.js';
import { listedEvent } from './webhook-input.js';

export type WebhookAction = 'subscribe' | 'unsubscribe';

export type WebhookResult =
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
  /** Exit codes of the failed rows, for the shared exit code. */
  failureCodes: ExitCode[];
  /** Some accounts were not reached because the run was interrupted. */
  interrupted: boolean;
}

/** Events compare case-insensitively; the URL compares exactly (the service stores the text). */
export function hasWebhook(list: readonly Webhook[], event: string, url: string): boolean {
  return list.some((w) => w.event.toLowerCase() === event.toLowerCase() && w.target_url === url);
}

export async function changeWebhooks(api: WebhookPort, change: WebhookChange): Promise<WebhookChangeOutcome> {
  const failureCodes: ExitCode[] = [];
  const perTarget = await mapPool(
    change.targets,
    change.concurrency,
    (target) => changeAccount(api, target, change, failureCodes),
    change.signal,
  );
  const rows = perTarget.flatMap((r) => r ?? []);
  const expected = change.targets.length * change.events.length;
  return { rows, failureCodes, interrupted: rows.length < expected };
}

async function changeAccount(
  api: WebhookPort,
  target: Target,
  change: WebhookChange,
  failureCodes: ExitCode[],
): Promise<WebhookRow[]> {
  const { companyId } = target;
  if (target.skipInactive)
    return change.events.map((event) => row(companyId, event, change.url, 'skipped-inactive'));
  const cid = companyId ?? undefined;
  const failAll = (error: unknown) => {
    if (!isRowFailure(error)) throw error;
    failureCodes.push(...change.events.map(() => error.exitCode));
    return change.events.map((event) => ({
      ...row(companyId, event, change.url, 'failed'),
      error: rowError(error),
    }));
  };
  let present: Webhook[];
  try {
    present = await api.webhooks(cid);
  } catch (error) {
    // An interrupted read leaves this account's rows out: the outcome says the run was interrupted.
    if (error instanceof InterruptedError) return [];
    return failAll(error);
  }
  const rows: WebhookRow[] = [];
  for (const event of change.events) {
    if (change.signal?.aborted) break;
    const has = hasWebhook(present, event, change.url);
    const subscribe = change.action === 'subscribe';
    if (has === subscribe) {
      rows.push(row(companyId, event, change.url, subscribe ? 'exists' : 'absent'));
      continue;
    }
    if (change.dryRun) {
      rows.push(row(companyId, event, change.url, subscribe ? 'would-subscribe' : 'would-unsubscribe'));
      continue;
    }
    try {
      let result: WebhookResult = 'unsubscribed';
      if (subscribe) result = await api.subscribeWebhook(cid, event, change.url);
      else await api.unsubscribeWebhook(cid, event, change.url);
      rows.push(row(companyId, event, change.url, result));
    } catch (error) {
      if (error instanceof InterruptedError) break;
      if (!isRowFailure(error)) throw error;
      failureCodes.push(error.exitCode);
      rows.push({ ...row(companyId, event, change.url, 'failed'), error: rowError(error) });
    }
  }
  return rows;
}

function row(companyId: number | null, event: string, url: string, result: WebhookResult): WebhookRow {
  return { company_id: companyId, event: listedEvent(event), target_url: url, result };
}
