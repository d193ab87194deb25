/**
 * What `agency report` computes (src/fleet/report.ts, src/fleet/report-run.ts) and every renderer prints
 * (the columns, --json, the HTML page) and the history store keeps (`clients[].totals` of a run): plain values, no behaviour, so that a renderer imports
 * nothing from the fleet logic. Field names are the contract's columns (`contacted`, `replied`), not
 * the service's (`contacted_prospects`, `responded`).
 */

/** The counts of a campaign or a client over the period (distinct prospects, as the service counts). */
export interface ResultCounts {
  contacted: number;
  delivered: number;
  opened: number;
  clicked: number;
  replied: number;
  interested: number;
  maybe_later: number;
  not_interested: number;
  bounced: number;
  opt_out: number;
}

/** Rates computed from the counts, 0..1; null when the denominator is 0. */
export interface ResultRates {
  /** opened / delivered */
  open_rate: number | null;
  /** replied / delivered */
  reply_rate: number | null;
  /** bounced / contacted */
  bounce_rate: number | null;
  /** interested / delivered */
  interested_rate: number | null;
}

export interface CampaignResults extends ResultCounts, ResultRates {
  /** As the service wrote it (an id beyond 2^53 stays exact). */
  id: unknown;
  name: string;
  status: string;
  /** The mailboxes it sent from in the period, in the service's order. */
  mailboxes: string[];
}

export interface ClientTotals extends ResultCounts, ResultRates {
  /** Campaigns that sent in the period. */
  campaigns: number;
}

/** One client's report: its campaigns by id, and their totals (zeros when it sent nothing). */
export interface ClientResults {
  company_id: number;
  name: string;
  totals: ClientTotals;
  campaigns: CampaignResults[];
}

/** A client whose report could not be made: named, never a row of zeros. */
export interface FailedClient {
  company_id: number;
  name: string;
  error: { status: number | null; message: string };
}

/** The whole run: `--json` prints it as it is. */
export interface CampaignReport {
  period: { from: string; to: string };
  /** The sums over the clients reported (what the fleet summary shows), rates from them. */
  totals: ClientTotals;
  clients: ClientResults[];
  failed: FailedClient[];
  /** Only when Ctrl-C stopped the run: the clients not done, by id. */
  not_done?: number[];
}

export const COUNT_FIELDS: readonly (keyof ResultCounts)[] = [
  'contacted',
  'delivered',
  'opened',
  'clicked',
  'replied',
  'interested',
  'maybe_later',
  'not_interested',
  'bounced',
  'opt_out',
];
