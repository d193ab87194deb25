/**
 * The sandbox's invented world, part 5: each client's sending statistics for a period and the period
 * of the same length before it, as GET /v2/agency/deliverability reports them. Derived from the
 * company id and the period's length, so the same question gets the same answer. Some clients are
 * seeded with the problems `agency health` looks for: a bounce rate at or above 2% (some at or above
 * 5%), a reply rate that fell by more than half. Some active clients sent nothing (left out, as the
 * service leaves them out).
 */
import { FIRST_COMPANY_ID } from '../types.js';
import { mix } from './names.js';

interface SeededPeriods {
  current_period: number;
  previous_period: number;
}

export interface DeliverabilityItem {
  id: number;
  name: string;
  emails_sent: SeededPeriods;
  delivered_emails: SeededPeriods;
  views: SeededPeriods;
  replies: SeededPeriods;
  bounces: SeededPeriods;
}

/** What a seeded client is like: index i = id - 1001, so tests and docs can name one by its kind. */
type ActivityKind = 'quiet' | 'healthy' | 'bouncing' | 'bouncing-hard' | 'replies-halved';

function activityKind(companyId: number): ActivityKind {
  const i = companyId - FIRST_COMPANY_ID;
  if (i % 10 === 9) return 'quiet';
  if (i % 12 === 4) return 'bouncing';
  if (i % 12 === 10) return 'bouncing-hard';
  if (i % 12 === 7) return 'replies-halved';
  return 'healthy';
}

interface Rates {
  bounce: number;
  view: number;
  reply: number;
}

function counts(sent: number, rates: Rates) {
  const bounces = Math.round(sent * rates.bounce);
  const delivered = sent - bounces;
  return {
    sent,
    delivered,
    views: Math.round(delivered * rates.view),
    replies: Math.round(delivered * rates.reply),
    bounces,
  };
}

/** The client's counters over `days` days and the `days` before them; undefined = no activity. */
export function deliverabilityOf(
  companyId: number,
  name: string,
  days: number,
): DeliverabilityItem | undefined {
  const kind = activityKind(companyId);
  if (kind === 'quiet') return undefined;
  const perDay = 20 + (mix(companyId, 200) % 80);
  const sent = perDay * days;
  const previousSent = Math.round(sent * (0.75 + (mix(companyId, 201) % 50) / 100));
  const usual: Rates = {
    bounce: 0.004 + (mix(companyId, 202) % 12) / 1000,
    view: 0.3 + (mix(companyId, 203) % 30) / 100,
    reply: 0.03 + (mix(companyId, 204) % 50) / 1000,
  };
  const previous = counts(previousSent, usual);
  const now: Rates = { ...usual, reply: usual.reply * (0.8 + (mix(companyId, 205) % 40) / 100) };
  if (kind === 'bouncing') now.bounce = 0.028;
  if (kind === 'bouncing-hard') now.bounce = 0.071;
  if (kind === 'replies-halved') now.reply = usual.reply * 0.4;
  const current = counts(sent, now);
  const pair = (field: keyof typeof current): SeededPeriods => ({
    current_period: current[field],
    previous_period: previous[field],
  });
  return {
    id: companyId,
    name,
    emails_sent: pair('sent'),
    delivered_emails: pair('delivered'),
    views: pair('views'),
    replies: pair('replies'),
    bounces: pair('bounces'),
  };
}
