/**
 * `agency blacklist remove --domains|--emails <value>... [--file <path|->] [--dry-run]`: takes off
 * the list what is on it (DELETE, the same body as adding). Values are checked before the list is
 * read; nothing is sent for bad input, nor for a value that is not listed.
 */
import type { Command } from '@commander-js/extra-typings';
import type { Run } from '../command.js';
import { defineChange } from './change.js';

export function defineRemove(blacklist: Command, run: Run): void {
  defineChange(blacklist, run, 'remove', {
    description: 'remove domains or addresses from the blacklist',
    prints: `
      Reads the list first, then removes only the values on it, in requests of at most
      500. Prints one row per value: the value and its result (removed, absent,
      would-remove, failed). Values are lower-cased, an internationalised domain in its
      ASCII form (xn--…), and each sent once. A second run sends nothing and reports
      every value absent.
    `,
    examples: `
      $ agency blacklist remove --domains partner.example
      $ agency blacklist remove --emails --file resubscribed.txt --dry-run
      $ agency blacklist list --emails --filter @old-client.example | agency blacklist remove --emails --file -
    `,
  });
}
