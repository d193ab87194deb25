/**
 * `agency webhooks events`: the event names the tool knows, in the form `--event` takes and the form
 * the service lists them in. Local: no key, no request (the list is not closed; the service adds events).
 */
import type { Command } from '@commander-js/extra-typings';
import { WEBHOOK_EVENTS } from '../../fleet/webhook-input.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { helpText, type Run } from '../command.js';

interface KnownEvent {
  event: string;
  listed_as: string;
}

const eventColumns: Column<KnownEvent>[] = [
  { header: 'event', value: (e) => e.event, kind: 'name' },
  { header: 'listed as', value: (e) => e.listed_as, kind: 'name' },
];

export function defineEvents(webhooks: Command, run: Run): void {
  webhooks
    .command('events')
    .description('list the webhook events the tool knows (no request)')
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints one row per event the service documents: the name --event takes (lower case) and
          the name \`webhooks list\` shows (upper case). Sends no request and needs no key. The
          service adds events: a name not listed here is still sent, with a warning.
        `,
        examples: `
          $ agency webhooks events
          $ agency webhooks events | grep '^prospect_'
          $ agency webhooks events --json | jq -r '.[].event'
        `,
      }),
    )
    .action(run(listEvents, { context: false }));
}

async function listEvents(rt: Runtime, _opts: object): Promise<void> {
  const events = WEBHOOK_EVENTS.map((event) => ({ event, listed_as: event.toUpperCase() }));
  await rt.out.list(events, eventColumns, { noun: ['event', 'events'] });
}
