/**
 * `agency report [targets] [--from D] [--to D] [--by campaign|client] [--html FILE]`: what each client
 * got. Per client, the service's campaign report of the period (asked for, then read until ready),
 * summed per campaign (--by campaign) or per client (--by client, the billing view), with the rates
 * computed from the counts. The work is in ./run.ts; the arithmetic in src/fleet/report.ts.
 */
import { type Command, Option } from '@commander-js/extra-typings';
import { UsageError } from '../../errors.js';
import { historyFor, NO_HISTORY_OPTION } from '../../history/record.js';
import type { Runtime } from '../../runtime.js';
import { command, option } from '../../terms.js';
import { addClientTargets, addPeriod, readClientTargets } from '../client-targets.js';
import { helpText, type OptionsOf, oneOf, type Run } from '../command.js';
import { REPORT_BY, type ReportBy } from './columns.js';

const configure = (command: Command) =>
  addPeriod(addClientTargets(command, { inactive: 'refused' }), {
    from: '29 days before today, UTC',
    to: 'today, UTC',
  })
    .addOption(
      oneOf(
        new Option('--by <what>', 'one row per campaign, or per client (billing)').choices(REPORT_BY),
      ).default('campaign' as ReportBy),
    )
    .option('--html <file>', 'also write a page to send to the client(s): tiles, tables, charts')
    .option('--concurrency <n>', 'clients reported at once (default 8)')
    .option('--wait <seconds>', "how long a client's report may take to be ready (default 120)")
    .option(...NO_HISTORY_OPTION)
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints one row per campaign: company_id, name, campaign_id, campaign, status,
          contacted, delivered, opened, replied, interested, maybe_later, not_interested,
          bounced, opt_out, open_rate, reply_rate, bounce_rate. --by client prints one row
          per client instead (the billing view): company_id, name, campaigns, the same
          counts and interested_rate; a client that sent nothing is a row of zeros. Rates
          come from the counts: bounce = bounced / contacted, open = opened / delivered,
          reply = replied / delivered, interested = interested / delivered; percentages
          in a table, numbers from 0 to 1 in TSV, CSV and --json. A campaign's counts are
          the sums of its sending mailboxes' rows.

          The period: the service makes these reports for the last 30 days only, counted
          in UTC with today included; the default is those 30 days. An earlier --from is
          refused (deliverability covers longer periods, as totals).

          Without targets every active client is reported, --concurrency at once (default
          8). Piped, each client's rows are printed as soon as it and the clients before
          it are done, in client order, then by campaign id. A client whose report could
          not be made (it failed, was not ready within --wait, or a request failed) is
          named on stderr and in --json's "failed"; the others are complete, and the exit
          code is the failures' shared code (else 1). Ctrl-C prints what is complete and
          names the clients not done (exit 130). --json prints {"period", "clients":
          [{"company_id", "name", "totals", "campaigns"}], "failed"}.

          --html writes a page to send: each client's name, your agency's name, the
          period, its figures, a table and a chart per campaign; with several clients, a
          summary first and then each client on pages of its own when printed.

          Each complete run's totals per client are recorded in the local history
          (history.db; \`agency history report\` reads them, month after month, beyond the
          service's 30 days); --no-history (or AGENCY_NO_HISTORY=1) leaves the run out.
        `,
        examples: `
          $ agency report --company "Acme Ltd" --html acme.html
          $ agency report --by client --csv > results.csv
          $ agency report --from 2026-05-01 --to 2026-05-15 --by client
          $ agency report --json | jq -r '.clients[] | [.name, .totals.interested] | @tsv'
        `,
      }),
    );

export type ReportCommandOptions = OptionsOf<typeof configure>;

/** Clients reported at once: each has its own account and its report is mostly waited for. */
export const DEFAULT_CONCURRENCY = 8;

export async function report(rt: Runtime, opts: ReportCommandOptions): Promise<void> {
  if (opts.inactive) {
    throw new UsageError(
      "report covers active clients only: an inactive client's campaigns cannot be read.",
      {
        hint: `For their sending figures: ${command('deliverability')} ${option('inactive')}`,
      },
    );
  }
  const { reportPeriod } = await import('../../input/report-period.js');
  const { clientSelection } = await import('../../fleet/clients.js');
  const { optionalPositiveInt, parseConcurrency, parsePositiveInt } = await import('../../input/parse.js');
  const period = reportPeriod(opts);
  const concurrency =
    opts.concurrency === undefined ? DEFAULT_CONCURRENCY : parseConcurrency(opts.concurrency);
  const limit = optionalPositiveInt(opts.limit, option('limit'));
  const waitMs = opts.wait === undefined ? undefined : parsePositiveInt(opts.wait, option('wait')) * 1000;
  if (opts.html !== undefined) {
    const { checkOutputFile } = await import('../../input/output-file.js');
    await checkOutputFile(option('html'), opts.html, 'report.html');
  }
  const selection = clientSelection(await readClientTargets(rt, opts));
  const { runReport } = await import('./run.js');
  await runReport(rt, {
    selection,
    period,
    asked: { from: opts.from, to: opts.to },
    by: opts.by,
    concurrency,
    limit,
    waitMs,
    html: opts.html,
    history: historyFor(rt, opts),
  });
}

export function define(command: Command, run: Run): void {
  configure(command).action(run(report));
}
