/**
 * The target options of `deliverability` and `health` (contract, "Fleet health"): none = every client;
 * --company (repeatable), --file, --all, --active, --inactive, and --limit N. Defined once for both;
 * `webhooks list` and `inventory` offer the same --limit. Also the period the fleet reads cover
 * (`deliverability`, `health`, `report`): --from and --to, checked in src/input/period.ts.
 */
import { type Command, Option, type OptionValues } from '@commander-js/extra-typings';
import type { ClientTargetOptions } from '../fleet/clients.js';
import type { Runtime } from '../runtime.js';
import { collectValues, type NoOptions, type OptionsOf } from './command.js';

interface ClientTargetsSpec {
  /**
   * 'refused' (health, which cannot read an inactive client): --inactive is kept out of help and
   * completion, and the command refuses it with its reason.
   */
  inactive?: 'offered' | 'refused';
}

/** The target options added to `command`, which keeps its arguments and options (see OptionsOf). */
export function addClientTargets<Opts extends OptionValues>(
  command: Command<[], Opts>,
  spec: ClientTargetsSpec = {},
) {
  const inactive = new Option('--inactive', 'only inactive clients').conflicts('active');
  return command
    .option('--company <company>', 'only this client (id or exact name; repeatable)', collectValues)
    .option('--file <path>', "only the clients of a file: ids or exact names, one per line ('-' = stdin)")
    .addOption(new Option('--all', 'every active client').conflicts('inactive'))
    .addOption(new Option('--active', 'the same as --all').conflicts('inactive'))
    .addOption(spec.inactive === 'refused' ? inactive.hideHelp() : inactive)
    .addOption(limitOption('clients'));
}

/** What `--from` and `--to` default to, as their help says it (`report`'s window is the service's). */
interface PeriodDefaults {
  from: string;
  to: string;
}

/** `--from` and `--to` added to `command`, which keeps its arguments and options (see OptionsOf). */
export function addPeriod<Args extends unknown[], Opts extends OptionValues>(
  command: Command<Args, Opts>,
  defaults: PeriodDefaults = { from: '30 days ago', to: 'today' },
) {
  return command
    .option('--from <date>', `first day of the period, YYYY-MM-DD (default: ${defaults.from})`)
    .option('--to <date>', `last day of the period, YYYY-MM-DD (default: ${defaults.to})`);
}

/** The targets as typed: --file is a path here (read before the first request). */
export type ClientTargetFlags = OptionsOf<typeof addClientTargets<NoOptions>>;

/** `--limit <n>`: every fleet read can stop after its first N targets (a long audit tried on a few). */
export function limitOption(nouns: string) {
  return new Option('--limit <n>', `only the first N ${nouns} (in the order listed)`);
}

/** The targets with --file's text read (or stdin with '-'). */
export async function readClientTargets(rt: Runtime, flags: ClientTargetFlags): Promise<ClientTargetOptions> {
  if (flags.file === undefined) return { ...flags, file: undefined };
  const { readRunInput } = await import('../input/read.js');
  return { ...flags, file: await readRunInput(rt, flags.file) };
}
