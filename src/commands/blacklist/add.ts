/**
 * `agency blacklist add --domains|--emails <value>... [--file <path|->] [--dry-run]`: adds what is
 * not on the list yet. Every value is checked before the list is read; nothing is sent for bad input.
 */
import type { Command } from '@commander-js/extra-typings';
import type { Run } from '../command.js';
import { defineChange } from './change.js';

export function defineAdd(blacklist: Command, run: Run): void {
  defineChange(blacklist, run, 'add', {
    description: 'add domains or addresses to the blacklist',
    prints: `
      Prints one row per value: the value and its result (added, exists, would-add,
      failed). Values are lower-cased, an internationalised domain (bücher.example) in
      its ASCII form (xn--bcher-kva.example, with a note); a value given twice is sent
      once; values already listed are not sent again; the rest goes in requests of at
      most 500.
    `,
    examples: `
      $ agency blacklist add --domains competitor.com spam.example
      $ agency blacklist add --emails --file unsubscribed.txt --dry-run
      $ cut -f1 bounces.tsv | agency blacklist add --emails --file -
    `,
  });
}
