/**
 * The deliverability listing as `deliverability` and `health` use it: every page of the service's
 * per-client counters (50 a page), the two rates the contract defines, a row of zeros for a targeted
 * client the service left out (no activity), and the change against the previous period.
 */
import { paginate, paginateSearch } from '../api/paginate.js';
import type { Deliverability, Page, PeriodPair } from '../api/types.js';
import type { Period } from '../input/period.js';

export interface DeliverabilityReader {
  deliverabilityPage(page: number, period: Period): Promise<Page<Deliverability>>;
}

/** A row: the service's item as it came (its {current_period, previous_period} pairs), plus the rates. */
export interface DeliverabilityRow extends Deliverability {
  /** Replies / delivered of the current period, 0..1; null when nothing was delivered. */
  reply_rate: number | null;
  /** Bounces / sent of the current period, 0..1; null when nothing was sent. */
  bounce_rate: number | null;
}

/**
 * Every client the service lists for the period, in its order. With `wanted`, the listing stops at
 * the page where the last wanted client appears (a targeted run reads no page it does not need);
 * with `limit`, once it has that many clients (--limit).
 */
export async function readDeliverability(
  api: DeliverabilityReader,
  period: Period,
  wanted?: ReadonlySet<number>,
  limit?: number,
): Promise<Deliverability[]> {
  const items: Deliverability[] = [];
  const missing = new Set(wanted);
  const fetchPage = (page: number) => api.deliverabilityPage(page, period);
  for await (const item of wanted ? paginateSearch(fetchPage) : paginate(fetchPage, { limit })) {
    items.push(item);
    missing.delete(item.id);
    if (wanted && missing.size === 0) break;
  }
  return items;
}

export function ratio(top: number, bottom: number): number | null {
  return bottom > 0 ? top / bottom : null;
}

function withRates(item: Deliverability): DeliverabilityRow {
  return {
    ...item,
    reply_rate: ratio(item.replies.current_period, item.delivered_emails.current_period),
    bounce_rate: ratio(item.bounces.current_period, item.emails_sent.current_period),
  };
}

const ZERO: PeriodPair = { current_period: 0, previous_period: 0 };

/** A targeted client with no activity in either period: the service leaves it out; the report does not. */
function zeroRow(id: number, name: string): DeliverabilityRow {
  return {
    id,
    name,
    emails_sent: { ...ZERO },
    delivered_emails: { ...ZERO },
    views: { ...ZERO },
    replies: { ...ZERO },
    bounces: { ...ZERO },
    reply_rate: null,
    bounce_rate: null,
  };
}

/** One row per client (clients undefined: per listed client), a quiet one as zeros. */
export function rowsFor(
  clients: readonly { id: number; name: string }[] | undefined,
  items: readonly Deliverability[],
): DeliverabilityRow[] {
  if (clients === undefined) return items.map(withRates);
  const byId = new Map(items.map((item) => [item.id, item]));
  return clients.map((c) => {
    const item = byId.get(c.id);
    return item ? withRates(item) : zeroRow(c.id, c.name);
  });
}

/** 0.0712 → "7.1%"; null → "" (nothing to divide by). */
export function percent(rate: number | null): string {
  return rate === null ? '' : `${(rate * 100).toFixed(1)}%`;
}

/** The change of a counter against the previous period: "+12%", "-40%", "new" (from 0), "" (both 0). */
export function change(pair: PeriodPair): string {
  const { current_period: now, previous_period: before } = pair;
  if (before === 0) return now === 0 ? '' : 'new';
  const pct = Math.round(((now - before) / before) * 100);
  return `${pct > 0 ? '+' : ''}${pct}%`;
}
