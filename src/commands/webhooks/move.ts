/**
 * `agency webhooks move --from <url> --to <url> [--event <e>...] [targets] [--dry-run]`: point every
 * target account's subscriptions at a new URL, in the order the service's 3-URL cap allows
 * (src/fleet/webhook-move.ts).
 */
import type { Command } from '@commander-js/extra-typings';
import { UsageError } from '../../errors.js';
import { settledWebhookWrites } from '../../fleet/lost-answer.js';
import { checkWebhookUrl } from '../../fleet/webhook-input.js';
import type { MoveRow } from '../../fleet/webhook-move.js';
import { NOUNS, plural } from '../../output/summary.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { option } from '../../terms.js';
import { helpText, type OptionsOf, type Run } from '../command.js';
import { addChangeOptions, changeEvents, eventOption, runFleetChange } from './fleet.js';

function configureMove(webhooks: Command) {
  const command = webhooks
    .command('move')
    .description('replace one webhook URL by another in many accounts')
    .requiredOption('--from <url>', 'the URL subscribed now')
    .requiredOption('--to <url>', 'the URL that replaces it')
    .addOption(eventOption('only this event (repeatable); default: every event subscribed at --from'));
  return addChangeOptions(command, 'read and show what would move; send nothing').addHelpText(
    'after',
    helpText({
      prints: `
        Reads each account's webhooks, then for every event subscribed at --from (or
        only the --events given) subscribes --to and unsubscribes --from. An event with
        fewer than 3 URLs gets --to first, so it is never without a URL; one at the
        service's limit of 3 loses --from first, and if --to is then refused, --from is
        subscribed again (restored); if that is refused too, the row and the summary say
        the account is now subscribed at neither URL. Prints one row per company and
        event: company_id, event, from, to, result (moved, would-move, failed, restored,
        absent, already-moved, skipped-inactive; a failed or restored row adds the reason).
        On a terminal the rows where nothing was to move (absent, already-moved,
        skipped-inactive) are counted on stderr, not listed; piped rows, --csv and --json
        list every row. A second run sends nothing. Without --company, --file or --all it
        acts on the key's own account.
      `,
      examples: `
        $ agency webhooks move --from https://old-crm.example.com/hook --to https://crm.example.com/hook --all --dry-run
        $ agency webhooks move --from https://old-crm.example.com/hook --to https://crm.example.com/hook --all
        $ agency webhooks move --from https://a.example/h --to https://b.example/h \\
            --event prospect_replied --company 1042 --company "Acme Ltd"
      `,
    }),
  );
}

type MoveOptions = OptionsOf<typeof configureMove>;

// The URLs are what the rows are about: on a narrow terminal they wrap; `from` (said in the command
// line) gives way before the event, `to` only when nothing else can.
const COLUMNS: Column<MoveRow>[] = [
  { header: 'event', value: (r) => r.event, kind: 'name', priority: 2 },
  { header: 'from', value: (r) => r.from, kind: 'email', priority: 3 },
  { header: 'to', value: (r) => r.to, kind: 'email', priority: 1 },
  { header: 'result', value: (r) => r.result, priority: 0, kind: 'count' },
];

function moveCommand(rt: Runtime, opts: MoveOptions): Promise<void> {
  const rows = {
    columns: COLUMNS,
    fields: (r: MoveRow) => [r.company_id, r.event, r.from, r.to, r.result],
    failed: ['failed', 'restored'],
    quiet: ['absent', 'already-moved', 'skipped-inactive'],
  };
  const check = () => {
    const from = checkWebhookUrl(opts.from, option('from'));
    const to = checkWebhookUrl(opts.to, option('to'));
    if (from === to)
      throw new UsageError(`${option('from')} and ${option('to')} are the same URL: nothing to move.`);
    return { from, to, events: changeEvents(rt, opts, opts.event ?? []) };
  };
  return runFleetChange(rt, opts, rows, check, async (api, move) => {
    const { moveWebhooks } = await import('../../fleet/webhook-move.js');
    // A write whose answer was lost is settled by reading the account's webhooks again.
    const notes: string[] = [];
    const outcome = await moveWebhooks(
      settledWebhookWrites(api, (note) => notes.push(note)),
      move,
    );
    return {
      ...outcome,
      warnings: [...notes, ...outcome.warnings],
      reasons: outcome.lost,
      consequence: lostAccounts(outcome.lost),
    };
  });
}

/** "2 accounts are now subscribed at neither URL.": the accounts a failed move left without the hook. */
function lostAccounts(lost: ReadonlyMap<MoveRow, string>): string | undefined {
  const accounts = new Set([...lost.keys()].map((r) => r.company_id)).size;
  if (accounts === 0) return undefined;
  return `${plural(accounts, NOUNS.account)} ${accounts === 1 ? 'is' : 'are'} now subscribed at neither URL.`;
}

export function defineMove(webhooks: Command, run: Run): void {
  configureMove(webhooks).action(run(moveCommand));
}
