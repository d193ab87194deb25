/** `agency webhooks subscribe`: point accounts' webhooks at a URL, sending only the pairs missing. */
import type { Command } from '@commander-js/extra-typings';
import type { Run } from '../command.js';
import { defineChange } from './change.js';

export function defineSubscribe(webhooks: Command, run: Run): void {
  defineChange(webhooks, run, 'subscribe', {
    description: 'subscribe accounts to events (only what is missing)',
    prints: `
      Reads each account's webhooks first and subscribes only the (event, URL) pairs that are
      missing. Prints one row per company and event: company_id, event, target_url, result
      (subscribed, exists, would-subscribe, skipped-inactive or failed, with the reason).
      On a terminal the rows where nothing changes (exists, skipped-inactive) are counted
      on stderr, not listed; piped rows, --csv and --json list every row. Without
      --company, --file or --all it acts on the key's own account. The service allows 3
      URLs per event per account.
    `,
    examples: `
      $ agency webhooks subscribe --event prospect_replied --url https://crm.example.com/hook --company 1042
      $ agency webhooks subscribe --event prospect_replied --event prospect_bounced \\
          --url https://crm.example.com/hook --all --dry-run
      $ agency webhooks subscribe --event prospect_interested --url https://crm.example.com/hook --file clients.txt
    `,
  });
}
