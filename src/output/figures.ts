/**
 * Figures as a person reads them (tables, details, the HTML page): a rate as a percentage, a change
 * with its sign. Machine formats (TSV, CSV, --json) print the numbers themselves.
 */
import type { PeriodPair } from '../api/types.js';
import { groupDigits } from './text.js';

/** 0.0712 → "7.1%"; null → "" (nothing to divide by). */
export function percent(rate: number | null): string {
  return rate === null ? '' : `${(rate * 100).toFixed(1)}%`;
}

/** A change of a rate, in percentage points: -0.035 → "-3.5%", 0 → "0.0%"; null → "". */
export function signedPercent(change: number | null): string {
  if (change === null) return '';
  const text = percent(change);
  return change > 0 && text !== '0.0%' ? `+${text}` : text === '-0.0%' ? '0.0%' : text;
}

/** A change of a count: 120 → "+120", -1204 → "-1,204", 0 → "0". */
export function signedCount(change: number): string {
  return change > 0 ? `+${groupDigits(change)}` : change < 0 ? `-${groupDigits(-change)}` : '0';
}

/** A counter against the previous period, relatively: "+12%", "-40%", "new" (from 0), "" (both 0). */
export function relativeChange(pair: PeriodPair): string {
  const { current_period: now, previous_period: before } = pair;
  if (before === 0) return now === 0 ? '' : 'new';
  const pct = Math.round(((now - before) / before) * 100);
  return `${pct > 0 ? '+' : ''}${pct}%`;
}
