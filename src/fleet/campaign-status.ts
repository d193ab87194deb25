/**
 * Campaign statuses as the service documents them for `GET /v1/campaign_list?status=`. Checked
 * locally so that a typo is a usage error (exit 2, nothing sent) instead of an empty list.
 */
import { UsageError } from '../errors.js';
import { command, option } from '../terms.js';

/** The documented set, in the order the docs list them (one place to change if the service adds one). */
export const CAMPAIGN_STATUSES = ['RUNNING', 'DRAFT', 'EDITED', 'PAUSED', 'STOPPED', 'COMPLETED'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

const KNOWN = new Set<string>(CAMPAIGN_STATUSES);

/**
 * `--status running,paused` (the option may also be repeated): case-insensitive in, upper case out,
 * each status once, in the order first given. Empty entries are skipped (`running,` as completion
 * leaves it, as --columns and --check read it); every unknown one is named in one error, and no status
 * at all is refused.
 */
export function parseCampaignStatuses(values: string | readonly string[]): CampaignStatus[] {
  const entries = (typeof values === 'string' ? [values] : values).flatMap((value) => value.split(','));
  const statuses: CampaignStatus[] = [];
  const unknown: string[] = [];
  for (const entry of entries) {
    const status = entry.trim().toUpperCase();
    if (status === '') continue;
    if (!KNOWN.has(status)) {
      unknown.push(JSON.stringify(entry.trim()));
      continue;
    }
    if (!statuses.includes(status as CampaignStatus)) statuses.push(status as CampaignStatus);
  }
  if (unknown.length > 0) {
    throw new UsageError(
      `Unknown campaign status${unknown.length === 1 ? '' : 'es'} ${unknown.join(', ')} in ${option('status')}; ` +
        `valid: ${CAMPAIGN_STATUSES.join(', ')} (any case, comma-separated).`,
    );
  }
  if (statuses.length === 0) {
    throw new UsageError(
      `${option('status')} needs a campaign status; valid: ${CAMPAIGN_STATUSES.join(', ')} (any case, comma-separated).`,
    );
  }
  return statuses;
}

/** The command that resumes one campaign (the HQ account's own: no --company). */
export function resumeCommand(companyId: number | null, campaignId: unknown): string {
  const company = companyId === null ? '' : ` --company ${companyId}`;
  return command(`campaigns resume${company} --campaign ${campaignId}`);
}
