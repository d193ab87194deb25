/**
 * `agency report`'s arithmetic, a pure function of the service's rows: the rows of the general-statistics
 * report come per campaign and sending mailbox; a campaign's counts are the sums of its rows, a client's
 * the sums of its campaigns, and every rate is computed from those sums (never taken from the service's
 * strings such as "5.2%", which it may also send as numbers: either way they are not read). A count that
 * is not a number makes the client's report unreadable (never a silent 0).
 */
import type {
  CampaignResults,
  ClientResults,
  ClientTotals,
  ResultCounts,
  ResultRates,
} from '../reports/campaigns.js';
import { COUNT_FIELDS } from '../reports/campaigns.js';
import { ratio } from './deliverability.js';

/** The service's name of each count, where it differs from the contract's column. */
const SERVICE_FIELD: Record<keyof ResultCounts, string> = {
  contacted: 'contacted_prospects',
  delivered: 'delivered',
  opened: 'opened',
  clicked: 'clicked',
  replied: 'responded',
  interested: 'interested',
  maybe_later: 'maybe_later',
  not_interested: 'not_interested',
  bounced: 'bounced',
  opt_out: 'opt_out',
};

/** Counts a row may leave out (the service's sample has them all; only these are not needed by a column). */
const OPTIONAL: ReadonlySet<keyof ResultCounts> = new Set(['clicked']);

/** A row the tool cannot add up: the client fails with this message. */
export class UnreadableRow extends Error {}

function zeroCounts(): ResultCounts {
  return Object.fromEntries(COUNT_FIELDS.map((field) => [field, 0])) as unknown as ResultCounts;
}

/** The contract's rates, from counts (one place: deliverability's ratio). */
function ratesOf(counts: ResultCounts): ResultRates {
  return {
    open_rate: ratio(counts.opened, counts.delivered),
    reply_rate: ratio(counts.replied, counts.delivered),
    bounce_rate: ratio(counts.bounced, counts.contacted),
    interested_rate: ratio(counts.interested, counts.delivered),
  };
}

function add(into: ResultCounts, counts: ResultCounts): void {
  for (const field of COUNT_FIELDS) into[field] += counts[field];
}

function countsOf(row: Record<string, unknown>, where: string): ResultCounts {
  const counts = zeroCounts();
  for (const field of COUNT_FIELDS) {
    const name = SERVICE_FIELD[field];
    const value = row[name];
    if (value === undefined && OPTIONAL.has(field)) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new UnreadableRow(`${where}: "${name}" is ${JSON.stringify(value ?? null)}, not a count`);
    }
    counts[field] = value;
  }
  return counts;
}

/** A campaign id as text, for grouping; and the order of ids (numbers of any length, then others). */
function idKey(id: unknown): string {
  return String(id);
}

function compareIds(a: string, b: string): number {
  const numeric = (s: string) => /^\d+$/.test(s);
  if (numeric(a) && numeric(b)) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  if (numeric(a) !== numeric(b)) return numeric(a) ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A client's report from the service's rows: one result per campaign (its mailboxes' rows summed), by
 * campaign id, and the client's totals. Throws UnreadableRow for a row it cannot add up.
 */
export function clientResults(companyId: number, name: string, rows: readonly unknown[]): ClientResults {
  const campaigns = new Map<string, CampaignResults & { counts: ResultCounts }>();
  rows.forEach((row, index) => {
    const where = `row ${index + 1} of the report`;
    if (row === null || typeof row !== 'object' || Array.isArray(row)) {
      throw new UnreadableRow(`${where} is not an object`);
    }
    const fields = row as Record<string, unknown>;
    const id = fields.id;
    if (id === undefined || id === null || (typeof id !== 'number' && typeof id !== 'object')) {
      throw new UnreadableRow(`${where} has no campaign id`);
    }
    const counts = countsOf(fields, `${where} (campaign ${String(id)})`);
    const key = idKey(id);
    let campaign = campaigns.get(key);
    if (!campaign) {
      campaign = {
        id,
        name: typeof fields.name === 'string' ? fields.name : '',
        status: typeof fields.status === 'string' ? fields.status : '',
        mailboxes: [],
        counts: zeroCounts(),
        ...zeroCounts(),
        ...ratesOf(zeroCounts()),
      };
      campaigns.set(key, campaign);
    }
    add(campaign.counts, counts);
    const mailbox = fields.sent_from;
    if (typeof mailbox === 'string' && mailbox !== '' && !campaign.mailboxes.includes(mailbox)) {
      campaign.mailboxes.push(mailbox);
    }
  });
  const results: CampaignResults[] = [...campaigns.entries()]
    .sort(([a], [b]) => compareIds(a, b))
    .map(([, { counts, ...campaign }]) => ({ ...campaign, ...counts, ...ratesOf(counts) }));
  return {
    company_id: companyId,
    name,
    totals: totalsOf(results.map((c) => ({ ...c, campaigns: 1 }))),
    campaigns: results,
  };
}

/** The sums of several results (a client's campaigns, the run's clients), the rates from the sums. */
export function totalsOf(parts: readonly (ResultCounts & { campaigns: number })[]): ClientTotals {
  const counts = zeroCounts();
  let campaigns = 0;
  for (const part of parts) {
    add(counts, part);
    campaigns += part.campaigns;
  }
  return { campaigns, ...counts, ...ratesOf(counts) };
}
