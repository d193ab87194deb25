/** `agency companies …`: list, create, view and inspect client companies. */
import type { Command } from '@commander-js/extra-typings';
import type { Run } from '../command.js';
import { defineCreate } from './create.js';
import { defineEmailAccounts } from './email-accounts.js';
import { defineList } from './list.js';
import { defineUsers } from './users.js';
import { defineView } from './view.js';

export function define(companies: Command, run: Run): void {
  defineList(companies, run);
  defineCreate(companies, run);
  defineView(companies, run);
  defineEmailAccounts(companies, run);
  defineUsers(companies, run);
}
