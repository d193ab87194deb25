/** Small pieces shared by the column definitions of several commands. */
import type { ChalkInstance } from 'chalk';

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
