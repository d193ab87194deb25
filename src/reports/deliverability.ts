/**
 * A client's line of the deliverability report as a value: the service's counters as they came
 * (each a {current_period, previous_period} pair) and the rates computed from them once, in
 * src/fleet/deliverability.ts. Renderers (tables, CSV, the HTML page) show these; they compute none.
 */
import type { Deliverability } from '../api/types.js';

/** Rates are 0..1, null when there is nothing to divide by; a change is this period's minus the previous. */
export interface DeliverabilityRates {
  /** Replies / delivered of the current period. */
  reply_rate: number | null;
  /** Bounces / sent of the current period. */
  bounce_rate: number | null;
  reply_rate_previous: number | null;
  bounce_rate_previous: number | null;
  /** Null unless both periods have a rate. */
  reply_rate_change: number | null;
  bounce_rate_change: number | null;
}

export interface DeliverabilityRow extends Deliverability, DeliverabilityRates {}
