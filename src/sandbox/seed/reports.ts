/**
 * The sandbox's invented world, part 8: the general statistics of an account's campaigns (POST
 * /v2/reports/campaigns), one row per campaign and sending mailbox, as the service's sample shows them:
 * counts of distinct prospects in the period and rates as strings with `%`. Campaigns that sent nothing
 * in the period are left out (drafts always). The figures are fixed per campaign, mailbox and length of
 * the period, so that a report of the last 30 days is the same on every day.
 */
import type { CampaignItem } from './campaigns.js';
import { mix } from './names.js';

export interface CampaignReportRow {
  id: number;
  name: string;
  status: string;
  sent_from: string;
  contacted_prospects: number;
  bounced: number;
  bounced_rate: string;
  opened: number;
  open_rate: string;
  clicked: number;
  opt_out: number;
  delivered: number;
  responded: number;
  response_rate: string;
  interested: number;
  maybe_later: number;
  not_interested: number;
}

/** The service's rate strings: one decimal and a percent sign ("5.2%"); "0%" when nothing to divide. */
function rate(top: number, bottom: number): string {
  return bottom > 0 ? `${((top / bottom) * 100).toFixed(1)}%` : '0%';
}

const share = (n: number, seed: number, salt: number, fromPct: number, spanPct: number) =>
  Math.floor((n * (fromPct + (mix(seed, salt) % spanPct))) / 100);

function row(campaign: CampaignItem, mailbox: string, seed: number, days: number): CampaignReportRow {
  // A running campaign reaches more prospects than a paused or finished one did in the period.
  const base = campaign.status === 'RUNNING' ? 30 + (mix(seed, 132) % 260) : 5 + (mix(seed, 133) % 60);
  const contacted = Math.max(1, Math.round((base * Math.min(days, 30)) / 30));
  const bounced = Math.floor((contacted * (mix(seed, 134) % 70)) / 1000);
  const delivered = contacted - bounced;
  const opened = share(delivered, seed, 135, 25, 50);
  const clicked = share(opened, seed, 136, 0, 20);
  const responded = share(delivered, seed, 137, 1, 14);
  const interested = share(responded, seed, 138, 15, 45);
  const maybeLater = Math.min(responded - interested, share(responded, seed, 139, 0, 20));
  const notInterested = Math.min(responded - interested - maybeLater, share(responded, seed, 140, 0, 35));
  return {
    id: campaign.id,
    name: campaign.name,
    status: campaign.status,
    sent_from: mailbox,
    contacted_prospects: contacted,
    bounced,
    bounced_rate: rate(bounced, contacted),
    opened,
    open_rate: rate(opened, delivered),
    clicked,
    opt_out: share(contacted, seed, 141, 0, 3),
    delivered,
    responded,
    response_rate: rate(responded, delivered),
    interested,
    maybe_later: maybeLater,
    not_interested: notInterested,
  };
}

/**
 * The rows of a report over `days` days: each campaign that sent in the period, once per mailbox it
 * sends from (one to three of the account's `senders`, or the campaign's own address).
 */
export function campaignReportRows(
  campaigns: readonly CampaignItem[],
  senders: readonly string[],
  days: number,
): CampaignReportRow[] {
  const rows: CampaignReportRow[] = [];
  for (const campaign of campaigns) {
    if (campaign.status === 'DRAFT') continue;
    // Some campaigns that are not running sent nothing in the period: the service leaves them out.
    if (campaign.status !== 'RUNNING' && mix(campaign.id, 130) % 3 === 0) continue;
    const from = senders.length > 0 ? senders : [campaign.from_email];
    const count = 1 + (mix(campaign.id, 131) % Math.min(3, from.length));
    for (let i = 0; i < count; i++) {
      const mailbox = from[(mix(campaign.id, 129) + i) % from.length] as string;
      rows.push(row(campaign, mailbox, campaign.id * 10 + i, days));
    }
  }
  return rows;
}
