/** `agency history …`: what earlier runs of health, report and deliverability recorded, and pruning. */
import type { Command } from '@commander-js/extra-typings';
import type { Run } from '../command.js';
import { defineHealthHistory } from './health.js';
import { definePrune } from './prune.js';
import { defineResultsHistory } from './results.js';

export function define(history: Command, run: Run): void {
  defineHealthHistory(history, run);
  defineResultsHistory(history, run, 'report');
  defineResultsHistory(history, run, 'deliverability');
  definePrune(history, run);
}
