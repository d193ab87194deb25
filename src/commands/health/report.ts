/**
 * What `health` computes and prints, apart from its options: the clients and the period's listing,
 * each client checked (src/fleet/health.ts), the problems sorted, the summary line, the HTML page and
 * the exit code. Loaded only when `health` runs.
 */
import { ExitCode, InterruptedError, OutputError, PartialFailureError } from '../../errors.js';
import { type ClientSelection, clientsToCheck } from '../../fleet/clients.js';
import { rowsFor } from '../../fleet/deliverability.js';
import { checkClients, ProblemsFound } from '../../fleet/health.js';
import {
  atOrAbove,
  type Problem,
  SEVERITIES,
  type Severity,
  sortProblems,
} from '../../fleet/health-checks.js';
import { replaceFile } from '../../input/output-file.js';
import { coveredDays, type Period } from '../../input/period.js';
import { type NotChecked, renderHealthHtml } from '../../output/health-html.js';
import { progressLine } from '../../output/progress.js';
import type { RowStream } from '../../output/row-stream.js';
import { listedWhere, NOUNS, plural } from '../../output/summary.js';
import type { Runtime } from '../../runtime.js';

/** `--json`: the contract's object. */
interface HealthJson {
  /** The days the report covers: the ones asked for, else the service's default window as dates. */
  period: { from: string; to: string };
  companies_checked: number;
  problems: Problem[];
  /**
   * Only when there are any: the clients named (--company, --file) that could not be checked, so a
   * kept report does not read as "all is well" for them (the exit 5 says it to the script).
   */
  not_checked?: NotChecked[];
  /** Only when Ctrl-C (or a closed pipe) stopped the run: the report covers the clients checked so far. */
  interrupted?: true;
}

export interface HealthReport {
  json: HealthJson;
  /** "3 critical, 5 warnings, 2 info across 120 clients" (and the inactive ones not checked). */
  summary: string;
  writeHtml(file: string): Promise<void>;
  /** Throws exit 7 when a problem at or above `severity` was found. */
  failOn(severity: Severity | 'none'): void;
  /**
   * Throws exit 5 when a client named with --company/--file is inactive (contract, Targets: a company
   * named explicitly is never skipped); the verdict of `failOn` is said first on stderr.
   */
  failOnInactiveNamed(severity: Severity | 'none'): void;
  /** Set when the run was stopped: the report is of the clients checked until then. */
  interrupted?: string | undefined;
}

/**
 * `rows` (a pipe, CSV) gets each client's problems, worst first, as soon as that client and every one
 * before it are checked: a pipe sees them early and Ctrl-C keeps them. A terminal table and --json
 * come at the end, sorted by severity across clients.
 */
export async function healthReport(
  rt: Runtime,
  selection: ClientSelection,
  period: Period,
  options: { concurrency: number; limit?: number | undefined; rows: RowStream<Problem> },
): Promise<HealthReport> {
  const { concurrency, limit, rows } = options;
  // A lane has up to 5 reads in flight (a client's last two, the next one's three): enough connections
  // for all, and the HQ's.
  const api = rt.api({ connections: 2 * concurrency + 1 });
  const selected = await clientsToCheck(api, selection, period, limit);
  const { clients, total } = selected;
  const clientsOf = total === undefined ? 'clients' : `of ${plural(total, NOUNS.client)}`;
  const progress = progressLine(rt, `${clientsOf} checked`);
  let done = 0;
  const run = await checkClients(api, clients, selected.listing, {
    concurrency,
    signal: rt.ctx.signal,
    onDone: () => progress.update(undefined, ++done),
    onResult: (result) => {
      // Rows stream only when stdout is not the terminal (then no progress line is drawn).
      if (!rows.streaming) return;
      for (const problem of sortProblems(result.problems, [result.client.id])) rows.push(problem);
    },
  }).finally(progress.done);
  const results = run.results;
  const stopped = rt.ctx.signal.aborted || run.error instanceof InterruptedError;
  if (run.error !== undefined && !stopped) throw run.error;
  // Stopped, the report is of the clients checked so far (as inventory's), and no listing is awaited.
  const items = stopped ? [] : await selected.listing;
  const checked = results.filter((r) => r.state === 'checked').map((r) => r.client);
  const problems = sortProblems(
    results.flatMap((r) => r.problems),
    results.map((r) => r.client.id),
  );
  const notChecked: NotChecked[] = results
    .filter((r) => r.state === 'inactive')
    .map(({ client }) => ({ company_id: client.id, name: client.name, reason: 'inactive' }));
  const json: HealthJson = {
    period: coveredDays(period),
    companies_checked: checked.length,
    problems,
    ...(notChecked.length > 0 ? { not_checked: notChecked } : {}),
    ...(stopped ? { interrupted: true as const } : {}),
  };
  const stoppedAfter = `Interrupted after ${results.length} ${clientsOf}`;
  const found =
    results.length === 0
      ? ''
      : problems.length === 0
        ? '; no problem found in them'
        : `; the problems found are ${listedWhere(rt.terminal.stdoutIsTTY)}`;
  return {
    json,
    interrupted: stopped ? `${stoppedAfter}${found}.` : undefined,
    summary: summaryLine(problems, checked.length, notChecked.length),
    async writeHtml(file) {
      // An empty interrupted page would only replace the last report with nothing (new-user F1).
      if (stopped && checked.length === 0) {
        rt.out.info(`No HTML report written: no client was checked (${file} is left as it was).`);
        return;
      }
      const html = renderHealthHtml({
        title: 'Fleet health',
        periodLabel: periodLabel(period),
        generatedAt: new Date(),
        companiesChecked: checked.length,
        notChecked,
        problems,
        deliverability: rowsFor(checked, items),
        ...(stopped
          ? { interrupted: `${stoppedAfter}: this page shows only the clients checked until then.` }
          : {}),
      });
      try {
        await replaceFile(file, html);
      } catch (error) {
        throw new OutputError(`Could not write the HTML report to ${file}: ${(error as Error).message}`);
      }
      rt.out.info(`HTML report${stopped ? ' of the clients checked so far' : ''} written to ${file}`);
    },
    failOn(severity) {
      const found = verdict(problems, severity);
      if (found) throw new ProblemsFound(found);
    },
    failOnInactiveNamed(severity) {
      if (selection.kind !== 'named') return;
      const inactiveNamed = results.filter((r) => r.state === 'inactive').map((r) => r.client);
      if (inactiveNamed.length === 0) return;
      const found = verdict(problems, severity);
      if (found) rt.out.info(found);
      const which = inactiveNamed.map((c) => `${c.id}${c.name ? ` ${JSON.stringify(c.name)}` : ''}`);
      const count =
        inactiveNamed.length === 1 ? 'A client named is' : `${inactiveNamed.length} clients named are`;
      throw new PartialFailureError(
        `${count} inactive and could not be checked (the service answers 409): ${which.join(', ')}.`,
        ExitCode.conflict,
        409,
      );
    },
  };
}

/** "3 problems at or above critical (--fail-on critical)." when --fail-on is met, else undefined. */
function verdict(problems: readonly Problem[], severity: Severity | 'none'): string | undefined {
  if (severity === 'none') return undefined;
  const found = problems.filter((p) => atOrAbove(p.severity, severity)).length;
  if (found === 0) return undefined;
  return `${found} ${found === 1 ? 'problem' : 'problems'} at or above ${severity} (--fail-on ${severity}).`;
}

function summaryLine(problems: readonly Problem[], checked: number, inactive: number): string {
  const count = (severity: Severity) => problems.filter((p) => p.severity === severity).length;
  const [critical, warning, info] = SEVERITIES.map(count) as [number, number, number];
  const parts = [`${critical} critical`, `${warning} warning${warning === 1 ? '' : 's'}`, `${info} info`];
  const across = `across ${checked} client${checked === 1 ? '' : 's'}`;
  const skipped = inactive > 0 ? `; ${inactive} inactive not checked` : '';
  return `${parts.join(', ')} ${across}${skipped}.`;
}

/**
 * The days the report covers, always as dates (a saved report must say which 30 days it was): "2026-10-26
 * to 2026-11-24 (the last 30 days)" without --from/--to, as the service's default window.
 */
function periodLabel(period: Period): string {
  const { from, to } = coveredDays(period);
  return period.from === undefined && period.to === undefined
    ? `${from} to ${to} (the last 30 days)`
    : `${from} to ${to}`;
}
