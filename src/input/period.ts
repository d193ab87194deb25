/**
 * `--from` / `--to` of the fleet health commands: calendar days as YYYY-MM-DD, checked before any
 * request (a real date, from ≤ to, not after today). Either may be left out: the service's default
 * window is the last 30 days.
 */
import { UsageError } from '../errors.js';
import { option } from '../terms.js';

export interface Period {
  from?: string | undefined;
  to?: string | undefined;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

export function parseDay(value: string, flag: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!match) {
    throw new UsageError(
      `${flag} must be a date as YYYY-MM-DD, such as 2026-05-01 (got ${JSON.stringify(value)}).`,
    );
  }
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  // Date.UTC would roll 2026-02-30 over to March 2: a day the calendar lacks is refused instead.
  const name = MONTHS[month - 1];
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (name === undefined)
    throw new UsageError(`${flag} ${match[0]} is not a date: there is no month ${month}.`);
  if (day < 1 || day > days) {
    throw new UsageError(`${flag} ${match[0]} is not a date: ${name} ${year} has ${days} days.`);
  }
  return match[0];
}

/** Today on this machine's calendar, as YYYY-MM-DD (the service counts days in the user's time zone). */
function today(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The service's default window, in days, ending today (or at --to). */
const DEFAULT_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

/**
 * The days a report covers, as dates: what was asked, and for what was left out the service's default
 * (the last 30 days up to today, or up to --to), on this machine's calendar. Nothing is sent from it:
 * it says in --json which days the numbers are about, where null would leave the reader guessing.
 */
export function coveredDays(period: Period, now = new Date()): { from: string; to: string } {
  const to = period.to ?? today(now);
  if (period.from !== undefined) return { from: period.from, to };
  const [year, month, day] = to.split('-').map(Number) as [number, number, number];
  const from = new Date(Date.UTC(year, month - 1, day - (DEFAULT_WINDOW_DAYS - 1)));
  return { from: from.toISOString().slice(0, 10), to };
}

/** The days from `from` to `to` (YYYY-MM-DD), both included. */
export function periodDays(period: { from: string; to: string }): number {
  return (
    Math.round((Date.parse(`${period.to}T00:00:00Z`) - Date.parse(`${period.from}T00:00:00Z`)) / DAY_MS) + 1
  );
}

/**
 * The period of the same length just before the covered days: what the service compares each counter
 * with (`previous_period`).
 */
function previousDays(covered: { from: string; to: string }): { from: string; to: string } {
  const day = (text: string) => Date.parse(`${text}T00:00:00Z`);
  const length = periodDays(covered);
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { from: iso(day(covered.from) - length * DAY_MS), to: iso(day(covered.from) - DAY_MS) };
}

/**
 * "2026-10-26 to 2026-11-24 (the last 30 days), compared with 2026-09-26 to 2026-10-25": which days a
 * report's numbers and their changes are about, as dates.
 */
export function comparedPeriods(period: Period, now = new Date()): string {
  const covered = coveredDays(period, now);
  const before = previousDays(covered);
  const last =
    period.from === undefined && period.to === undefined ? ` (the last ${DEFAULT_WINDOW_DAYS} days)` : '';
  return `${covered.from} to ${covered.to}${last}, compared with ${before.from} to ${before.to}`;
}

export function parsePeriod(options: Period, now = new Date()): Period {
  const from = options.from === undefined ? undefined : parseDay(options.from, option('from'));
  const to = options.to === undefined ? undefined : parseDay(options.to, option('to'));
  const limit = today(now);
  for (const [flag, day] of [
    [option('from'), from],
    [option('to'), to],
  ] as const) {
    if (day !== undefined && day > limit) {
      throw new UsageError(`${flag} ${day} is in the future (today is ${limit}).`);
    }
  }
  if (from !== undefined && to !== undefined && from > to) {
    throw new UsageError(`${option('from')} ${from} is after ${option('to')} ${to}.`);
  }
  return { from, to };
}
