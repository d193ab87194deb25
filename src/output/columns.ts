/** Small pieces shared by the column definitions of several commands. */
import type { ChalkInstance } from 'chalk';
import type { CreatedCompany } from '../api/types.js';
import type { Column } from './writer.js';

/** Active in green, inactive in dim red; the writer applies it only on a terminal. */
export function activeStyle(value: unknown, chalk: ChalkInstance): ((text: string) => string) | undefined {
  if (value === true) return chalk.green;
  if (value === false) return chalk.red;
  return undefined;
}

/** A field of the loosely documented `details` object of mailboxes and email accounts. */
export function detail(item: { details?: Record<string, unknown> }, field: string): unknown {
  return item.details?.[field];
}

/** What every company record shows first: `companies list` and `companies create` print these. */
export function companyColumns<R extends CreatedCompany>(): Column<R>[] {
  return [
    { header: 'id', value: (c) => c.id },
    { header: 'name', value: (c) => c.name },
    { header: 'owner', value: (c) => c.owner, priority: 2 },
    { header: 'active', value: (c) => c.active, style: activeStyle, priority: 1 },
  ];
}

/** Why a row failed (its error's message), last in the rows of a command that goes on past failures. */
export function reasonColumn<R extends { error?: { message: string } | undefined }>(): Column<R> {
  return {
    header: 'reason',
    name: 'error',
    aliases: ['reason'],
    value: (r) => r.error?.message,
    kind: 'problem',
  };
}
