/**
 * The columns of `agency report`: one row per campaign (--by campaign) or per client (--by client, the
 * billing view), named as the contract names them. Rates are percentages with one decimal in a table,
 * numbers from 0 to 1 in TSV and CSV (empty when there is nothing to divide by).
 */
import { percent } from '../../output/figures.js';
import type { Column } from '../../output/writer.js';
import {
  type CampaignResults,
  type ClientResults,
  type ClientTotals,
  COUNT_FIELDS,
  type ResultCounts,
  type ResultRates,
} from '../../reports/campaigns.js';

/** A row of --by campaign: the client, and one of its campaigns. */
export interface ByCampaignRow {
  client: ClientResults;
  campaign: CampaignResults;
}

export type ReportBy = 'campaign' | 'client';
export const REPORT_BY: readonly ReportBy[] = ['campaign', 'client'];

/**
 * How long each figure stays on a narrow terminal (lower stays longer; layout.ts): what a client is
 * reported and billed on (contacted, replies, interest, the reply rate) outlives the bounces, which
 * outlive delivered, opened and the open rate. `history report` shows the stored totals by the same.
 */
export const FIGURE_PRIORITY: Record<ShownCount | keyof ResultRates | 'campaigns', number> = {
  contacted: 1,
  replied: 1,
  interested: 1,
  reply_rate: 1,
  bounced: 2,
  bounce_rate: 2,
  campaigns: 2,
  delivered: 3,
  opened: 3,
  open_rate: 3,
  interested_rate: 3,
  maybe_later: 4,
  not_interested: 4,
  opt_out: 4,
};

type ShownCount = Exclude<keyof ResultCounts, 'clicked'>;
/** The counts a row shows, in the service's order (clicks are not among the contract's columns). */
const COUNTS = COUNT_FIELDS.filter((field): field is ShownCount => field !== 'clicked');

function rateValue(rate: number | null, table: boolean): unknown {
  return table ? percent(rate) : rate;
}

/** The counts and `rates` of whatever `of` gives a row (a campaign, a client's totals). */
function figures<R>(
  of: (row: R) => ResultCounts & ResultRates,
  rates: readonly (keyof ResultRates)[],
  table: boolean,
): Column<R>[] {
  const header = (name: string) => name.replace(/_/g, ' ');
  return [
    ...COUNTS.map(
      (name): Column<R> => ({
        header: header(name),
        name,
        value: (row) => of(row)[name],
        kind: 'count',
        priority: FIGURE_PRIORITY[name],
      }),
    ),
    ...rates.map(
      (name): Column<R> => ({
        header: header(name).replace(' rate', ' %'),
        name,
        value: (row) => rateValue(of(row)[name], table),
        kind: 'count',
        priority: FIGURE_PRIORITY[name],
      }),
    ),
  ];
}

/** The client a row is about: its id and name, first in both views (no field of a campaign or totals). */
function clientOf<R extends { client: ClientResults }>(): Column<R>[] {
  return [
    {
      header: 'company',
      name: 'company_id',
      field: 'company_id',
      value: (r) => r.client.company_id,
      kind: 'id',
    },
    { header: 'name', field: 'company_name', value: (r) => r.client.name },
  ];
}

/**
 * --by campaign. With --json, --columns keeps those fields of each campaign (`field`: where the value
 * sits in a campaign object; the client's own columns are no field of it).
 */
export function campaignColumns(table: boolean): Column<ByCampaignRow>[] {
  return [
    ...clientOf<ByCampaignRow>(),
    {
      header: 'campaign id',
      name: 'campaign_id',
      field: 'id',
      value: (r) => r.campaign.id,
      kind: 'count',
      priority: 4,
    },
    { header: 'campaign', field: 'name', value: (r) => r.campaign.name, kind: 'name' },
    { header: 'status', value: (r) => r.campaign.status, priority: 3 },
    ...figures<ByCampaignRow>((r) => r.campaign, ['open_rate', 'reply_rate', 'bounce_rate'], table),
  ];
}

/** A row of --by client: the client with its totals. */
export interface ByClientRow {
  client: ClientResults;
  totals: ClientTotals;
}

/** --by client, the billing view. With --json, --columns keeps those fields of each client's totals. */
export function clientColumns(table: boolean): Column<ByClientRow>[] {
  return [
    ...clientOf<ByClientRow>(),
    {
      header: 'campaigns',
      value: (r) => r.totals.campaigns,
      kind: 'count',
      priority: FIGURE_PRIORITY.campaigns,
    },
    ...figures<ByClientRow>(
      (r) => r.totals,
      ['open_rate', 'reply_rate', 'bounce_rate', 'interested_rate'],
      table,
    ),
  ];
}

/** The rows of one client's report, as --by asks. */
export function rowsOf(client: ClientResults, by: ReportBy): (ByCampaignRow | ByClientRow)[] {
  if (by === 'client') return [{ client, totals: client.totals }];
  return client.campaigns.map((campaign) => ({ client, campaign }));
}
