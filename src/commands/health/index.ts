/**
 * `agency health [targets] [--from D] [--to D] [--fail-on S] [--html FILE]`: which clients need
 * attention. The period's deliverability listing, then each active client's mailboxes, campaigns and
 * webhooks, against the checks of src/fleet/health-checks.ts; one row per problem, worst first.
 * Exit 7 when a problem at or above --fail-on was found; the report is printed in full either way.
 */
import { type Command, Option } from '@commander-js/extra-typings';
import type { ChalkInstance } from 'chalk';
import { ExitCode, PartialFailureError, UsageError } from '../../errors.js';
import { type Problem, SEVERITIES, type Severity } from '../../fleet/health-checks.js';
import type { Period } from '../../input/period.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { addClientTargets, type ClientTargetFlags, readClientTargets } from '../client-targets.js';
import { helpText, oneOf, type Run } from '../command.js';

export function define(command: Command, run: Run): void {
  addClientTargets(command, { inactive: 'refused' })
    .option('--from <date>', 'first day of the period, YYYY-MM-DD (default: 30 days ago)')
    .option('--to <date>', 'last day of the period, YYYY-MM-DD (default: today)')
    .addOption(
      oneOf(
        new Option(
          '--fail-on <severity>',
          'exit 7 when a problem this severe or worse is found; none: never',
        ).choices([...SEVERITIES, 'none']),
      ).default('critical' as FailOn),
    )
    .option('--html <file>', 'also write the report as one self-contained web page')
    .option('--concurrency <n>', 'clients read at once (default 8)')
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints one row per problem: company_id, name, severity, check, detail; on a
          terminal critical first, then warnings, then info, each in client order.
          Piped, each client's rows (worst first) are printed as soon as it and the
          clients before it are checked, so Ctrl-C keeps them. Checks: a mailbox with
          an error (critical; "Connected conditionally." is a warning) or not in a slot
          (warning); a bounce rate at or above 2% (warning) or 5% (critical); a campaign
          with an error (critical); a reply rate that fell by half against the previous
          period (warning); no running campaign (info); no webhook (info); a client that
          could not be read (unreadable, critical). Inactive clients are not checked
          (their accounts cannot be read; --inactive is refused); one named with
          --company or --file is named under "Not checked" on the --html page and in
          --json's "not_checked", and makes the exit 5 once the report is printed.
          Without targets every active client is checked. A summary goes to stderr.
          --limit N checks the first N. --json prints the whole report by severity:
          {"period", "companies_checked", "problems"}, and "not_checked" when a client
          named was not: [{"company_id", "name", "reason": "inactive"}]. Ctrl-C prints
          the report of the clients checked so far (--json adds "interrupted": true;
          --html writes the page of those, marked interrupted, or nothing when none was
          checked), exit 130.

          By default health fails on critical problems: it exits 7 when it finds one
          (--fail-on critical), after printing the whole report, so \`set -e\` scripts stop
          and cron mails the report. --fail-on none exits 0 whatever it finds;
          --fail-on warning or info is stricter.
        `,
        examples: `
          $ agency health
          $ agency health --fail-on none   # exit 0 whatever it finds
          $ agency health --fail-on warning --html health.html
          $ agency health --company "Acme Ltd" --from 2026-05-01 --to 2026-05-31
          $ agency health --json | jq -r '.problems[] | select(.check == "bounce_rate") | .name'
        `,
      }),
    )
    .action(run(health));
}

/** --fail-on: the least severe problem that makes the exit 7, or none. */
export type FailOn = Severity | 'none';

export interface HealthOptions extends ClientTargetFlags, Period {
  failOn: FailOn;
  html?: string | undefined;
  concurrency?: string | undefined;
}

const SEVERITY_STYLE: Record<Severity, (chalk: ChalkInstance) => (text: string) => string> = {
  critical: (chalk) => chalk.red.bold,
  warning: (chalk) => chalk.yellow,
  info: (chalk) => chalk.cyan,
};

const columns: Column<Problem>[] = [
  { header: 'company', name: 'company_id', value: (p) => p.company_id, kind: 'id' },
  { header: 'name', value: (p) => p.name },
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

export async function health(rt: Runtime, opts: HealthOptions): Promise<void> {
  if (opts.inactive) {
    throw new UsageError(
      "health checks active clients only: an inactive client's mailboxes, campaigns and webhooks " +
        'cannot be read (the service answers 409).',
      { hint: 'For their sending figures: agency deliverability --inactive' },
    );
  }
  const { parsePeriod } = await import('../../input/period.js');
  const { clientSelection } = await import('../../fleet/clients.js');
  const { optionalPositiveInt, parseConcurrency } = await import('../../input/parse.js');
  const { rowStream } = await import('../../output/row-stream.js');
  const period = parsePeriod(opts);
  const concurrency =
    opts.concurrency === undefined ? DEFAULT_CONCURRENCY : parseConcurrency(opts.concurrency);
  const limit = optionalPositiveInt(opts.limit, '--limit');
  if (opts.html !== undefined) {
    const { checkOutputFile } = await import('../../input/output-file.js');
    await checkOutputFile('--html', opts.html, 'health.html');
  }
  const rows = rowStream(rt.out, columns);
  const selection = clientSelection(await readClientTargets(rt, opts));
  const { healthReport } = await import('./report.js');
  const report = await healthReport(rt, selection, period, { concurrency, limit, rows });

  if (rt.out.json)
    rt.out.jsonValue({ ...report.json, problems: rt.out.fields(report.json.problems, columns) });
  else if (rows.streaming) await rows.end();
  else await rt.out.list(report.json.problems, columns);
  if (report.interrupted) {
    // The page of the clients checked so far, marked so (as --json's "interrupted": true).
    if (opts.html !== undefined) await report.writeHtml(opts.html);
    throw new PartialFailureError(report.interrupted, ExitCode.interrupted);
  }
  rt.out.info(report.summary);
  if (opts.html !== undefined) await report.writeHtml(opts.html);
  report.failOnInactiveNamed(opts.failOn);
  report.failOn(opts.failOn);
}

/** Clients read at once: each has its own account, and health reads only three lists per client. */
export const DEFAULT_CONCURRENCY = 8;
