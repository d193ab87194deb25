/** Small pieces shared by the column definitions of several commands. */
import type { ChalkInstance } from 'chalk';
import type { CreatedCompany } from '../api/types.js';
import type { Column, Writer } from './writer.js';

/** Active in green, inactive in dim red; the writer applies it only on a terminal. */
export function activeStyle(value: unknown, chalk: ChalkInstance): ((text: string) => string) | undefined {
  if (value === true) return chalk.green;
  if (value === false) return chalk.red;
  return undefined;
}

/** A field of the loosely documented `details` object of mailboxes and email accounts, as a column. */
export function detailColumn<R extends { details?: Record<string, unknown> }>(
  header: string,
  field: string,
  more: Partial<Column<R>> = {},
): Column<R> {
  return { header, field: `details.${field}`, value: (item) => item.details?.[field], ...more };
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

/**
 * The columns of rows that may fail (blacklist add and remove, guests invite): the reason is offered
 * to --columns, checked now (before anything is read or sent); unless chosen, it is shown only when a
 * row failed, so that the piped rows of a clean run keep their fields.
 */
export function withReasonIfFailed<R>(
  out: Pick<Writer, 'options' | 'columns'>,
  columns: Column<R>[],
  reason: Column<R>,
): (failed: boolean) => Column<R>[] {
  const chosen = out.options.columns === undefined ? undefined : out.columns([...columns, reason]);
  return (failed) => chosen ?? (failed ? [...columns, reason] : columns);
}
