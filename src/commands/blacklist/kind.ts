/** `--domains | --emails`: which of the two lists a blacklist command works on; exactly one. */
import { type Command, Option, type OptionValues } from '@commander-js/extra-typings';
import { UsageError } from '../../errors.js';
import type { BlacklistKind } from '../../fleet/blacklist.js';
import { option } from '../../terms.js';
import type { NoOptions, OptionsOf } from '../command.js';

/** `byForm`: without either option, each value goes to the list its form names (add, remove). */
export function addKindOptions<Opts extends OptionValues>(
  command: Command<[], Opts>,
  verb: string,
  byForm = false,
) {
  const either = (other: string) =>
    byForm ? 'only; else each value goes to the list its form names' : `this or ${other} is required`;
  return command
    .addOption(
      new Option('--domains', `${verb} the blacklisted domains (${either('--emails')})`).conflicts('emails'),
    )
    .addOption(
      new Option('--emails', `${verb} the blacklisted e-mail addresses (${either('--domains')})`).conflicts(
        'domains',
      ),
    );
}

type KindFlags = OptionsOf<typeof addKindOptions<NoOptions>>;

export function blacklistKind(opts: KindFlags): BlacklistKind {
  if (opts.domains) return 'domains';
  if (opts.emails) return 'emails';
  throw new UsageError(`Say which list: ${option('domains')} or ${option('emails')}.`);
}
