/** `agency campaigns [list]`: the campaigns of the HQ account or of a client company. */
import type { Command } from '@commander-js/extra-typings';
import type { Run } from '../command.js';
import { defineList } from './list.js';

export function define(campaigns: Command, run: Run): void {
  defineList(campaigns, run);
}
