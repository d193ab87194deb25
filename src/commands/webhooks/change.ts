/**
 * What `webhooks subscribe` and `webhooks unsubscribe` share: the options (events, URL, targets), the
 * local checks made before any request, and the rows they print. The fleet logic is in
 * src/fleet/webhook-changes.ts.
 */
import { type Command, Option } from '@commander-js/extra-typings';
import { ExitCode, PartialFailureError, sharedStatus } from '../../errors.js';
import { rowsFailed } from '../../fleet/failures.js';
import { CompanyDirectory } from '../../fleet/resolve.js';
import { selectTargets } from '../../fleet/targets.js';
import { changeWebhooks, type WebhookAction, type WebhookRow } from '../../fleet/webhook-changes.js';
import { checkEvent, checkWebhookUrl, WEBHOOK_EVENTS } from '../../fleet/webhook-input.js';
import { DEFAULT_CONCURRENCY, parseConcurrency } from '../../input/parse.js';
import { readInput } from '../../input/read.js';
import { failureReason, groupFailures, serviceDetail } from '../../output/summary.js';
import { cellText } from '../../output/text.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { collectValues, helpText, type Run, suggestValues } from '../command.js';

export interface WebhookChangeOptions {
  event: string[];
  url: string;
  company?: string[] | undefined;
  file?: string | undefined;
  all?: boolean | undefined;
  dryRun?: boolean | undefined;
  concurrency?: string | undefined;
}

export function defineChange(
  webhooks: Command,
  run: Run,
  action: WebhookAction,
  text: { description: string; prints: string; examples: readonly string[] },
): void {
  webhooks
    .command(action)
    .description(text.description)
    .addOption(
      suggestValues(
        new Option('--event <event>', 'event name, e.g. prospect_replied (repeatable)')
          .argParser(collectValues)
          .makeOptionMandatory(),
        WEBHOOK_EVENTS,
      ),
    )
    .requiredOption('--url <url>', 'the http(s) address that receives the events')
    .option('--company <company>', 'a client company: id or exact name (repeatable)', collectValues)
    .option('--file <path>', "company ids or exact names, one per line ('-' = stdin)")
    .option('--all', 'every active company of the agency')
    .option('--dry-run', 'read and show what would change; send nothing')
    .option('--concurrency <n>', `client accounts worked on at once (default ${DEFAULT_CONCURRENCY})`)
    .addHelpText('after', helpText(text.prints, text.examples))
    .action(run((rt, opts: WebhookChangeOptions) => changeWebhooksCommand(rt, action, opts)));
}

async function changeWebhooksCommand(
  rt: Runtime,
  action: WebhookAction,
  opts: WebhookChangeOptions,
): Promise<void> {
  // Every local check comes before the first request (an unknown --columns name too).
  rt.out.columns(ROW_COLUMNS);
  const events: string[] = [];
  for (const value of opts.event) {
    const { event, warning } = checkEvent(value);
    if (warning) rt.out.warn(warning);
    if (!events.includes(event)) events.push(event);
  }
  const url = checkWebhookUrl(opts.url);
  const concurrency = parseConcurrency(opts.concurrency);
  const file = opts.file === undefined ? undefined : await readInput(opts.file, rt.terminal, rt.ctx.signal);

  // A write in flight is not aborted by Ctrl-C (its outcome is reported); no new one starts.
  const api = rt.api({ connections: concurrency + 1, interruptible: false });
  const targets = await selectTargets(
    { company: opts.company, file, all: opts.all },
    new CompanyDirectory(api),
  );
  const outcome = await changeWebhooks(api, {
    action,
    events,
    url,
    targets,
    dryRun: opts.dryRun,
    concurrency,
    signal: rt.ctx.signal,
  });
  await printRows(rt, outcome.rows);
  rt.out.info(summary(outcome.rows, opts.dryRun === true));
  if (outcome.interrupted) {
    throw new PartialFailureError('Interrupted; the rows above are what was done.', ExitCode.interrupted);
  }
  const failedRows = outcome.rows.filter((r) => r.result === 'failed');
  if (failedRows.length > 0) {
    const error = rowsFailed(failedRows.length, outcome.rows.length, outcome.failureCodes, 'row');
    // Grouped by reason: 111 refusals read as one line with the companies under it (issue 14).
    const grouped = groupFailures(
      failedRows.map((r) => ({
        subject: r.company_id ?? 'this account',
        reason: failureReason(r.error ?? { status: null, message: 'failed' }),
      })),
    );
    throw new PartialFailureError(
      [error.message, ...grouped.map((line) => `  ${line}`)].join('\n'),
      error.exitCode,
      sharedStatus(failedRows.map((r) => r.error?.status ?? null)),
    );
  }
}

/**
 * The company, the result and the reason are what a reader came for; the event and the URL (the same
 * on most rows, and said in the command line) give way on a narrow terminal. On a terminal the
 * reason is the service's own words; --json, --csv and piped rows keep the whole message.
 */
const ROW_COLUMNS: Column<WebhookRow>[] = [
  {
    header: 'company',
    name: 'company_id',
    aliases: ['company'],
    value: (r) => r.company_id ?? '(this account)',
    kind: 'id',
  },
  { header: 'event', value: (r) => r.event, kind: 'name', priority: 2 },
  { header: 'target url', value: (r) => r.target_url, kind: 'email', priority: 3 },
  // A result is one word (would-subscribe): kept whole ('count' is never cut).
  { header: 'result', value: (r) => r.result, priority: 0, kind: 'count' },
  {
    header: 'reason',
    name: 'error',
    aliases: ['reason'],
    value: (r) => r.error?.message,
    kind: 'problem',
  },
];

/**
 * TSV rows have four fields, and a fifth (the reason) on a failed row only (the contract). --columns
 * and --csv choose columns like every list.
 */
async function printRows(rt: Runtime, rows: WebhookRow[]): Promise<void> {
  const { out } = rt;
  if (out.json) return out.jsonList(rows, ROW_COLUMNS);
  const chosen = out.options.columns !== undefined || out.options.csv === true;
  if (!rt.terminal.stdoutIsTTY && !chosen) {
    for (const row of rows) {
      const fields = [row.company_id ?? '', row.event, row.target_url, row.result];
      if (row.error) fields.push(row.error.message);
      out.out(`${fields.map(cellText).join('\t')}\n`);
    }
    return;
  }
  // Off a terminal the key's own account has an empty company id, as in the plain rows.
  const all = rt.terminal.stdoutIsTTY
    ? ROW_COLUMNS.map((c) => (c.name === 'error' ? { ...c, value: shortReason } : c))
    : ROW_COLUMNS.map((c, i) => (i === 0 ? { ...c, value: (r: WebhookRow) => r.company_id } : c));
  const anyFailed = rows.some((r) => r.error);
  await out.list(rows, anyFailed || chosen ? all : all.slice(0, -1));
}

function shortReason(row: WebhookRow): string | undefined {
  return row.error && (serviceDetail(row.error.message) ?? row.error.message);
}

function summary(rows: readonly WebhookRow[], dryRun: boolean): string {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.result, (counts.get(row.result) ?? 0) + 1);
  const parts = [...counts].map(([result, n]) => `${n} ${result}`);
  const text = parts.length ? parts.join(', ') : 'nothing to do';
  return dryRun ? `Dry run: ${text}. Nothing was sent.` : `${text[0]?.toUpperCase()}${text.slice(1)}.`;
}
