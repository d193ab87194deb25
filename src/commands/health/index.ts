/**
 * `agency health [targets] [--from D] [--to D] [--fail-on S] [--severity S] [--check C,...] [--html FILE]`:
 * which clients need attention. The checks' results (./report.ts, src/fleet/health.ts) become a report
 * value (src/fleet/health-report.ts); this handler prints it (table, TSV, CSV, --json; the page through
 * src/output/health-html.ts) and ends as its verdict says: exit 7 when a problem kept at or above
 * --fail-on was found, before any other outcome but an --html file that could not be written (1).
 */
import { type Command, Option } from '@commander-js/extra-typings';
import type { ChalkInstance } from 'chalk';
import { ExitCode, OutcomeExit, PartialFailureError, UsageError } from '../../errors.js';
import { historyFor, NO_HISTORY_OPTION } from '../../history/record.js';
import type { Period } from '../../input/period.js';
import type { Column } from '../../output/writer.js';
import {
  CHECK_NAMES,
  type FailOn,
  type HealthReport,
  type Problem,
  type ResolvedProblem,
  SEVERITIES,
  type Severity,
} from '../../reports/health.js';
import type { Runtime } from '../../runtime.js';
import { command, option } from '../../terms.js';
import { addClientTargets, addPeriod, readClientTargets } from '../client-targets.js';
import {
  collectValues,
  commaSeparated,
  helpText,
  type OptionsOf,
  oneOf,
  type Run,
  suggestValues,
} from '../command.js';
import { parseChecks } from './checks.js';

const configure = (command: Command) =>
  addPeriod(addClientTargets(command, { inactive: 'refused' }))
    .addOption(
      oneOf(
        new Option(
          '--fail-on <severity>',
          'exit 7 when a problem this severe or worse is found; none: never',
        ).choices([...SEVERITIES, 'none']),
      ).default('critical' as FailOn),
    )
    .addOption(
      oneOf(
        new Option('--severity <severity>', 'only problems this severe or worse').choices([...SEVERITIES]),
      ),
    )
    .addOption(
      commaSeparated(
        suggestValues(
          new Option('--check <checks>', 'only these checks, comma-separated (repeatable)').argParser(
            collectValues,
          ),
          CHECK_NAMES,
        ),
      ),
    )
    .option('--html <file>', 'also write the report as one self-contained web page')
    .option('--concurrency <n>', 'clients read at once (default 8)')
    .option('--new', 'only the problems new since the last recorded run (--fail-on judges only those)')
    .option(...NO_HISTORY_OPTION)
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints one row per problem: company_id, name, severity, check, detail; on a
          terminal critical first, then warnings, then info, each in client order.
          Piped, each client's rows (worst first) are printed as soon as it and the
          clients before it are checked, so Ctrl-C keeps them. Checks: a mailbox with
          an error (mailbox_error, critical; "Connected conditionally." is a
          mailbox_warning) or not in a slot (mailbox_not_in_slot, warning); a bounce
          rate at or above 2% (bounce_rate, warning) or 5% (critical); a campaign with
          an error (campaign_error, critical); a reply rate that fell by half against
          the previous period (reply_rate_drop, warning); no running campaign
          (no_running_campaign, info); no webhook (no_webhook, info); a client that
          could not be read (unreadable, critical). Where you can act, the detail says
          how: reconnect the mailbox in Woodpecker, or the command that resumes a
          paused or stopped campaign once fixed.

          --severity warning keeps the warnings and critical problems; --check
          mailbox_error,bounce_rate keeps those checks; the summary says how many others
          were left out, and --fail-on judges only the problems kept. --columns can add
          the owner column (the client's owner, from the company list).

          Inactive clients are not checked (their accounts cannot be read; --inactive
          is refused); one named with --company or --file is named under "Not checked"
          on the --html page and in --json's "not_checked", and makes the exit 5 once
          the report is printed, unless problems make it 7. Without targets every
          active client is checked. A summary goes to stderr. --limit N checks the
          first N. --json prints the whole report by severity: {"period",
          "companies_checked", "problems"}, and "not_checked" when a client named was
          not: [{"company_id", "name", "reason": "inactive"}]. Ctrl-C prints the report
          of the clients checked so far (--json adds "interrupted": true; --html writes
          the page of those, marked interrupted, or nothing when none was checked),
          exit 130.

          By default health fails on critical problems: it exits 7 when it finds one
          (--fail-on critical), after printing the whole report, so \`set -e\` scripts stop
          and cron mails the report. Exit 7 comes before any other outcome, so in cron
          \`case $? in 7)\` always means problems were found; only an --html file that
          could not be written makes it 1. --fail-on none exits 0 whatever it finds;
          --fail-on warning or info is stricter.

          Each run is recorded in the local history (history.db; see \`agency history\`)
          and compared with each client's latest earlier run of the same period length:
          the since column says "new", or since when (UTC) the problem has been there;
          the problems of that run that are gone are listed as resolved (on a terminal a
          table after the problems, piped one "resolved:" line each on stderr; --json:
          "resolved", and each problem's "new" and "first_seen"). --new prints only the
          new problems, and --fail-on then judges only those, so that cron mails what
          changed. --no-history (or AGENCY_NO_HISTORY=1) leaves the run out: no memory,
          no record. A history that cannot be read or written is a warning; the report
          is printed all the same.
        `,
        examples: `
          $ agency health
          $ agency health --fail-on none   # exit 0 whatever it finds
          $ agency health --fail-on warning --html health.html
          $ agency health --company "Acme Ltd" --from 2026-05-01 --to 2026-05-31
          $ agency health --severity warning --columns company_id,name,owner,check,detail
          $ agency health --check mailbox_error,bounce_rate
          $ agency health --json | jq -r '.problems[] | select(.check == "bounce_rate") | .name'
          $ agency health --new --fail-on warning   # cron: only what is new since the last run
        `,
      }),
    );

export type HealthOptions = OptionsOf<typeof configure>;

const SEVERITY_STYLE: Record<Severity, (chalk: ChalkInstance) => (text: string) => string> = {
  critical: (chalk) => chalk.red.bold,
  warning: (chalk) => chalk.yellow,
  info: (chalk) => chalk.cyan,
};

const columns: Column<Problem>[] = [
  { header: 'company', name: 'company_id', value: (p) => p.company_id, kind: 'id' },
  { header: 'name', value: (p) => p.name },
  // From the company list: read for named clients only when this column is asked for.
  { header: 'owner', value: (p) => p.owner, kind: 'email', priority: 2, optional: true },
  {
    header: 'severity',
    value: (p) => p.severity,
    // One word that says how bad: never cut, never hidden.
    kind: 'count',
    priority: 0,
    style: (value, chalk) => SEVERITY_STYLE[value as Severity]?.(chalk),
  },
  // The check names the kind of problem (what --json and scripts select on): kept on a narrow
  // terminal, wrapped at its underscores (`no_running_` / `campaign`) before the detail is.
  { header: 'check', value: (p) => p.check, kind: 'text', priority: 1 },
  { header: 'detail', value: (p) => p.detail, kind: 'problem' },
];

/** With the history: "new", or since when (UTC, to the minute) the problem has been there. */
const sinceColumn: Column<Problem> = {
  header: 'since',
  name: 'first_seen',
  value: (p) => (p.new ? 'new' : p.first_seen?.slice(0, 16).replace('T', ' ')),
  kind: 'count',
  priority: 1,
  style: (value, chalk) => (value === 'new' ? chalk.bold : undefined),
};

/** The problems' columns: the since column before the detail when the run uses the history. */
function problemColumns(history: boolean): Column<Problem>[] {
  return history ? [...columns.slice(0, -1), sinceColumn, ...columns.slice(-1)] : columns;
}

const resolvedColumns: Column<ResolvedProblem>[] = [
  { header: 'company', name: 'company_id', value: (p) => p.company_id, kind: 'id' },
  { header: 'name', value: (p) => p.name },
  { header: 'check', value: (p) => p.check, kind: 'text', priority: 1 },
  { header: 'detail', value: (p) => p.detail, kind: 'problem' },
];

export async function health(rt: Runtime, opts: HealthOptions): Promise<void> {
  if (opts.inactive) {
    throw new UsageError(
      "health checks active clients only: an inactive client's mailboxes, campaigns and webhooks " +
        'cannot be read (the service answers 409).',
      { hint: `For their sending figures: ${command('deliverability --inactive')}` },
    );
  }
  const { parsePeriod } = await import('../../input/period.js');
  const { clientSelection } = await import('../../fleet/clients.js');
  const { optionalPositiveInt, parseConcurrency } = await import('../../input/parse.js');
  const { rowStream } = await import('../../output/row-stream.js');
  const period = parsePeriod(opts);
  const concurrency =
    opts.concurrency === undefined ? DEFAULT_CONCURRENCY : parseConcurrency(opts.concurrency);
  const limit = optionalPositiveInt(opts.limit, option('limit'));
  const filter = { failOn: opts.failOn, severity: opts.severity, checks: parseChecks(opts.check) };
  if (opts.html !== undefined) {
    const { checkOutputFile } = await import('../../input/output-file.js');
    await checkOutputFile(option('html'), opts.html, 'health.html');
  }
  const historyPath = historyFor(rt, opts);
  if (opts.new && historyPath === undefined) {
    throw new UsageError(
      '--new compares with the history, which this run leaves out (--no-history or AGENCY_NO_HISTORY).',
    );
  }
  const shown = problemColumns(historyPath !== undefined);
  const rows = rowStream(rt.out, shown);
  const owners = rt.out.columns(shown).some((c) => c.header === 'owner');
  const selection = clientSelection(await readClientTargets(rt, opts));
  const { runHealth, writeHealthHtml } = await import('./report.js');
  const { healthReport } = await import('../../fleet/health-report.js');
  const history =
    historyPath === undefined ? undefined : await healthHistory(rt, historyPath, period, opts.new === true);
  const run = await runHealth(rt, selection, period, {
    concurrency,
    limit,
    rows,
    filter,
    owners,
    memory: history?.memory,
  });
  const report = healthReport(run, filter);

  if (rt.out.json) rt.out.jsonValue(healthJson(report, (problems) => rt.out.fields(problems, shown)));
  else if (rows.streaming) await rows.end();
  else await rt.out.list(report.problems, shown);
  if (!rt.out.json && report.memory) await printResolved(rt, report.memory.resolved);
  if (history && report.memory?.record) await history.record(report.memory.record);
  if (report.interrupted) {
    // The page of the clients checked so far, marked so (as --json's "interrupted": true).
    if (opts.html !== undefined) await writeHealthHtml(rt, report, opts.html);
    const { listedWhere } = await import('../../output/summary.js');
    const { clientsDone, of } = report.interrupted;
    const found =
      clientsDone === 0
        ? ''
        : report.problems.length === 0
          ? '; no problem found in them'
          : `; the problems found are ${listedWhere(rt.terminal.stdoutIsTTY)}`;
    throw new PartialFailureError(`Interrupted after ${clientsDone} ${of}${found}.`, ExitCode.interrupted);
  }
  rt.out.info(report.summary);
  const { verdict } = report;
  if (opts.html !== undefined) {
    // A page that could not be written is exit 1, whatever was found: the verdict is said first.
    await writeHealthHtml(rt, report, opts.html).catch((error: unknown) => {
      if (verdict.exit !== 0) rt.out.info(verdict.message);
      throw error;
    });
  }
  if (verdict.exit === 7) throw new OutcomeExit(verdict.message, ExitCode.problemsFound);
  if (verdict.exit === 5) throw new PartialFailureError(verdict.message, ExitCode.conflict, 409);
}

/** --json: the contract's object; `fields` applies --columns to the problems. */
function healthJson(report: HealthReport, fields: (problems: readonly Problem[]) => readonly unknown[]) {
  return {
    period: report.period,
    companies_checked: report.companiesChecked,
    problems: fields(report.problems),
    // With the history: the problems of the clients' earlier runs that this run no longer found.
    ...(report.memory ? { resolved: report.memory.resolved } : {}),
    // Only when there are any: the clients named that could not be checked, so a kept report does not
    // read as "all is well" for them.
    ...(report.notChecked.length > 0 ? { not_checked: report.notChecked } : {}),
    // Only when Ctrl-C (or a closed pipe) stopped the run: the report covers the clients checked so far.
    ...(report.interrupted ? { interrupted: true as const } : {}),
  };
}

/** Clients read at once: each has its own account, and health reads only three lists per client. */
export const DEFAULT_CONCURRENCY = 8;

/**
 * The history's part: the memory of each client's latest earlier run (read before the checks, so that
 * piped rows are marked as they come), and the recording of this run once it is complete. The store
 * never fails the command: without it every problem is new and the run is not recorded.
 */
async function healthHistory(rt: Runtime, file: string, period: Period, onlyNew: boolean) {
  const { coveredDays, periodDays } = await import('../../input/period.js');
  const { readStore, changeStore } = await import('../../history/store.js');
  const { loadHealthMemory, recordHealthRun } = await import('../../history/runs.js');
  const { currentAgency, tolerated } = await import('../../history/record.js');
  const { VERSION } = await import('../../version.js');
  const covered = coveredDays(period);
  const at = new Date().toISOString();
  const agency = await tolerated(rt, () => currentAgency(rt));
  const clients =
    agency &&
    (await tolerated(rt, () => readStore(file, (db) => loadHealthMemory(db, agency, periodDays(covered)))));
  return {
    memory: { clients: clients ?? new Map(), at, onlyNew },
    async record(run: NonNullable<NonNullable<HealthReport['memory']>['record']>) {
      if (!agency || !clients) return;
      const info = { at, period: covered, version: VERSION };
      await tolerated(rt, () =>
        changeStore(file, (db) => recordHealthRun(db, agency, info, run.checked, run.problems)),
      );
    },
  };
}

/** On a terminal, a table of what was resolved; piped (TSV, CSV), one line each on stderr. */
async function printResolved(rt: Runtime, resolved: readonly ResolvedProblem[]): Promise<void> {
  if (resolved.length === 0) return;
  if (rt.terminal.stdoutIsTTY && !rt.out.options.csv && rt.out.options.columns === undefined) {
    rt.out.line('');
    rt.out.line(`Resolved since the last run (${resolved.length}):`);
    await rt.out.list(resolved, resolvedColumns);
    return;
  }
  for (const p of resolved)
    rt.out.info(`resolved: ${p.company_id} ${JSON.stringify(p.name)} ${p.check}: ${p.detail}`);
}

export function define(command: Command, run: Run): void {
  configure(command).action(run(health));
}
