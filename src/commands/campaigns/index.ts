/** `agency campaigns`: list the campaigns of an account; pause, stop and resume them across accounts;
 * their Bounce Shield thresholds. */
import type { Command } from '@commander-js/extra-typings';
import type { Run } from '../command.js';
import { defineBounceShield } from './bounce-shield.js';
import { defineList } from './list.js';
import { definePause } from './pause.js';
import { defineResume } from './resume.js';
import { defineStop } from './stop.js';

export function define(campaigns: Command, run: Run): void {
  defineList(campaigns, run);
  definePause(campaigns, run);
  defineStop(campaigns, run);
  defineResume(campaigns, run);
  defineBounceShield(campaigns, run);
}
