/**
 * The campaign reports of an account (its own, or a client's through x-company-id): POST
 * /v2/reports/campaigns {"from", "to"} → {"hash"}; GET /v2/reports/{hash} → {"status"} while the report
 * is being prepared, then {"status": "READY", "report": {"description", "data": [...]}} with one row
 * per campaign and sending mailbox (seed/reports.ts). The service makes these reports for the last 30
 * days only, counted in UTC with today included: an earlier `from` is refused with 400. A report is
 * pending for `pendingPolls` reads and for `preparationMs` after it was asked (both, whichever ends
 * later); a hash is readable by the account that asked for it only. Faults make a report fail
 * ('report-failed') or stay pending ('report-pending'), answered in place of the service.
 */
import { randomBytes } from 'node:crypto';
import { jsonBody, ok, type Route } from '../routing.js';
import { type CampaignReportRow, campaignReportRows } from '../seed/reports.js';
import { type RequestContext, SandboxError } from '../types.js';
import { campaignsOf } from './campaigns.js';
import { mailboxes } from './mailboxes.js';

/** The service's window: the last 30 days, today (UTC) included. */
const REPORT_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;
/** Hashes kept per sandbox; the oldest is forgotten beyond (a long-running sandbox stays small). */
const KEPT_REPORTS = 20_000;

/** A preparation time in ms, or a range each report's time is spread over. */
export type PreparationMs = number | { min: number; max: number };

export interface SandboxReportOptions {
  /** Time a report takes to be ready after it was asked, in ms (default 0). */
  preparationMs?: PreparationMs | undefined;
  /** Reads answered "pending" before a report is ready (default 2). */
  pendingPolls?: number | undefined;
}

/** The status of a report still being prepared (any status but READY and FAILED is pending). */
const PENDING_STATUS = 'PENDING';

interface Prepared {
  account: string;
  readyAt: number;
  pollsLeft: number;
  description: string;
  data: CampaignReportRow[];
}

function day(raw: unknown, name: string): number {
  const text = typeof raw === 'string' ? raw : '';
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const time = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (!match || new Date(time).toISOString().slice(0, 10) !== text) {
    throw new SandboxError(400, `${name} must be a date as YYYY-MM-DD (got ${JSON.stringify(raw ?? null)})`);
  }
  return time;
}

/** The period of a report request, checked as the service checks it. */
function period(body: unknown): { from: string; to: string; days: number } {
  const value = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const from = day(value.from, 'from');
  const to = day(value.to, 'to');
  const now = new Date();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  if (from > to) throw new SandboxError(400, 'from must not be after to');
  if (to > today) throw new SandboxError(400, 'to must not be in the future');
  if (from < today - (REPORT_WINDOW_DAYS - 1) * DAY_MS) {
    throw new SandboxError(400, `Reports can be generated from the last ${REPORT_WINDOW_DAYS} days`);
  }
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { from: iso(from), to: iso(to), days: Math.round((to - from) / DAY_MS) + 1 };
}

function senders(context: RequestContext): string[] {
  return mailboxes(context).flatMap((m) => (m.type === 'SMTP' ? [m.details.email] : []));
}

// The fractional part of n × this spreads the n-th report evenly over a range (golden ratio): any run of
// reports has nearly the range's mean, so a bench's floor can count the mean.
const SPREAD = (Math.sqrt(5) - 1) / 2;

/** The time the n-th report asked takes: the one given, or one spread over the range. */
function preparationOf(preparation: PreparationMs, n: number): number {
  if (typeof preparation === 'number') return preparation;
  return preparation.min + (preparation.max - preparation.min) * ((n * SPREAD) % 1);
}

export function reportRoutes(options: SandboxReportOptions = {}): Route[] {
  const preparation = options.preparationMs ?? 0;
  const pendingPolls = options.pendingPolls ?? 2;
  // Per sandbox: each startSandbox builds its own route table.
  const reports = new Map<string, Prepared>();
  let asked = 0;

  function prepare(context: RequestContext, body: unknown) {
    const { from, to, days } = period(body);
    const hash = randomBytes(16).toString('hex');
    reports.set(hash, {
      account: context.account,
      readyAt: Date.now() + preparationOf(preparation, asked++),
      pollsLeft: pendingPolls,
      description: `General statistics of campaigns from ${from} to ${to}`,
      data: campaignReportRows(campaignsOf(context), senders(context), days),
    });
    if (reports.size > KEPT_REPORTS) reports.delete(reports.keys().next().value as string);
    return { hash };
  }

  function read(context: RequestContext, hash: string) {
    const report = reports.get(hash);
    // Another account's hash is as unknown as a made-up one.
    if (!report || report.account !== context.account) {
      throw new SandboxError(404, `Report ${hash} not found`);
    }
    if (report.pollsLeft > 0 || Date.now() < report.readyAt) {
      report.pollsLeft = Math.max(0, report.pollsLeft - 1);
      return { status: PENDING_STATUS };
    }
    return { status: 'READY', report: { description: report.description, data: report.data } };
  }

  return [
    {
      pattern: /^\/v2\/reports\/campaigns$/,
      methods: ['POST'],
      agency: false,
      handle: (c, { body }) => ok(prepare(c, jsonBody(body))),
    },
    {
      pattern: /^\/v2\/reports\/([^/]+)$/,
      methods: ['GET'],
      agency: false,
      handle: (c, { params }) => ok(read(c, decodeURIComponent(params[0] ?? ''))),
    },
  ];
}
