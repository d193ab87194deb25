/**
 * What `webhooks subscribe` and `webhooks unsubscribe` share: the options (events, URL, targets), the
 * local checks made before any request, and the rows they print. The fleet logic is in
 * src/fleet/webhook-changes.ts.
 */
import type { Command } from '@commander-js/extra-typings';
import { changeWebhooks, type WebhookAction, type WebhookRow } from '../../fleet/webhook-changes.js';
import { checkWebhookUrl, eventKey } from '../../fleet/webhook-input.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { type CommandText, helpText, type OptionsOf, type Run } from '../command.js';
import { addChangeOptions, changeEvents, eventOption, runFleetChange } from './fleet.js';

export function defineChange(webhooks: Command, run: Run, action: WebhookAction, text: CommandText): void {
  configureChange(webhooks, action, text).action(
    run((rt, opts: WebhookChangeOptions) => changeWebhooksCommand(rt, action, opts)),
  );
}

function configureChange(webhooks: Command, action: WebhookAction, text: CommandText) {
  const command = webhooks
    .command(action)
    .description(text.description)
    .addOption(eventOption('event name, e.g. prospect_replied (repeatable)').makeOptionMandatory())
    .requiredOption('--url <url>', 'the http(s) address that receives the events');
  return addChangeOptions(command, 'read and show what would change; send nothing').addHelpText(
    'after',
    helpText(text),
  );
}

type WebhookChangeOptions = OptionsOf<typeof configureChange>;

function changeWebhooksCommand(
  rt: Runtime,
  action: WebhookAction,
  opts: WebhookChangeOptions,
): Promise<void> {
  // TSV rows have four fields, and a fifth (the reason) on a failed row only (the contract).
  const rows = {
    columns: rowColumns(new Set(opts.event.map(eventKey)).size > 1),
    fields: (r: WebhookRow) => [r.company_id, r.event, r.target_url, r.result],
    quiet: ['exists', 'absent', 'skipped-inactive'],
  };
  const check = () => {
    const url = checkWebhookUrl(opts.url);
    return { action, events: changeEvents(rt, opts, opts.event), url };
  };
  return runFleetChange(rt, opts, rows, check, changeWebhooks);
}

/**
 * The company, the result and the reason are what a reader came for, and the URL is what the row is
 * about: on a narrow terminal it wraps, and the event (said in the command line) gives way first.
 * With several events, the event is what tells a company's rows apart: then the URL, the same on
 * every row and in the command line, gives way first (wrapped beside events, reasons and results, it
 * made each row three lines or more).
 */
function rowColumns(severalEvents: boolean): Column<WebhookRow>[] {
  return [
    { header: 'event', value: (r) => r.event, kind: 'name', priority: severalEvents ? 1 : 2 },
    { header: 'target url', value: (r) => r.target_url, kind: 'email', priority: severalEvents ? 2 : 1 },
    // A result is one word (would-subscribe): kept whole ('count' is never cut).
    { header: 'result', value: (r) => r.result, priority: 0, kind: 'count' },
  ];
}
