/**
 * The deliverability listing as `deliverability` and `health` use it: every page of the service's
 * per-client counters (50 a page), each client once (a listing whose pages shifted can name one
 * twice), a row of zeros for a targeted client the service left out (no activity), and the rates
 * of both periods: the one place a rate is computed.
 */
import { paginate, paginateSearch } from '../api/paginate.js';
import { type Deliverability, idKey, type Page, type PeriodPair } from '../api/types.js';
import type { Period } from '../input/period.js';
import type { DeliverabilityRates, DeliverabilityRow } from '../reports/deliverability.js';

export interface DeliverabilityReader {
  deliverabilityPage(page: number, period: Period): Promise<Page<Deliverability>>;
}

/**
 * Every client the service lists for the period, in its order, each once (the first time it is
 * listed). With `wanted`, the listing stops at the page where the last wanted client appears (a
 * targeted run reads no page it does not need); with `limit`, once it has that many clients (--limit).
 */
export async function readDeliverability(
  api: DeliverabilityReader,
  period: Period,
  wanted?: ReadonlySet<string>,
  limit?: number,
): Promise<Deliverability[]> {
  const items: Deliverability[] = [];
  const seen = new Set<string>();
  const missing = new Set(wanted);
  const fetchPage = (page: number) => api.deliverabilityPage(page, period);
  const pages = wanted ? paginateSearch(fetchPage) : paginate(fetchPage, { limit });
  for await (const item of pages) {
    const key = idKey(item.id);
    if (seen.has(key)) continue;
    seen.add(key);
    items.push(item);
    missing.delete(key);
    if (wanted && missing.size === 0) break;
  }
  return items;
}

/**
 * Top / bottom, 0..1; null when the bottom is 0 (nothing to divide by). The one place a rate is
 * computed (deliverability, health, report).
 */
export function ratio(top: number, bottom: number): number | null {
  return bottom > 0 ? top / bottom : null;
}

/** Both periods' rates of one pair of counters, and the change between them. */
function rates(
  top: PeriodPair,
  bottom: PeriodPair,
): [now: number | null, before: number | null, change: number | null] {
  const now = ratio(top.current_period, bottom.current_period);
  const before = ratio(top.previous_period, bottom.previous_period);
  return [now, before, now === null || before === null ? null : now - before];
}

/** The contract's rates: replies / delivered, bounces / sent, of each period. */
function ratesOf(item: Deliverability): DeliverabilityRates {
  const [reply, replyBefore, replyChange] = rates(item.replies, item.delivered_emails);
  const [bounce, bounceBefore, bounceChange] = rates(item.bounces, item.emails_sent);
  return {
    reply_rate: reply,
    bounce_rate: bounce,
    reply_rate_previous: replyBefore,
    bounce_rate_previous: bounceBefore,
    reply_rate_change: replyChange,
    bounce_rate_change: bounceChange,
  };
}

/** A listed item with its rates. */
export function withRates(item: Deliverability): DeliverabilityRow {
  return { ...item, ...ratesOf(item) };
}

const ZERO: PeriodPair = { current_period: 0, previous_period: 0 };

/** A targeted client with no activity in either period: the service leaves it out; the report does not. */
function zeroRow(id: number, name: string): DeliverabilityRow {
  return withRates({
    id,
    name,
    emails_sent: { ...ZERO },
    delivered_emails: { ...ZERO },
    views: { ...ZERO },
    replies: { ...ZERO },
    bounces: { ...ZERO },
  });
}

/** One row per client (clients undefined: per listed client), a quiet one as zeros. */
export function rowsFor(
  clients: readonly { id: number; name: string }[] | undefined,
  items: readonly Deliverability[],
): DeliverabilityRow[] {
  if (clients === undefined) return items.map(withRates);
  const byId = new Map(items.map((item) => [idKey(item.id), item]));
  return clients.map((c) => {
    const item = byId.get(idKey(c.id));
    return item ? withRates(item) : zeroRow(c.id, c.name);
  });
}
