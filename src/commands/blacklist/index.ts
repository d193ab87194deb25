/** `agency blacklist …`: the agency-wide blacklist of domains and e-mail addresses. */
import type { Command } from '@commander-js/extra-typings';
import type { Run } from '../command.js';
import { defineAdd } from './add.js';
import { defineCheck } from './check.js';
import { defineList } from './list.js';
import { defineRemove } from './remove.js';

export function define(blacklist: Command, run: Run): void {
  defineList(blacklist, run);
  defineAdd(blacklist, run);
  defineRemove(blacklist, run);
  defineCheck(blacklist, run);
}
