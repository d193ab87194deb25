/**
 * `agency history report|deliverability [targets] [--since D]`: the totals per client and period that
 * earlier runs of `report` (the billing view) and `deliverability` stored, month after month, beyond
 * the service's 30 days.
 */
import type { Command } from '@commander-js/extra-typings';
import { ratio } from '../../fleet/deliverability.js';
import type { StoredTotals } from '../../history/queries.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { helpText, type Run } from '../command.js';
import { COUNTER_PRIORITY, type CounterName } from '../deliverability/counters.js';
import { FIGURE_PRIORITY } from '../report/columns.js';
import { addHistoryTargets, type HistoryTargetFlags, nothingRecorded, readHistory } from './shared.js';

type Which = 'report' | 'deliverability';

const COUNTS: Record<Which, readonly string[]> = {
  report: ['campaigns', 'contacted', 'delivered', 'opened', 'replied', 'interested', 'bounced', 'opt_out'],
  // The stored columns, named as `deliverability`'s counters are (its table's priorities apply to them).
  deliverability: ['sent', 'delivered', 'opened', 'replied', 'bounced'] satisfies CounterName[],
};

/** The rates, computed from the stored counts as the command computes them (null: nothing to divide by). */
const RATES: Record<Which, readonly [name: string, top: string, bottom: string][]> = {
  report: [
    ['reply_rate', 'replied', 'delivered'],
    ['bounce_rate', 'bounced', 'contacted'],
  ],
  deliverability: [
    ['reply_rate', 'replied', 'delivered'],
    ['bounce_rate', 'bounced', 'sent'],
  ],
};

export function defineResultsHistory(history: Command, run: Run, which: Which): void {
  addHistoryTargets(history.command(which))
    .description(`stored ${which} totals per client and period`)
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints one row per client and period that a run of \`agency ${which}\` recorded (the
          latest run of that period): company_id, name, from, to, ${COUNTS[which].join(', ')},
          reply_rate, bounce_rate (rates from the counts; percentages in a table, numbers from
          0 to 1 in TSV, CSV and --json) and recorded_at (UTC). Oldest period first.
          --since D keeps the periods that end on or after that day. Reads only the local
          history (history.db), for the agency of the current profile.
        `,
        examples: `
          $ agency history ${which}
          $ agency history ${which} --company "Acme Ltd" --since 2026-01-01 --csv > acme.csv
        `,
      }),
    )
    .action(run((rt: Runtime, opts: HistoryTargetFlags) => resultsHistory(rt, opts, which)));
}

type StoredRow = Record<string, number | string | null> &
  Pick<StoredTotals, 'company_id' | 'name' | 'from' | 'to' | 'recorded_at'>;

function columnsFor(which: Which, table: boolean): Column<StoredRow>[] {
  const rate = (value: unknown) =>
    typeof value === 'number' && table
      ? `${(value * 100).toFixed(1)}%`
      : value === null && table
        ? ''
        : value;
  return [
    { header: 'company', name: 'company_id', value: (r) => r.company_id, kind: 'id' },
    { header: 'name', value: (r) => r.name },
    // A period is named by its last day on a narrow screen: the rates outlive its first (mostly 29 days
    // before), as they are what a row of history is read for.
    { header: 'from', value: (r) => r.from, kind: 'count', priority: 2 },
    { header: 'to', value: (r) => r.to, kind: 'count', priority: 0 },
    ...COUNTS[which].map(
      (c): Column<StoredRow> => ({
        header: c.replace('_', ' '),
        name: c,
        value: (r) => r[c],
        kind: 'count',
        priority: priorityOf(which, c, 3),
      }),
    ),
    ...RATES[which].map(
      ([name]): Column<StoredRow> => ({
        header: name === 'reply_rate' ? 'reply %' : 'bounce %',
        name,
        value: (r) => rate(r[name]),
        kind: 'count',
        priority: priorityOf(which, name, 1),
      }),
    ),
    {
      header: 'recorded',
      name: 'recorded_at',
      value: (r) => (table ? r.recorded_at.slice(0, 16).replace('T', ' ') : r.recorded_at),
      kind: 'count',
      priority: 4,
    },
  ];
}

/** The stored totals give way as the command's own table does (`report`: billed figures last). */
function priorityOf(which: Which, name: string, otherwise: number): number {
  const priorities: Readonly<Record<string, number>> =
    which === 'report' ? FIGURE_PRIORITY : COUNTER_PRIORITY;
  return priorities[name] ?? otherwise;
}

async function resultsHistory(rt: Runtime, opts: HistoryTargetFlags, which: Which): Promise<void> {
  const table = rt.out.streams.stdoutIsTTY && !rt.out.options.csv && !rt.out.json;
  const shown = rt.out.columns(columnsFor(which, table));
  const queries = await import('../../history/queries.js');
  const read = which === 'report' ? queries.reportHistory : queries.deliverabilityHistory;
  const stored = await readHistory(rt, opts, (db, filter) => filter && read(db, filter));
  if (stored === undefined) return nothingRecorded(rt, `run \`agency ${which}\` to record a run.`);
  const rows: StoredRow[] = stored.map((s) => {
    const row: StoredRow = { ...s };
    for (const [name, top, bottom] of RATES[which]) row[name] = ratio(Number(s[top]), Number(s[bottom]));
    return row;
  });
  await rt.out.list(rows, shown, {
    empty: `No ${which} run recorded for these clients${opts.since ? ` since ${opts.since}` : ''}.`,
    noun: ['row', 'rows'],
  });
}
