/**
 * `campaigns bounce-shield` across accounts: each target's campaign list is read, then each selected
 * campaign's threshold (GET .../bounce_shield/threshold); with `set` a PUT goes only where the
 * threshold differs, with `clear` a DELETE only where one is set. Reads of one account go together
 * (its queue takes them), writes one at a time, in order. Thresholds compare as the service applies
 * them: none set is its default, 2 %.
 */
import { BOUNCE_SHIELD_DEFAULT } from '../api/resources/campaigns.js';
import { type Campaign, exactId, sameId } from '../api/types.js';
import { type AgencyError, InterruptedError } from '../errors.js';
import { isRowFailure, type RowError, rowError } from './failures.js';
import { setBounceShieldSettled } from './lost-answer.js';
import type { CampaignPort } from './ports.js';
import type { Target } from './targets.js';
import { type AccountsOutcome, eachAccountList } from './webhook-changes.js';

type ShieldResult =
  | 'set'
  | 'cleared'
  | 'unchanged'
  | 'would-set'
  | 'would-clear'
  | 'skipped-inactive'
  | 'failed';

export interface ShieldRow {
  company_id: number | null;
  campaign_id: number | null;
  campaign: string | null;
  /** null = the service's default (2 %). */
  threshold_before: number | null;
  threshold: number | null;
  result: ShieldResult;
  error?: RowError;
}

export interface ShieldRun {
  targets: readonly Target[];
  /** Only these campaigns; none = every campaign of the list. */
  campaignIds: readonly number[];
  /** A threshold to set (1–99), null to clear, undefined to list. */
  threshold: number | null | undefined;
  concurrency: number;
  dryRun?: boolean | undefined;
  signal?: AbortSignal | undefined;
  note(message: string): void;
}

/** The threshold the service applies. */
const effectiveThreshold = (threshold: number | null): number => threshold ?? BOUNCE_SHIELD_DEFAULT;

export async function changeBounceShields(
  api: CampaignPort,
  change: ShieldRun,
): Promise<AccountsOutcome<ShieldRow>> {
  return eachAccountList((companyId) => api.campaigns(companyId), change.targets, change, {
    skipped: (target) => [blank(target, 'skipped-inactive')],
    unreadable: (target, error) => [{ ...blank(target, 'failed'), error: rowError(error) }],
    withList: async (target, list, fail) => {
      const chosen = list.filter(
        (c) => change.campaignIds.length === 0 || change.campaignIds.some((id) => sameId(id, exactId(c.id))),
      );
      const companyId = target.companyId ?? undefined;
      // The reads of one account together: its queue (1 + 2 waiting) hides the round trips.
      const read = await Promise.all(
        chosen.map(async (campaign) => {
          try {
            return { campaign, before: await api.bounceShield(companyId, exactId(campaign.id)) };
          } catch (error) {
            return { campaign, error };
          }
        }),
      );
      const rows: ShieldRow[] = [];
      for (const entry of read) {
        if (change.signal?.aborted) break;
        const row = shieldRow(target, entry.campaign);
        if ('error' in entry) {
          // Interrupted: this account's rows so far (the outcome says the run was interrupted).
          if (entry.error instanceof InterruptedError) break;
          if (!isRowFailure(entry.error)) throw entry.error;
          fail(entry.error);
          rows.push({ ...row, result: 'failed', error: rowError(entry.error) });
          continue;
        }
        try {
          rows.push(await changeOne(api, change, { ...row, threshold_before: entry.before }, fail));
        } catch (error) {
          if (error instanceof InterruptedError) break;
          throw error;
        }
      }
      return rows;
    },
  });
}

async function changeOne(
  api: CampaignPort,
  change: ShieldRun,
  row: ShieldRow,
  fail: (error: AgencyError) => void,
): Promise<ShieldRow> {
  const before = row.threshold_before;
  const wanted = change.threshold;
  const unchanged = { ...row, threshold: before, result: 'unchanged' as const };
  if (wanted === undefined) return unchanged;
  if (wanted === null ? before === null : effectiveThreshold(before) === wanted) return unchanged;
  const done: ShieldRow = { ...row, threshold: wanted, result: wanted === null ? 'cleared' : 'set' };
  if (change.dryRun) return { ...done, result: wanted === null ? 'would-clear' : 'would-set' };
  try {
    await setBounceShieldSettled(
      api,
      row.company_id ?? undefined,
      row.campaign_id as number,
      wanted,
      change.note,
    );
    return done;
  } catch (error) {
    if (error instanceof InterruptedError || !isRowFailure(error)) throw error;
    fail(error);
    return { ...row, threshold: before, result: 'failed', error: rowError(error) };
  }
}

function shieldRow(target: Target, campaign: Campaign): ShieldRow {
  const name = typeof campaign.name === 'string' ? campaign.name : null;
  return { ...blank(target, 'unchanged'), campaign_id: exactId(campaign.id), campaign: name };
}

function blank(target: Target, result: ShieldResult): ShieldRow {
  return {
    company_id: target.companyId,
    campaign_id: null,
    campaign: null,
    threshold_before: null,
    threshold: null,
    result,
  };
}
