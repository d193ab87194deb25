/** `agency profiles list | use | remove`. A whole key is never shown here: at most its first and last 4 characters. */
import type { Command } from '@commander-js/extra-typings';
import { type ConfigData, maskKey, validateProfileName } from '../../config.js';
import { unknownProfile } from '../../context.js';
import { UsageError } from '../../errors.js';
import { confirm } from '../../input/prompt.js';
import type { Runtime } from '../../runtime.js';
import { notDeleted } from '../../secrets/keyring.js';
import { forgetKey, type KeyStorage, keyStorageOf } from '../../secrets/storage.js';
import { type CommandHelp, helpText, type OptionsOf, printsNoList, type Run } from '../command.js';

/** use and remove act on one saved profile, named; they say what they did on stderr and print no list. */
function profileCommand(profiles: Command, verb: string, description: string, help: CommandHelp) {
  return printsNoList(profiles.command(verb))
    .description(description)
    .argument('<name>')
    .addHelpText('after', helpText(help));
}

function configureRemove(profiles: Command) {
  return profileCommand(profiles, 'remove', 'remove a profile and its key', {
    prints: `
      Asks first on a terminal (--yes does not ask; without a terminal --yes is
      required). Says which profile was removed (on stderr), and deletes its key from
      the system keyring if it was there. If it was the current one, "default"
      becomes current: the tool never switches to another account by itself.
    `,
    examples: `
      $ agency profiles remove old-agency
      $ agency profiles remove sandbox --yes
    `,
  }).option('--yes', 'remove without asking');
}

type RemoveOptions = OptionsOf<typeof configureRemove>;

interface ProfileRow {
  name: string;
  current: boolean;
  base_url: string | null;
  key: string | null;
  key_storage: KeyStorage | null;
}

/**
 * Piped: `name<TAB>current<TAB>base_url<TAB>key` (completion reads the first field). On a terminal the
 * profile in use is marked, and a line under the table says where the choice came from.
 */
export async function listProfiles(rt: Runtime, _opts: object): Promise<void> {
  const { out, terminal } = rt;
  const { profileName } = rt.ctx;
  const config = rt.config.read();
  const tty = terminal.stdoutIsTTY;
  const rows: ProfileRow[] = Object.entries(config.profiles).map(([name, profile]) => ({
    name,
    // "In use" is what a command run now would use: -p and AGENCY_PROFILE count, not only the saved choice.
    current: name === profileName,
    base_url: profile.base_url ?? null,
    // Where the key is, from the file alone: listing never reads the keyring.
    key: keyStorageOf(profile) === 'file' && profile.api_key ? maskKey(profile.api_key) : null,
    key_storage: keyStorageOf(profile) ?? null,
  }));
  await out.list(
    rows,
    [
      { header: 'name', value: (r) => r.name, style: (_v, c) => c.bold },
      {
        header: 'current',
        value: (r) => (tty ? (r.current ? '* in use' : '') : r.current),
        style: (_v, c) => c.green,
      },
      { header: 'base url', value: (r) => r.base_url ?? (tty ? '(default)' : ''), priority: 1 },
      {
        header: 'key',
        value: (r) => r.key ?? (tty && !r.key_storage ? `(none — agency login -p ${r.name})` : ''),
      },
      { header: 'stored', value: (r) => r.key_storage ?? '' },
    ],
    { empty: 'No profiles yet — run: agency login', noun: ['profile', 'profiles'] },
  );
  if (!tty || !terminal.stderrIsTTY) return;
  if (rt.ctx.profileSource !== 'config' && profileName !== config.current) {
    const source = rt.ctx.profileSource === 'env' ? 'AGENCY_PROFILE' : '--profile';
    out.info(`In use: "${profileName}" (from ${source}); the saved current profile is "${config.current}".`);
  }
  if (!config.profiles[profileName] && Object.keys(config.profiles).length > 0) {
    out.warn(
      `The profile in use, "${profileName}", does not exist yet: \`agency login -p ${profileName}\` creates it.`,
    );
  }
}

export async function useProfile(rt: Runtime, name: string, _opts: object): Promise<void> {
  await changeProfile(rt, name, (config) => {
    config.current = name;
  });
  rt.out.success(`Now using profile "${name}".`);
}

export async function removeProfile(rt: Runtime, name: string, opts: RemoveOptions): Promise<void> {
  const { terminal } = rt;
  validateProfileName(name);
  const known = rt.config.read().profiles;
  if (!known[name]) throw unknownProfile(name, Object.keys(known));
  if (opts.yes !== true) {
    if (!terminal.stdinIsTTY || !terminal.stderrIsTTY)
      throw new UsageError(`Removing profile "${name}" needs --yes when there is no terminal to ask.`, {
        hint: `Run \`agency profiles remove ${name} --yes\`. Nothing was removed.`,
      });
    const what = keyStorageOf(known[name]) ? ' and its key' : '';
    if (!(await confirm(terminal, `Remove profile "${name}"${what}?`, false, rt.ctx.signal))) {
      rt.out.info('Nothing was removed.');
      return;
    }
  }
  let wasCurrent = false;
  let storage: KeyStorage | undefined;
  await changeProfile(rt, name, (config) => {
    storage = keyStorageOf(config.profiles[name]);
    delete config.profiles[name];
    wasCurrent = config.current === name;
    // Never switch silently to another account: back to "default", which may have no key.
    if (wasCurrent) config.current = 'default';
  });
  const item = { profile: name, configDir: rt.config.dir };
  const why = storage === 'keyring' ? await forgetKey(item) : undefined;
  rt.out.success(
    `Removed profile "${name}"${storage && why === undefined ? ' and its key' : ''}.${wasCurrent ? ' It was the current profile.' : ''}`,
  );
  if (why !== undefined) throw notDeleted(item, why);
}

/** A change to a saved profile: a name that is not one is refused, checked again inside the update. */
async function changeProfile(rt: Runtime, name: string, change: (config: ConfigData) => void): Promise<void> {
  validateProfileName(name);
  const known = rt.config.read().profiles;
  if (!known[name]) throw unknownProfile(name, Object.keys(known));
  await rt.config.update((config) => {
    if (!config.profiles[name]) throw unknownProfile(name, Object.keys(config.profiles));
    change(config);
  });
}

export function define(profiles: Command, run: Run): void {
  profiles
    .command('list')
    .description('list profiles and show the one in use')
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints one row per profile: name, whether it is in use, base URL, the key
          masked to its first and last 4 characters, and where the key is kept (keyring
          or file). A key in the system keyring is not read to be listed, so its column
          is empty. The profile in use is the current one, unless --profile or
          AGENCY_PROFILE names another.
        `,
        examples: `
          $ agency profiles list
          $ agency profiles list | cut -f1
        `,
      }),
    )
    .action(run(listProfiles, { key: false }));
  profileCommand(profiles, 'use', 'make a profile the current one', {
    prints: `
      Says which profile is now current (on stderr). Later commands use it, unless
      --profile or AGENCY_PROFILE names another.
    `,
    examples: `
      $ agency profiles use sandbox
      $ agency profiles use default
    `,
  }).action(run(useProfile, { key: false }));
  configureRemove(profiles).action(run(removeProfile, { key: false }));
}
