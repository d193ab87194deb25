/**
 * An account's campaign reports (the HQ account, or a client through x-company-id): one asked for a
 * period, then read by its hash until the service has prepared it.
 */
import type { HttpLike } from '../lazy-http.js';
import { expectObject, shapeError } from '../types.js';
import { accountName, debugging, type Endpoint, target } from './endpoint.js';

export const REPORT_ENDPOINTS = {
  campaigns: {
    route: 'POST /v2/reports/campaigns',
    does: 'asks for the general statistics of the campaigns over a period (the last 30 days at most): a hash',
    commands: ['report'],
  },
  read: {
    route: 'GET /v2/reports/{hash}',
    does: 'a report asked for: its status, and its rows once READY (one per campaign and sending mailbox)',
    commands: ['report'],
  },
} as const satisfies Record<string, Endpoint>;

/** A report read by its hash: its status as the service wrote it, and its rows once it is ready. */
export interface ReportAnswer {
  status: string;
  /** `report.data` (checked to be an array) when the status is READY. */
  rows?: unknown[];
}

/** The status of a report whose rows can be read; FAILED and ERROR are final; any other is pending. */
export const REPORT_READY = 'READY';
export const REPORT_FAILED: readonly string[] = ['FAILED', 'ERROR'];

/** POST /v2/reports/campaigns {"from", "to"} → the report's hash. */
export async function askCampaignReport(
  http: HttpLike,
  companyId: number | undefined,
  period: { from: string; to: string },
): Promise<string> {
  const what = `a campaign report of ${accountName(companyId)}`;
  const res = await http.request({
    ...target(REPORT_ENDPOINTS.campaigns),
    body: { from: period.from, to: period.to },
    companyId,
    company: companyId,
    action: `ask for ${what} (${period.from} to ${period.to})`,
  });
  const body = expectObject(res, debugging(http), `asking for ${what}`, 'an object with "hash"');
  if (typeof body.hash !== 'string' || body.hash === '') {
    throw shapeError(`asking for ${what}`, 'expected an object with "hash"', debugging(http));
  }
  return body.hash;
}

/** GET /v2/reports/{hash}: `{"status", "report": {"description", "data": [...]}}`. */
export async function readReport(
  http: HttpLike,
  companyId: number | undefined,
  hash: string,
): Promise<ReportAnswer> {
  const what = `the campaign report of ${accountName(companyId)}`;
  const res = await http.request({
    ...target(REPORT_ENDPOINTS.read, { hash: encodeURIComponent(hash) }),
    companyId,
    company: companyId,
    action: `read ${what}`,
  });
  const body = expectObject(res, debugging(http), what, 'an object with "status"');
  if (typeof body.status !== 'string') {
    throw shapeError(what, 'expected an object with "status"', debugging(http));
  }
  const status = body.status.toUpperCase();
  if (status !== REPORT_READY) return { status };
  const report = body.report;
  const data =
    report !== null && typeof report === 'object' ? (report as Record<string, unknown>).data : undefined;
  // A ready report without rows is a report of nothing (no campaign sent in the period).
  if (data === undefined || data === null) return { status, rows: [] };
  if (!Array.isArray(data)) {
    throw shapeError(what, 'expected "report.data" to be a list of rows', debugging(http));
  }
  return { status, rows: data };
}
