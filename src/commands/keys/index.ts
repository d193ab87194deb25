/** `agency keys …`: the API keys of client companies. */
import type { Command } from '@commander-js/extra-typings';
import type { Run } from '../command.js';
import { defineCreate } from './create.js';
import { defineList } from './list.js';

export function define(keys: Command, run: Run): void {
  defineList(keys, run);
  defineCreate(keys, run);
}
