/**
 * The `health` report as a value (src/reports/health.ts), computed from the checks' results by a pure
 * function: no request, no clock, no output. The handler gathers the results (src/fleet/health.ts),
 * calls healthReport(), prints what it returns and ends as its verdict says; unit tests build it from
 * data.
 */
import { type Deliverability, idKey } from '../api/types.js';
import { type HealthMemory, remember, rememberClient } from '../history/health-memory.js';
import { coveredDays, type Period } from '../input/period.js';
import {
  type CheckName,
  type FailOn,
  type HealthMemoryReport,
  type HealthReport,
  type HealthVerdict,
  type NotChecked,
  type Problem,
  SEVERITIES,
  type Severity,
} from '../reports/health.js';
import { option } from '../terms.js';
import { rowsFor } from './deliverability.js';
import type { ClientResult } from './health.js';
import { THRESHOLDS } from './health-checks.js';

/** What the run found: every client's result in the clients' order, and the period's listing. */
export interface HealthRun {
  period: Period;
  /** Today, as the report's dates count it (the service's default window ends today). */
  now: Date;
  results: readonly ClientResult[];
  /** The period's deliverability listing (empty when the run was stopped before it was read). */
  listing: readonly Deliverability[];
  /** The clients were named (--company, --file): one that is inactive is said, not passed over. */
  named: boolean;
  /** Set when Ctrl-C (or a closed pipe) stopped the run: "of 120 clients", or "clients". */
  stopped?: { of: string } | undefined;
  /** With the history: each client's latest earlier run, this run's time, and --new. */
  memory?: MemoryOptions | undefined;
}

/** The history's part in a run (src/history/health-memory.ts): what each problem is compared with. */
export interface MemoryOptions {
  clients: HealthMemory;
  /** This run's time: a new problem's first_seen. */
  at: string;
  /** --new: only the new problems are kept (and judged by --fail-on). */
  onlyNew: boolean;
}

/**
 * One client's kept problems as the rows show them as it is done: marked new or since with the
 * history, and only the new ones with --new.
 */
export function shownOfClient(
  problems: readonly Problem[],
  companyId: number,
  filter: HealthFilter,
  memory: MemoryOptions | undefined,
): Problem[] {
  const own = sortProblems(problems.filter(kept(filter)), [companyId]);
  if (memory === undefined) return own;
  return rememberClient(own, memory.clients.get(idKey(companyId)), memory.at).filter(
    (p) => !memory.onlyNew || p.new,
  );
}

/** Which problems the report keeps, and which of them fail the run. */
export interface HealthFilter {
  failOn: FailOn;
  /** --severity: only problems at or above it. */
  severity?: Severity | undefined;
  /** --check: only these checks. */
  checks?: readonly CheckName[] | undefined;
}

/** Whether `severity` is at or above `threshold` (critical > warning > info). */
function atOrAbove(severity: Severity, threshold: Severity): boolean {
  return SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(threshold);
}

/** Whether --severity and --check keep a problem (also for the rows streamed as clients are done). */
function kept(filter: HealthFilter): (problem: Problem) => boolean {
  const { severity, checks } = filter;
  return (p) =>
    (severity === undefined || atOrAbove(p.severity, severity)) &&
    (checks === undefined || checks.includes(p.check));
}

/** Problems by severity, then in the clients' order (stable: a client's own order is kept). */
export function sortProblems(problems: readonly Problem[], clientOrder: readonly number[]): Problem[] {
  const position = new Map(clientOrder.map((id, i) => [String(id), i]));
  const at = (p: Problem) => position.get(String(p.company_id)) ?? 0;
  return [...problems].sort(
    (a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || at(a) - at(b),
  );
}

export function healthReport(run: HealthRun, filter: HealthFilter): HealthReport {
  const { results } = run;
  const checked = results.filter((r) => r.state === 'checked').map((r) => r.client);
  const order = results.map((r) => r.client.id);
  const found = sortProblems(
    results.flatMap((r) => r.problems),
    order,
  );
  const { memory } = run;
  const marked =
    memory &&
    remember(
      found,
      checked.map((c) => c.id),
      memory.clients,
      memory.at,
    );
  const all: Problem[] = marked ? marked.problems : found;
  const keptAll = all.filter(kept(filter));
  const problems = memory?.onlyNew ? keptAll.filter((p) => p.new) : keptAll;
  const notChecked: NotChecked[] = results
    .filter((r) => r.state === 'inactive')
    .map(({ client }) => ({ company_id: client.id, name: client.name, reason: 'inactive' }));
  const counts = Object.fromEntries(
    SEVERITIES.map((severity) => [severity, problems.filter((p) => p.severity === severity).length]),
  ) as Record<Severity, number>;
  const covered = coveredDays(run.period, run.now);
  const window = run.period.from === undefined && run.period.to === undefined ? ' (the last 30 days)' : '';
  return {
    period: covered,
    periodLabel: `${covered.from} to ${covered.to}${window}`,
    companiesChecked: checked.length,
    problems,
    counts,
    notChecked,
    deliverability: rowsFor(checked, run.listing),
    bounceMarks: [THRESHOLDS.bounceWarning, THRESHOLDS.bounceCritical],
    interrupted: run.stopped && { clientsDone: results.length, of: run.stopped.of },
    verdict: verdict(problems, filter.failOn, run.named ? notChecked : []),
    summary:
      summaryLine(counts, checked.length, notChecked.length, all.length - keptAll.length) +
      (marked ? memoryLine(marked.problems, marked.resolved.length, memory.onlyNew) : ''),
    memory:
      marked &&
      ({
        resolved: marked.resolved,
        since: latestRun(memory.clients, checked),
        fresh: marked.problems.filter((p) => p.new).length,
        ongoing: marked.problems.filter((p) => !p.new).length,
        onlyNew: memory.onlyNew,
        record: run.stopped
          ? undefined
          : { problems: marked.problems, checked: checked.map((c) => ({ id: c.id, name: c.name })) },
      } satisfies HealthMemoryReport),
  };
}

/** " 2 new, 5 ongoing, 1 resolved since the last run." (with --new: what the rows are). */
function memoryLine(marked: readonly Problem[], resolved: number, onlyNew: boolean): string {
  const fresh = marked.filter((p) => p.new).length;
  const what = onlyNew
    ? `Only the new ones are shown: ${fresh} new`
    : `${fresh} new, ${marked.length - fresh} ongoing`;
  return ` ${what}, ${resolved} resolved since the last run.`;
}

/** When the latest earlier run of the clients checked ran (the page's "new since …"). */
function latestRun(memory: HealthMemory, checked: readonly { id: number }[]): string | undefined {
  let latest: string | undefined;
  for (const { id } of checked) {
    const at = memory.get(idKey(id))?.at;
    if (at !== undefined && (latest === undefined || at > latest)) latest = at;
  }
  return latest;
}

function verdict(
  problems: readonly Problem[],
  failOn: FailOn,
  inactiveNamed: readonly NotChecked[],
): HealthVerdict {
  const found = failOn === 'none' ? 0 : problems.filter((p) => atOrAbove(p.severity, failOn)).length;
  if (found > 0) {
    const what = `${found} ${found === 1 ? 'problem' : 'problems'}`;
    return { exit: 7, message: `${what} at or above ${failOn} (${option('fail-on')} ${failOn}).` };
  }
  if (inactiveNamed.length === 0) return { exit: 0 };
  const which = inactiveNamed.map((c) => `${c.company_id}${c.name ? ` ${JSON.stringify(c.name)}` : ''}`);
  const count =
    inactiveNamed.length === 1 ? 'A client named is' : `${inactiveNamed.length} clients named are`;
  return {
    exit: 5,
    message: `${count} inactive and could not be checked (the service answers 409): ${which.join(', ')}.`,
  };
}

function summaryLine(
  counts: Record<Severity, number>,
  checked: number,
  inactive: number,
  leftOut: number,
): string {
  const { critical, warning, info } = counts;
  const parts = [`${critical} critical`, `${warning} warning${warning === 1 ? '' : 's'}`, `${info} info`];
  const across = `across ${checked} client${checked === 1 ? '' : 's'}`;
  const skipped = inactive > 0 ? `; ${inactive} inactive not checked` : '';
  const filtered =
    leftOut > 0
      ? `; ${leftOut} other problem${leftOut === 1 ? '' : 's'} left out (${option('severity')}, ${option('check')})`
      : '';
  return `${parts.join(', ')} ${across}${skipped}${filtered}.`;
}
