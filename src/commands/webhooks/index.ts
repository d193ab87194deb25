/**
 * `agency webhooks …`: list an account's webhooks (`webhooks` alone lists), and subscribe or
 * unsubscribe many accounts at once, move them from one URL to another (src/fleet/webhook-*.ts).
 */
import type { Command } from '@commander-js/extra-typings';
import type { Run } from '../command.js';
import { defineEvents } from './events.js';
import { defineList } from './list.js';
import { defineMove } from './move.js';
import { defineSubscribe } from './subscribe.js';
import { defineUnsubscribe } from './unsubscribe.js';

export function define(webhooks: Command, run: Run): void {
  defineList(webhooks, run);
  defineSubscribe(webhooks, run);
  defineUnsubscribe(webhooks, run);
  defineMove(webhooks, run);
  defineEvents(webhooks, run);
}
