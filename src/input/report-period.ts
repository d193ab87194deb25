/**
 * The period of `agency report`: the service makes campaign reports for the last 30 days only, counted
 * in UTC with today included. So the default is today−29 … today (UTC); --from alone runs to today,
 * --to alone starts at today−29; an earlier --from, a day after today or --from after --to is refused
 * before any request (exit 2), with where to look for longer periods.
 */
import { UsageError } from '../errors.js';
import { command, option } from '../terms.js';
import { type Period, parseDay } from './period.js';

/** Days the service's campaign reports can cover, today included. */
export const REPORT_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function reportPeriod(options: Period, now = new Date()): { from: string; to: string } {
  const today = utcDay(now.getTime());
  const earliest = utcDay(Date.parse(`${today}T00:00:00Z`) - (REPORT_WINDOW_DAYS - 1) * DAY_MS);
  const from = options.from === undefined ? earliest : parseDay(options.from, option('from'));
  const to = options.to === undefined ? today : parseDay(options.to, option('to'));
  for (const [flag, day] of [
    [option('from'), from],
    [option('to'), to],
  ] as const) {
    if (day > today) throw new UsageError(`${flag} ${day} is in the future (today is ${today} in UTC).`);
  }
  if (from < earliest) {
    throw new UsageError(
      `${option('from')} ${from} is too early: campaign reports cover the last ${REPORT_WINDOW_DAYS} days only, from ${earliest} (today is ${today} in UTC).`,
      {
        hint: `For longer periods: ${command('deliverability')} (totals per client, any period), and ${command('history report')} (what earlier runs of report stored).`,
      },
    );
  }
  if (from > to) throw new UsageError(`${option('from')} ${from} is after ${option('to')} ${to}.`);
  return { from, to };
}
