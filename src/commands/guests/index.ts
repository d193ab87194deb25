/** `agency guests …`: invite a client's own people as guests, and set what they may see. */
import type { Command } from '@commander-js/extra-typings';
import type { Run } from '../command.js';
import { defineInvite } from './invite.js';
import { definePermissions } from './permissions.js';

export function define(guests: Command, run: Run): void {
  defineInvite(guests, run);
  definePermissions(guests, run);
}
