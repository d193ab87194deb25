/**
 * `bounce_shield: N` in a plan file: each RUNNING or PAUSED campaign of the company whose applied
 * threshold (none set = the service's 2 %) differs from N is a change,
 * `~ bounce shield 2% → 3% for campaign "Spring" (100401) of "Acme Ltd"`, that `apply` makes (PUT).
 */
import { BOUNCE_SHIELD_DEFAULT } from '../api/resources/campaigns.js';
import { type Company, exactId } from '../api/types.js';
import { AgencyError } from '../errors.js';
import { mapPool } from './ordered.js';
import type { DesiredCompany } from './plan-file.js';
import type { CampaignPort } from './ports.js';

/** The campaigns a plan file's threshold applies to: those that send or will send again. */
const PLANNED_STATUSES = ['RUNNING', 'PAUSED'];

export interface ShieldChange {
  company: string;
  company_id: number;
  campaign_id: number;
  campaign: string;
  /** null = none set (the service's default). */
  from: number | null;
  to: number;
}

/** A company whose thresholds cannot be planned, as the plan's `!` lines say. */
interface ShieldBlocked {
  company: string;
  company_id: number;
  reason: string;
}

export type ShieldReader = Pick<CampaignPort, 'campaigns' | 'bounceShield'>;

/** The threshold changes of the file's existing companies, the thresholds in place, and what cannot be read. */
export async function planShields(
  companies: readonly { desired: DesiredCompany; existing: Company | undefined }[],
  api: ShieldReader,
  options: { concurrency: number; signal?: AbortSignal | undefined },
): Promise<{ changes: ShieldChange[]; unchanged: number; blocked: ShieldBlocked[] }> {
  const changes: ShieldChange[][] = [];
  const blocked: ShieldBlocked[] = [];
  let unchanged = 0;
  const wanted = companies.filter((c) => c.existing && c.desired.bounceShield !== undefined);
  await mapPool(
    wanted,
    options.concurrency,
    async ({ desired, existing }, index) => {
      const company = existing as Company;
      const to = desired.bounceShield as number;
      if (!company.active) {
        blocked.push({
          company: company.name,
          company_id: company.id,
          reason: 'is inactive: its campaigns cannot be read or changed',
        });
        return;
      }
      try {
        const list = (await api.campaigns(company.id)).filter((c) =>
          PLANNED_STATUSES.includes(String(c.status ?? '').toUpperCase()),
        );
        const thresholds = await Promise.all(list.map((c) => api.bounceShield(company.id, exactId(c.id))));
        changes[index] = [];
        list.forEach((c, i) => {
          const from = thresholds[i] ?? null;
          if ((from ?? BOUNCE_SHIELD_DEFAULT) === to) {
            unchanged++;
            return;
          }
          const campaign = typeof c.name === 'string' ? c.name : String(c.id);
          changes[index]?.push({
            company: company.name,
            company_id: company.id,
            campaign_id: exactId(c.id),
            campaign,
            from,
            to,
          });
        });
      } catch (error) {
        if (!(error instanceof AgencyError) || error.status === null) throw error;
        const reason = `Bounce Shield thresholds cannot be read: ${error.message}`;
        blocked.push({ company: company.name, company_id: company.id, reason });
      }
    },
    options.signal,
  );
  return { changes: changes.flat(), unchanged, blocked };
}

/** `~ bounce shield 2% → 3% for campaign "Spring" (100401) of "Acme Ltd"` */
export function describeShield(change: Omit<ShieldChange, 'company_id'>): string {
  const from = change.from ?? BOUNCE_SHIELD_DEFAULT;
  return `~ bounce shield ${from}% → ${change.to}% for campaign ${JSON.stringify(change.campaign)} (${change.campaign_id}) of ${JSON.stringify(change.company)}`;
}
