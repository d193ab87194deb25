/**
 * `agency deliverability [--from D] [--to D] [targets]`: each client's sent, delivered, opened,
 * replied and bounced emails over a period, with the reply and bounce rates, from the service's
 * agency-wide listing (GET /v2/agency/deliverability), against the period of the same length before.
 */
import type { Command } from '@commander-js/extra-typings';
import type { PeriodPair } from '../../api/types.js';
import type { ClientSelection } from '../../fleet/clients.js';
import type { DeliverabilityRow } from '../../fleet/deliverability.js';
import { change, percent } from '../../fleet/deliverability.js';
import type { Period } from '../../input/period.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { addClientTargets, type ClientTargetFlags, readClientTargets } from '../client-targets.js';
import { helpText, type Run } from '../command.js';

export function define(command: Command, run: Run): void {
  addClientTargets(command)
    .option('--from <date>', 'first day of the period, YYYY-MM-DD (default: 30 days ago)')
    .option('--to <date>', 'last day of the period, YYYY-MM-DD (default: today)')
    .addHelpText(
      'after',
      helpText(
        'Prints one row per client: id, name, emails sent, delivered, opened, replied and\n' +
          'bounced in the period, the reply rate (replies / delivered) and the bounce rate\n' +
          '(bounces / sent). On a wide terminal the change against the previous period of\n' +
          'the same length stands beside sent, replied and bounced (+12%). Without targets,\n' +
          'the clients the service lists: those with no activity are left out; a client\n' +
          "you name is a row of zeros instead. --json prints the service's\n" +
          '{current_period, previous_period} pairs and the rates as numbers from 0 to 1\n' +
          '(null when there is nothing to divide by).',
        [
          'agency deliverability',
          'agency deliverability --from 2026-05-01 --to 2026-05-31 --company "Acme Ltd"',
          "agency deliverability --json | jq -r '.[] | select(.bounce_rate >= 0.02) | .name'",
        ],
      ),
    )
    .action(run(deliverability));
}

export interface DeliverabilityOptions extends ClientTargetFlags, Period {}

const current = (pair: PeriodPair) => pair.current_period;

/** The contract's fields; a terminal also gets the change columns, hidden first when narrow. */
const columns: Column<DeliverabilityRow>[] = [
  { header: 'id', value: (r) => r.id },
  { header: 'name', value: (r) => r.name },
  { header: 'sent', field: 'emails_sent', value: (r) => current(r.emails_sent), kind: 'count', priority: 1 },
  {
    header: 'delivered',
    field: 'delivered_emails',
    value: (r) => current(r.delivered_emails),
    kind: 'count',
    priority: 4,
  },
  { header: 'opened', field: 'views', value: (r) => current(r.views), kind: 'count', priority: 4 },
  { header: 'replied', field: 'replies', value: (r) => current(r.replies), kind: 'count', priority: 2 },
  { header: 'bounced', field: 'bounces', value: (r) => current(r.bounces), kind: 'count', priority: 2 },
  { header: 'reply %', name: 'reply_rate', value: (r) => percent(r.reply_rate), kind: 'count', priority: 1 },
  {
    header: 'bounce %',
    name: 'bounce_rate',
    value: (r) => percent(r.bounce_rate),
    kind: 'count',
    priority: 1,
  },
];

/** The change against the previous period ("+12%"): on a terminal only, beside its counter. */
const changeColumns: Column<DeliverabilityRow>[] = [
  {
    header: 'sent ±',
    name: 'sent_change',
    field: 'emails_sent',
    value: (r) => change(r.emails_sent),
    kind: 'count',
    priority: 3,
  },
  {
    header: 'replied ±',
    name: 'replied_change',
    field: 'replies',
    value: (r) => change(r.replies),
    kind: 'count',
    priority: 5,
  },
  {
    header: 'bounced ±',
    name: 'bounced_change',
    field: 'bounces',
    value: (r) => change(r.bounces),
    kind: 'count',
    priority: 5,
  },
];

/** On a terminal each change column stands right after the counter it compares. */
function terminalColumns(): Column<DeliverabilityRow>[] {
  const after: Record<string, Column<DeliverabilityRow>> = {
    sent: changeColumns[0] as Column<DeliverabilityRow>,
    replied: changeColumns[1] as Column<DeliverabilityRow>,
    bounced: changeColumns[2] as Column<DeliverabilityRow>,
  };
  return columns.flatMap((c) => (after[c.header] ? [c, after[c.header] as Column<DeliverabilityRow>] : [c]));
}

export async function deliverability(rt: Runtime, opts: DeliverabilityOptions): Promise<void> {
  const { parsePeriod } = await import('../../input/period.js');
  const { clientSelection } = await import('../../fleet/clients.js');
  const period = parsePeriod(opts);
  const table = rt.out.streams.stdoutIsTTY && !rt.out.options.csv;
  const shown = rt.out.columns(table ? terminalColumns() : columns);
  const selection = clientSelection(await readClientTargets(rt, opts));
  const rows = await deliverabilityRows(rt, selection, period);
  await rt.out.list(rows, shown, {
    empty: 'No client sent anything in this period.',
    noun: ['client', 'clients'],
  });
}

/** The rows of `deliverability` (also what an assistant's tool gets): targets resolved, zeros added. */
export async function deliverabilityRows(
  rt: Runtime,
  selection: ClientSelection,
  period: Period,
): Promise<DeliverabilityRow[]> {
  const { selectClients } = await import('../../fleet/clients.js');
  const { rowsFor } = await import('../../fleet/deliverability.js');
  const { clients, items } = await selectClients(rt.api(), selection, period, 'listing');
  return rowsFor(clients, items);
}
