/**
 * What `webhooks subscribe` and `webhooks unsubscribe` share: the options (events, URL, targets), the
 * local checks made before any request, and the rows they print. The fleet logic is in
 * src/fleet/webhook-changes.ts.
 */
import type { Command } from '@commander-js/extra-typings';
import { changeWebhooks, type WebhookAction, type WebhookRow } from '../../fleet/webhook-changes.js';
import { checkWebhookUrl } from '../../fleet/webhook-input.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { helpText, type Run } from '../command.js';
import {
  addTargetOptions,
  checkEvents,
  companyColumn,
  eventOption,
  openTargets,
  printFleetRows,
  summarizeResults,
  type TargetFlags,
  throwIfFailed,
  withReason,
} from './fleet.js';

interface WebhookChangeOptions extends TargetFlags {
  event: string[];
  url: string;
  dryRun?: boolean | undefined;
}

export function defineChange(
  webhooks: Command,
  run: Run,
  action: WebhookAction,
  text: { description: string; prints: string; examples: readonly string[] },
): void {
  const command = webhooks
    .command(action)
    .description(text.description)
    .addOption(eventOption('event name, e.g. prospect_replied (repeatable)').makeOptionMandatory())
    .requiredOption('--url <url>', 'the http(s) address that receives the events');
  addTargetOptions(command)
    .option('--dry-run', 'read and show what would change; send nothing')
    .addHelpText('after', helpText(text.prints, text.examples))
    .action(run((rt, opts: WebhookChangeOptions) => changeWebhooksCommand(rt, action, opts)));
}

async function changeWebhooksCommand(
  rt: Runtime,
  action: WebhookAction,
  opts: WebhookChangeOptions,
): Promise<void> {
  // Every local check comes before the first request (an unknown --columns name too).
  rt.out.columns(withReason(ROW_COLUMNS));
  const events = checkEvents(rt, opts.event);
  const url = checkWebhookUrl(opts.url);
  const { api, targets, concurrency } = await openTargets(rt, opts);
  const outcome = await changeWebhooks(api, {
    action,
    events,
    url,
    targets,
    dryRun: opts.dryRun,
    concurrency,
    signal: rt.ctx.signal,
  });
  // TSV rows have four fields, and a fifth (the reason) on a failed row only (the contract).
  await printFleetRows(rt, outcome.rows, ROW_COLUMNS, (r) => [r.company_id, r.event, r.target_url, r.result]);
  for (const warning of outcome.warnings) rt.out.warn(warning);
  rt.out.info(summarizeResults(outcome.rows, opts.dryRun === true));
  throwIfFailed(outcome);
}

/**
 * The company, the result and the reason are what a reader came for; the event and the URL (the same
 * on most rows, and said in the command line) give way on a narrow terminal.
 */
const ROW_COLUMNS: Column<WebhookRow>[] = [
  companyColumn(),
  { header: 'event', value: (r) => r.event, kind: 'name', priority: 2 },
  { header: 'target url', value: (r) => r.target_url, kind: 'email', priority: 3 },
  // A result is one word (would-subscribe): kept whole ('count' is never cut).
  { header: 'result', value: (r) => r.result, priority: 0, kind: 'count' },
];
