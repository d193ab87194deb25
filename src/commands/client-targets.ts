/**
 * The target options of `deliverability` and `health` (contract, "Fleet health"): none = every client;
 * --company (repeatable), --file, --all, --active, --inactive. Defined once for both commands.
 */
import { type Command, Option } from '@commander-js/extra-typings';
import type { ClientTargetOptions } from '../fleet/clients.js';
import type { TargetFlags } from '../fleet/targets.js';
import type { Runtime } from '../runtime.js';
import { collectValues } from './command.js';

/** The targets as typed: --file is a path here (read before the first request). */
export interface ClientTargetFlags extends TargetFlags {
  active?: boolean | undefined;
  inactive?: boolean | undefined;
}

/**
 * `inactive: 'refused'` (health, which cannot read an inactive client): --inactive is kept out of help
 * and completion, and the command refuses it with its reason (refuseInactive).
 */
export function addClientTargets<C extends Command>(command: C, inactive: 'offered' | 'refused' = 'offered') {
  const inactiveOption = new Option('--inactive', 'only inactive clients').conflicts('active');
  return command
    .option('--company <company>', 'only this client (id or exact name; repeatable)', collectValues)
    .option('--file <path>', "only the clients of a file: ids or exact names, one per line ('-' = stdin)")
    .addOption(new Option('--all', 'every active client').conflicts('inactive'))
    .addOption(new Option('--active', 'the same as --all').conflicts('inactive'))
    .addOption(inactive === 'offered' ? inactiveOption : inactiveOption.hideHelp());
}

/** The targets with --file's text read (or stdin with '-'). */
export async function readClientTargets(rt: Runtime, flags: ClientTargetFlags): Promise<ClientTargetOptions> {
  if (flags.file === undefined) return { ...flags, file: undefined };
  const { readInput } = await import('../input/read.js');
  return { ...flags, file: await readInput(flags.file, rt.terminal, rt.ctx.signal) };
}
