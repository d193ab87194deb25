/**
 * What `health` reads, apart from its options: the clients and the period's listing, each client
 * checked (src/fleet/health.ts) with each one's kept problems streamed as it is done, and the page
 * written. What the report says is computed from these results by src/fleet/health-report.ts.
 * Loaded only when `health` runs.
 */
import { InterruptedError, OutputError } from '../../errors.js';
import { type ClientSelection, clientsToCheck } from '../../fleet/clients.js';
import { checkClients } from '../../fleet/health.js';
import {
  type HealthFilter,
  type HealthRun,
  type MemoryOptions,
  shownOfClient,
} from '../../fleet/health-report.js';
import { replaceFile } from '../../input/output-file.js';
import type { Period } from '../../input/period.js';
import { renderHealthHtml } from '../../output/health-html.js';
import { progressLine } from '../../output/progress.js';
import type { RowStream } from '../../output/row-stream.js';
import { NOUNS, plural } from '../../output/summary.js';
import type { HealthReport, Problem } from '../../reports/health.js';
import type { Runtime } from '../../runtime.js';

/**
 * Every client of the selection checked. `rows` (a pipe, CSV) gets each client's kept problems, worst
 * first, as soon as that client and every one before it are checked: a pipe sees them early and
 * Ctrl-C keeps them. A terminal table and --json come at the end, from the report.
 */
export async function runHealth(
  rt: Runtime,
  selection: ClientSelection,
  period: Period,
  options: {
    concurrency: number;
    limit?: number | undefined;
    rows: RowStream<Problem>;
    filter: HealthFilter;
    /** The owner column is shown: named clients' owners are looked up in the company list. */
    owners: boolean;
    /** With the history: the rows are marked new or since (and only the new ones with --new). */
    memory?: MemoryOptions | undefined;
  },
): Promise<HealthRun> {
  const { concurrency, limit, rows } = options;
  // A lane has up to 5 reads in flight (a client's last two, the next one's three): enough connections
  // for all, and the HQ's.
  const api = rt.api({ connections: 2 * concurrency + 1 });
  const selected = await clientsToCheck(api, selection, period, limit, options.owners);
  const { clients, total } = selected;
  const of = total === undefined ? 'clients' : `of ${plural(total, NOUNS.client)}`;
  const progress = progressLine(rt, `${of} checked`);
  let done = 0;
  const run = await checkClients(api, clients, selected.listing, {
    concurrency,
    signal: rt.ctx.signal,
    total,
    onDone: () => progress.update(undefined, ++done),
    onResult: (result) => {
      // Rows stream only when stdout is not the terminal (then no progress line is drawn).
      if (!rows.streaming) return;
      for (const problem of shownOfClient(result.problems, result.client.id, options.filter, options.memory))
        rows.push(problem);
    },
  }).finally(progress.done);
  const stopped = rt.ctx.signal.aborted || run.error instanceof InterruptedError;
  if (run.error !== undefined && !stopped) throw run.error;
  return {
    period,
    now: new Date(),
    results: run.results,
    // Stopped, the report is of the clients checked so far (as inventory's), and no listing is awaited.
    listing: stopped ? [] : await selected.listing,
    named: selection.kind === 'named',
    stopped: stopped ? { of } : undefined,
    memory: options.memory,
  };
}

/** The report as a page in `file`; a file that cannot be written is exit 1 (the report is printed). */
export async function writeHealthHtml(rt: Runtime, report: HealthReport, file: string): Promise<void> {
  // An empty interrupted page would only replace the last report with nothing (new-user F1).
  if (report.interrupted && report.companiesChecked === 0) {
    rt.out.info(`No HTML report written: no client was checked (${file} is left as it was).`);
    return;
  }
  const html = renderHealthHtml(report, { title: 'Fleet health', generatedAt: new Date() });
  try {
    await replaceFile(file, html);
  } catch (error) {
    throw new OutputError(`Could not write the HTML report to ${file}: ${(error as Error).message}`);
  }
  rt.out.info(`HTML report${report.interrupted ? ' of the clients checked so far' : ''} written to ${file}`);
}
