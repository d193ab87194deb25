/**
 * `campaigns pause | stop | resume` across accounts: every target's campaign list is read first, the
 * campaigns selected (ids, sending mailboxes, or the lines of a record), and only what changes a status
 * is sent, once the caller has agreed to the list (`confirm`). Accounts run several at once; within
 * one account the writes go one at a time, in order, and each change the service confirmed is handed
 * to `confirmed` (the record file) before the next request.
 */

import type { CampaignAction } from '../api/resources/campaigns.js';
import { type Campaign, exactId, idKey, sameId } from '../api/types.js';
import { type AgencyError, InterruptedError } from '../errors.js';
import { command } from '../terms.js';
import { CampaignNotFoundError, type RecordEntry } from './campaign-record.js';
import { isRowFailure, type RowError, type RowFailure, rowError, rowFailure } from './failures.js';
import { changeCampaignSettled } from './lost-answer.js';
import { mapPool } from './ordered.js';
import type { CampaignPort } from './ports.js';
import type { Target } from './targets.js';
import { type AccountsOutcome, eachAccountList } from './webhook-changes.js';

export type CampaignVerb = 'pause' | 'stop' | 'resume';

type CampaignResult =
  | 'paused'
  | 'stopped'
  | 'resumed'
  | 'already-paused'
  | 'already-stopped'
  | 'already-running'
  | 'not-running'
  | 'not-paused'
  | 'would-pause'
  | 'would-stop'
  | 'would-resume'
  | 'changed-since'
  | 'skipped-inactive'
  | 'failed';

/** One row per campaign (an account that could not be read, or was skipped: one row, no campaign). */
export interface CampaignRow {
  company_id: number | null;
  campaign_id: number | null;
  campaign: string | null;
  status_before: string | null;
  result: CampaignResult;
  error?: RowError;
}

/** What each verb sends, the statuses it acts on, and the words of its rows. */
const VERBS: Record<
  CampaignVerb,
  { action: CampaignAction; from: readonly string[]; done: CampaignResult; would: CampaignResult }
> = {
  pause: { action: 'pause', from: ['RUNNING'], done: 'paused', would: 'would-pause' },
  stop: { action: 'stop', from: ['RUNNING', 'PAUSED'], done: 'stopped', would: 'would-stop' },
  resume: { action: 'run', from: ['PAUSED', 'STOPPED'], done: 'resumed', would: 'would-resume' },
};

/** The row of a campaign the verb leaves alone, by its status. */
function untouched(verb: CampaignVerb, status: string): CampaignResult {
  if (verb === 'resume') return status === 'RUNNING' ? 'already-running' : 'not-paused';
  if (verb === 'stop' && status === 'STOPPED') return 'already-stopped';
  if (verb === 'pause' && status === 'PAUSED') return 'already-paused';
  return 'not-running';
}

/** Which campaigns of each target: `--campaign` ids and `--mailbox` addresses (lower case); none = all. */
interface CampaignSelection {
  campaignIds: readonly number[];
  mailboxes: readonly string[];
}

/** Every address a campaign sends from: the list's `from_emails`, and `from_email` (the specification's). */
function sendersOf(campaign: Campaign): string[] {
  const all = Array.isArray(campaign.from_emails) ? [...campaign.from_emails] : [];
  all.push(campaign.from_email);
  return all.filter((a): a is string => typeof a === 'string').map((a) => a.trim().toLowerCase());
}

function isSelected(campaign: Campaign, selection: CampaignSelection): boolean {
  if (
    selection.campaignIds.length > 0 &&
    !selection.campaignIds.some((id) => sameId(id, exactId(campaign.id)))
  )
    return false;
  if (selection.mailboxes.length === 0) return true;
  const senders = sendersOf(campaign);
  return selection.mailboxes.some((mailbox) => senders.includes(mailbox));
}

export interface CampaignChange {
  verb: CampaignVerb;
  /** The campaigns to act on: chosen in each target's list, or the lines of a record (resume only). */
  pick: { selection: CampaignSelection } | { record: readonly RecordEntry[] };
  targets: readonly Target[];
  concurrency: number;
  dryRun?: boolean | undefined;
  signal?: AbortSignal | undefined;
  /** Asked once every list is read, when something would change; it throws to end the run, nothing sent. */
  confirm(pending: readonly CampaignRow[]): Promise<void>;
  /** Each change the service confirmed, before the account's next request (the record file). */
  confirmed?(row: CampaignRow): void;
  note(message: string): void;
}

export type CampaignChangeOutcome = AccountsOutcome<CampaignRow>;

/** Reads every target's list, asks, then sends the changes; the rows in the targets' order. */
export async function changeCampaigns(
  api: CampaignPort,
  change: CampaignChange,
): Promise<CampaignChangeOutcome> {
  const read = await eachAccountList((companyId) => api.campaigns(companyId), change.targets, change, {
    skipped: (target) => [accountRow(target, 'skipped-inactive')],
    unreadable: (target, error) => unreadableRows(change, target, error),
    withList: async (target, list) => plannedRows(change, target, list),
  });
  if (read.interrupted) return { rows: [], failures: [], interrupted: true };
  if ('selection' in change.pick) checkIdsFound(change.pick.selection, read.rows);
  const pending = read.rows.filter((row) => row.result === VERBS[change.verb].would);
  if (change.dryRun || pending.length === 0) return read;
  await change.confirm(pending);
  const failures: RowFailure[] = [...read.failures];
  const sent = await sendChanges(api, change, pending, (row, error) => {
    row.result = 'failed';
    row.error = rowError(error);
    failures.push(rowFailure(row.company_id ?? 'this account', error));
  });
  // A change never started (Ctrl-C) is left out: the rows say what was done.
  const rows = read.rows.filter((row) => row.result !== VERBS[change.verb].would);
  return { rows, failures, interrupted: sent.interrupted };
}

/** The pending rows of each account, one at a time, accounts `concurrency` at once. */
async function sendChanges(
  api: CampaignPort,
  change: CampaignChange,
  pending: readonly CampaignRow[],
  fail: (row: CampaignRow, error: AgencyError) => void,
): Promise<{ interrupted: boolean }> {
  const byAccount = new Map<number | null, CampaignRow[]>();
  for (const row of pending) byAccount.set(row.company_id, [...(byAccount.get(row.company_id) ?? []), row]);
  const { action, done } = VERBS[change.verb];
  let interrupted = false;
  await mapPool(
    [...byAccount.values()],
    change.concurrency,
    async (rows) => {
      for (const row of rows) {
        if (change.signal?.aborted) {
          interrupted = true;
          return;
        }
        const companyId = row.company_id ?? undefined;
        try {
          await changeCampaignSettled(api, companyId, row.campaign_id as number, action, change.note);
        } catch (error) {
          if (error instanceof InterruptedError) {
            interrupted = true;
            return;
          }
          if (!isRowFailure(error)) throw error;
          fail(row, error);
          continue;
        }
        row.result = done;
        change.confirmed?.(row);
      }
    },
    change.signal,
  );
  return { interrupted: interrupted || change.signal?.aborted === true };
}

function plannedRows(change: CampaignChange, target: Target, list: readonly Campaign[]): CampaignRow[] {
  const { verb } = change;
  const { from, would } = VERBS[verb];
  if ('record' in change.pick) {
    return entriesOf(change.pick.record, target).map((entry) => {
      const now = list.find((c) => sameId(exactId(c.id), entry.campaign_id));
      const status = now === undefined ? null : statusOf(now);
      const row = campaignRow(target, entry.campaign_id, now?.name ?? entry.campaign, status);
      // Running again (resumed by hand, or by an earlier resume of this record): nothing to do.
      const result =
        status === null
          ? 'changed-since'
          : from.includes(status)
            ? would
            : status === 'RUNNING'
              ? 'already-running'
              : 'changed-since';
      return { ...row, result };
    });
  }
  const { selection } = change.pick;
  return list
    .filter((campaign) => isSelected(campaign, selection))
    .map((campaign) => {
      const status = statusOf(campaign);
      const row = campaignRow(target, exactId(campaign.id), campaign.name, status);
      return { ...row, result: from.includes(status) ? would : untouched(verb, status) };
    });
}

function unreadableRows(change: CampaignChange, target: Target, error: AgencyError): CampaignRow[] {
  const failed = (row: Omit<CampaignRow, 'result'>): CampaignRow => ({
    ...row,
    result: 'failed',
    error: rowError(error),
  });
  if (!('record' in change.pick)) return [failed(accountRow(target, 'failed'))];
  return entriesOf(change.pick.record, target).map((entry) =>
    failed(campaignRow(target, entry.campaign_id, entry.campaign, null)),
  );
}

function entriesOf(record: readonly RecordEntry[], target: Target): RecordEntry[] {
  return record.filter((entry) => sameId(entry.company_id, target.companyId));
}

/** A `--campaign` id in none of the lists read: exit 4 naming it, before any change is sent. */
function checkIdsFound(selection: CampaignSelection, rows: readonly CampaignRow[]): void {
  const found = new Set(rows.flatMap((row) => (row.campaign_id === null ? [] : [idKey(row.campaign_id)])));
  const missing = selection.campaignIds.filter((id) => !found.has(idKey(id)));
  if (missing.length === 0) return;
  const unread = rows.filter((row) => row.result === 'failed').length;
  throw new CampaignNotFoundError(
    `No campaign ${missing.join(', ')} in the campaign lists of the target${unread ? 's that could be read' : 's'}.`,
    { hint: `Nothing was sent. \`${command('campaigns --company <company>')}\` lists the ids.` },
  );
}

function statusOf(campaign: Campaign): string {
  return String(campaign.status ?? '').toUpperCase();
}

function campaignRow(
  target: Target,
  campaignId: number,
  name: unknown,
  status: string | null,
): Omit<CampaignRow, 'result'> {
  return {
    company_id: target.companyId,
    campaign_id: campaignId,
    campaign: typeof name === 'string' ? name : null,
    status_before: status,
  };
}

function accountRow(target: Target, result: CampaignResult): CampaignRow {
  return { company_id: target.companyId, campaign_id: null, campaign: null, status_before: null, result };
}
