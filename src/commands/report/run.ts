/**
 * What `agency report` does once its options are checked: the clients of the targets, each client's
 * report (src/fleet/report-run.ts), the rows printed as they come, --json, the HTML page, the summary
 * and the exit code. Loaded only when `report` runs.
 */
import { idKey } from '../../api/types.js';
import { ExitCode, InterruptedError, PartialFailureError } from '../../errors.js';
import type { Client, ClientSelection } from '../../fleet/clients.js';
import { type RowFailure, rowsFailed } from '../../fleet/failures.js';
import {
  type ClientOutcome,
  DEFAULT_WAIT_MS,
  reportClients,
  reportOfRun,
  reportTargets,
} from '../../fleet/report-run.js';
import type { Period } from '../../input/period.js';
import { REPORT_WINDOW_DAYS } from '../../input/report-period.js';
import { progressLine } from '../../output/progress.js';
import { rowStream } from '../../output/row-stream.js';
import { listedWhere, NOUNS, plural } from '../../output/summary.js';
import { groupDigits } from '../../output/text.js';
import type { Column } from '../../output/writer.js';
import type { CampaignReport } from '../../reports/campaigns.js';
import type { Runtime } from '../../runtime.js';
import {
  type ByCampaignRow,
  type ByClientRow,
  campaignColumns,
  clientColumns,
  type ReportBy,
  rowsOf,
} from './columns.js';

export interface ReportRun {
  selection: ClientSelection;
  period: { from: string; to: string };
  /** The days as given (--from, --to), for the summary's words. */
  asked: Period;
  by: ReportBy;
  concurrency: number;
  limit: number | undefined;
  waitMs: number | undefined;
  html: string | undefined;
  /** The history store, or undefined when the run is left out of it. */
  history?: string | undefined;
}

type ReportRow = ByCampaignRow | ByClientRow;

export async function runReport(rt: Runtime, options: ReportRun): Promise<void> {
  const { period, by, concurrency } = options;
  const table = rt.out.streams.stdoutIsTTY && !rt.out.options.csv;
  const columns = (by === 'campaign' ? campaignColumns(table) : clientColumns(table)) as Column<ReportRow>[];
  rt.out.columns(columns);
  const rows = rowStream(rt.out, columns);
  // A lane has one request in flight at a time (the report, then its polls); and the HQ's.
  const api = rt.api({ connections: concurrency + 1 });
  // The page names the agency: asked at once, on the HQ account, while the clients' reports are made.
  const agency =
    options.html === undefined ? undefined : (await import('./page.js')).agencyName(rt, () => api.me());
  const clients = await reportTargets(api, options.selection, options.limit);
  const total = Array.isArray(clients) ? clients.length : undefined;
  const progress = progressLine(
    rt,
    total === undefined ? 'clients reported' : `of ${plural(total, NOUNS.client)} reported`,
  );
  const started: Client[] = [];
  let done = 0;
  const run = await reportClients(api, clients, period, {
    concurrency,
    waitMs: options.waitMs ?? DEFAULT_WAIT_MS,
    signal: rt.ctx.signal,
    onStart: (client) => started.push(client),
    onResult: (outcome) => {
      progress.update(undefined, ++done);
      if ('results' in outcome) for (const row of rowsOf(outcome.results, by)) rows.push(row);
    },
  }).finally(progress.done);
  const stopped = rt.ctx.signal.aborted || run.error instanceof InterruptedError;
  if (run.error !== undefined && !stopped) throw run.error;
  // Stopped, the clients that finished after one still running are complete too: printed after the
  // others, in the clients' order, and never named among those not done.
  const heldBack = stopped ? (run.heldBack ?? []) : [];
  for (const outcome of heldBack)
    if ('results' in outcome) for (const row of rowsOf(outcome.results, by)) rows.push(row);
  const outcomes = [...run.results, ...heldBack];
  const reported = new Set(outcomes.map((outcome) => idKey(outcome.client.id)));
  const notDone = stopped
    ? [...started, ...('listed' in clients ? clients.listed() : clients)].filter(
        (client, i, all) =>
          !reported.has(idKey(client.id)) && all.findIndex((c) => idKey(c.id) === idKey(client.id)) === i,
      )
    : undefined;
  const value = reportOfRun(period, outcomes, notDone);

  if (rt.out.json) rt.out.jsonValue(jsonOf(rt, value, by, columns));
  else
    await rows.end({
      empty: 'No campaign sent anything in this period.',
      // --by client: the summary below counts the clients; a count line of its own would say it twice.
      noun: by === 'campaign' ? ['campaign', 'campaigns'] : undefined,
    });
  if (options.html !== undefined) {
    const { writeReportPage } = await import('./page.js');
    await writeReportPage(rt, options.html, value, { agency: await agency, interrupted: stopped });
  }
  if (stopped) throw interrupted(rt, value, notDone ?? []);
  if (options.history !== undefined) await recordReport(rt, options.history, value);
  rt.out.info(summary(value, options.asked));
  const failures = outcomes.flatMap(failureOf);
  if (failures.length > 0) {
    const of = outcomes.length;
    throw rowsFailed(
      `${failures.length} of ${plural(of, NOUNS.client)} could not be reported (the others are complete):`,
      failures,
    );
  }
}

function failureOf(outcome: ClientOutcome): RowFailure[] {
  if (!('failed' in outcome)) return [];
  const { failed, exitCode } = outcome;
  return [{ subject: failed.company_id, ...failed.error, exitCode }];
}

/** --json: the report; with --columns, only those fields of each campaign (or of each client's totals). */
function jsonOf(
  rt: Runtime,
  value: CampaignReport,
  by: ReportBy,
  columns: readonly Column<ReportRow>[],
): unknown {
  if (rt.out.options.columns === undefined) return value;
  const fields = <T>(items: readonly T[]) => rt.out.fields(items, columns as unknown as Column<T>[]);
  const clients = value.clients.map((client) =>
    by === 'campaign'
      ? { ...client, campaigns: fields(client.campaigns) }
      : { ...client, totals: fields([client.totals])[0] },
  );
  return { ...value, clients };
}

/**
 * "12 clients reported over the last 30 days (UTC): 4,812 contacted, 201 replied, 57 interested." (or
 * "from 2026-11-20 to 2026-12-02" when the days were given; --json and the page always give the dates).
 */
function summary(value: CampaignReport, period: Period): string {
  const sum = (field: 'contacted' | 'replied' | 'interested') => groupDigits(value.totals[field]);
  const days =
    period.from === undefined && period.to === undefined
      ? `over the last ${REPORT_WINDOW_DAYS} days (UTC)`
      : `from ${value.period.from} to ${value.period.to} (UTC)`;
  return `${plural(value.clients.length, NOUNS.client)} reported ${days}: ${sum('contacted')} contacted, ${sum('replied')} replied, ${sum('interested')} interested.`;
}

function interrupted(rt: Runtime, value: CampaignReport, notDone: readonly Client[]): PartialFailureError {
  const named = notDone.map((c) => `${c.id}${c.name ? ` ${JSON.stringify(c.name)}` : ''}`);
  const shown = named.length > 10 ? [...named.slice(0, 10), `and ${named.length - 10} more`] : named;
  const rest = shown.length > 0 ? ` Not done: ${shown.join(', ')}.` : '';
  const complete = value.clients.length + value.failed.length;
  return new PartialFailureError(
    `Interrupted after ${plural(complete, NOUNS.client)}; the complete ones are ${listedWhere(rt.terminal.stdoutIsTTY)}.${rest}`,
    ExitCode.interrupted,
  );
}

/** The clients' totals of a complete run into the history (a client that failed is not recorded). */
async function recordReport(rt: Runtime, file: string, value: ReturnType<typeof reportOfRun>): Promise<void> {
  const { recordRun } = await import('../../history/record.js');
  const { recordCounts, REPORT_COUNTS } = await import('../../history/runs.js');
  const { VERSION } = await import('../../version.js');
  const run = { at: new Date().toISOString(), period: value.period, version: VERSION };
  const totals = value.clients.map((c) => {
    const counts = Object.fromEntries(REPORT_COUNTS.map((count) => [count, c.totals[count]]));
    return {
      company_id: c.company_id,
      name: c.name,
      ...(counts as Record<(typeof REPORT_COUNTS)[number], number>),
    };
  });
  await recordRun(rt, file, (db, agency) => recordCounts(db, agency, 'report', run, totals));
}
