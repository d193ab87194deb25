/** `agency webhooks unsubscribe`: remove subscriptions, sending only for the pairs present. */
import type { Command } from '@commander-js/extra-typings';
import type { Run } from '../command.js';
import { defineChange } from './change.js';

export function defineUnsubscribe(webhooks: Command, run: Run): void {
  defineChange(webhooks, run, 'unsubscribe', {
    description: 'remove webhook subscriptions (only those present)',
    prints: `
      Reads each account's webhooks first and unsubscribes only the (event, URL) pairs that
      are present. Prints one row per company and event: company_id, event, target_url,
      result (unsubscribed, absent, would-unsubscribe, skipped-inactive or failed). On a
      terminal the rows where nothing changes (absent, skipped-inactive) are counted on
      stderr, not listed; piped rows, --csv and --json list every row.
    `,
    examples: `
      $ agency webhooks unsubscribe --event prospect_replied --url https://old-crm.example.com/hook --all
      $ agency webhooks unsubscribe --event email_opened --url https://crm.example.com/hook --company "Acme Ltd"
    `,
  });
}
