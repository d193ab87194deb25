/** `--domains | --emails`: which of the two lists a blacklist command works on; exactly one. */
import { type Command, Option } from '@commander-js/extra-typings';
import { UsageError } from '../../errors.js';
import type { BlacklistKind } from '../../fleet/blacklist.js';

export function addKindOptions<C extends Command>(command: C, verb: string): C {
  command
    .addOption(
      new Option('--domains', `${verb} the blacklisted domains (this or --emails is required)`).conflicts(
        'emails',
      ),
    )
    .addOption(
      new Option(
        '--emails',
        `${verb} the blacklisted e-mail addresses (this or --domains is required)`,
      ).conflicts('domains'),
    );
  return command;
}

export function blacklistKind(opts: {
  domains?: boolean | undefined;
  emails?: boolean | undefined;
}): BlacklistKind {
  if (opts.domains) return 'domains';
  if (opts.emails) return 'emails';
  throw new UsageError('Say which list: --domains or --emails.');
}
