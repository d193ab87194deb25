/**
 * The contract's counters of `deliverability`, each of the current period; on a terminal the change
 * against the previous period (+120) of some stands right after it (`change`: that column's priority,
 * hidden first when narrow). Every counter's previous value and change can be asked for with --columns.
 * A module of its own: `history deliverability` gives way by the same priorities without loading the
 * command.
 */
import type { DeliverabilityCounter } from '../../api/types.js';

/** The counters' names: their columns' headers, and the columns `history deliverability` stores. */
export type CounterName = 'sent' | 'delivered' | 'opened' | 'replied' | 'bounced';

interface Counter {
  header: CounterName;
  field: DeliverabilityCounter;
  priority: number;
  change?: number;
}

export const COUNTERS: readonly Counter[] = [
  { header: 'sent', field: 'emails_sent', priority: 1, change: 3 },
  { header: 'delivered', field: 'delivered_emails', priority: 4 },
  { header: 'opened', field: 'views', priority: 4 },
  { header: 'replied', field: 'replies', priority: 2, change: 5 },
  { header: 'bounced', field: 'bounces', priority: 2, change: 5 },
];

/** How each counter gives way on a narrow screen, by its name (lower stays longer). */
export const COUNTER_PRIORITY = Object.fromEntries(
  COUNTERS.map(({ header, priority }) => [header, priority]),
) as Readonly<Record<CounterName, number>>;
