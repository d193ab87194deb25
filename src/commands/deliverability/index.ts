/**
 * `agency deliverability [--from D] [--to D] [targets]`: each client's sent, delivered, opened,
 * replied and bounced emails over a period, with the reply and bounce rates, from the service's
 * agency-wide listing (GET /v2/agency/deliverability), against the period of the same length before.
 */
import type { Command } from '@commander-js/extra-typings';
import type { ClientSelection } from '../../fleet/clients.js';
import { historyFor, NO_HISTORY_OPTION } from '../../history/record.js';
import type { Period } from '../../input/period.js';
import { percent, signedCount, signedPercent } from '../../output/figures.js';
import type { Column } from '../../output/writer.js';
import type { DeliverabilityRates, DeliverabilityRow } from '../../reports/deliverability.js';
import type { Runtime } from '../../runtime.js';
import { option } from '../../terms.js';
import { addClientTargets, addPeriod, readClientTargets } from '../client-targets.js';
import { helpText, type OptionsOf, type Run } from '../command.js';
import { COUNTERS } from './counters.js';

const configure = (command: Command) =>
  addPeriod(addClientTargets(command))
    .option(...NO_HISTORY_OPTION)
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints one row per client: id, name, emails sent, delivered, opened, replied and
          bounced in the period, the reply rate (replies / delivered) and the bounce rate
          (bounces / sent). On a wide terminal the change against the previous period of
          the same length (this period's count minus the previous one's: +120) stands
          beside sent, replied and bounced. Tables show rates as percentages; piped (TSV),
          --csv and --json print them as numbers from 0 to 1 (empty, or null in --json,
          when there is nothing to divide by). --columns can add each counter's previous
          value and change (sent_previous, sent_change, ... bounced_change) and the
          rates' (reply_rate_previous, reply_rate_change, bounce_rate_previous,
          bounce_rate_change). Without targets, the clients the service lists: those with
          no activity are left out; a client you name is a row of zeros instead. --json
          prints the service's {current_period, previous_period} pairs with the rates.
          --limit N reports the first N clients (of the listing, or of the targets) and
          reads no page beyond them. Under a table, stderr names the days: 2026-10-26 to
          2026-11-24 (the last 30 days), compared with 2026-09-26 to 2026-10-25.

          Each run's counts per client are recorded in the local history (history.db;
          \`agency history deliverability\` reads them); --no-history (or
          AGENCY_NO_HISTORY=1) leaves the run out.
        `,
        examples: `
          $ agency deliverability
          $ agency deliverability --from 2026-05-01 --to 2026-05-31 --company "Acme Ltd"
          $ agency deliverability --csv --columns id,name,sent,sent_previous,reply_rate,reply_rate_change
          $ agency deliverability --json | jq -r '.[] | select(.bounce_rate >= 0.02) | .name'
        `,
      }),
    );

export type DeliverabilityOptions = OptionsOf<typeof configure>;

const RATES: readonly { header: string; name: 'reply_rate' | 'bounce_rate' }[] = [
  { header: 'reply', name: 'reply_rate' },
  { header: 'bounce', name: 'bounce_rate' },
];

/** Tables show rates as percentages and changes with their sign; TSV and CSV print the numbers. */
function deliverabilityColumns(table: boolean): Column<DeliverabilityRow>[] {
  const counters = COUNTERS.flatMap(({ header, field, priority, change }) => {
    const pair = (r: DeliverabilityRow) => r[field];
    const columns: Column<DeliverabilityRow>[] = [
      { header, field, value: (r) => pair(r).current_period, kind: 'count', priority },
      {
        header: `${header} ±`,
        name: `${header}_change`,
        field,
        value: (r) => {
          const difference = pair(r).current_period - pair(r).previous_period;
          return table ? signedCount(difference) : difference;
        },
        kind: 'count',
        priority: change ?? 5,
        // On a terminal the change of sent, replied and bounced is shown; the others are asked for.
        optional: !table || change === undefined,
      },
      {
        header: `${header} before`,
        name: `${header}_previous`,
        field: `${field}.previous_period`,
        value: (r) => pair(r).previous_period,
        kind: 'count',
        priority: 5,
        optional: true,
      },
    ];
    return columns;
  });
  const rate =
    (name: keyof DeliverabilityRates, shown: (rate: number | null) => string) => (r: DeliverabilityRow) =>
      table ? shown(r[name]) : r[name];
  const rates = RATES.flatMap(({ header, name }): Column<DeliverabilityRow>[] => [
    { header: `${header} %`, name, value: rate(name, percent), kind: 'count', priority: 1 },
    {
      header: `${header} % before`,
      name: `${name}_previous`,
      value: rate(`${name}_previous`, percent),
      kind: 'count',
      priority: 5,
      optional: true,
    },
    {
      header: `${header} % ±`,
      name: `${name}_change`,
      value: rate(`${name}_change`, signedPercent),
      kind: 'count',
      priority: 5,
      optional: true,
    },
  ]);
  return [
    { header: 'id', value: (r) => r.id },
    { header: 'name', value: (r) => r.name },
    ...counters,
    ...rates,
  ];
}

export async function deliverability(rt: Runtime, opts: DeliverabilityOptions): Promise<void> {
  const { comparedPeriods, parsePeriod } = await import('../../input/period.js');
  const { clientSelection } = await import('../../fleet/clients.js');
  const { optionalPositiveInt } = await import('../../input/parse.js');
  const period = parsePeriod(opts);
  const limit = optionalPositiveInt(opts.limit, option('limit'));
  const table = rt.out.streams.stdoutIsTTY && !rt.out.options.csv;
  const shown = rt.out.columns(deliverabilityColumns(table));
  const selection = clientSelection(await readClientTargets(rt, opts));
  const rows = await deliverabilityRows(rt, selection, period, limit);
  await rt.out.list(rows, shown, {
    empty: 'No client sent anything in this period.',
    noun: ['client', 'clients'],
  });
  // Under the table, which days its numbers and ± columns are about (--json stays the contract's array).
  if (table && !rt.out.json) rt.out.info(`${comparedPeriods(period)}.`);
  const file = historyFor(rt, opts);
  if (file !== undefined) await recordDeliverability(rt, file, period, rows);
}

/** The run's counts per client, this period's and the previous one's, into the history. */
async function recordDeliverability(
  rt: Runtime,
  file: string,
  period: Period,
  rows: readonly DeliverabilityRow[],
): Promise<void> {
  const { coveredDays } = await import('../../input/period.js');
  const { recordRun } = await import('../../history/record.js');
  const { recordCounts } = await import('../../history/runs.js');
  const { VERSION } = await import('../../version.js');
  const run = { at: new Date().toISOString(), period: coveredDays(period), version: VERSION };
  const counts = rows.map((r) => ({
    company_id: r.id,
    name: r.name,
    sent: r.emails_sent.current_period,
    delivered: r.delivered_emails.current_period,
    opened: r.views.current_period,
    replied: r.replies.current_period,
    bounced: r.bounces.current_period,
    sent_previous: r.emails_sent.previous_period,
    delivered_previous: r.delivered_emails.previous_period,
    opened_previous: r.views.previous_period,
    replied_previous: r.replies.previous_period,
    bounced_previous: r.bounces.previous_period,
  }));
  await recordRun(rt, file, (db, agency) => recordCounts(db, agency, 'deliverability', run, counts));
}

/** The rows of `deliverability` (also what an assistant's tool gets): targets resolved, zeros added. */
export async function deliverabilityRows(
  rt: Runtime,
  selection: ClientSelection,
  period: Period,
  limit?: number,
): Promise<DeliverabilityRow[]> {
  const { selectClients } = await import('../../fleet/clients.js');
  const { rowsFor } = await import('../../fleet/deliverability.js');
  const { clients, items } = await selectClients(rt.api(), selection, period, 'listing', limit);
  return rowsFor(clients, items);
}

export function define(command: Command, run: Run): void {
  configure(command).action(run(deliverability));
}
