/** `agency logout`: removes a profile's key, from the config file or the system keyring (its base URL stays). */
import type { Command } from '@commander-js/extra-typings';
import { unknownProfile } from '../../context.js';
import type { Runtime } from '../../runtime.js';
import { notDeleted } from '../../secrets/keyring.js';
import { forgetKey, keyStorageOf } from '../../secrets/storage.js';
import { helpText, printsNoList, type Run } from '../command.js';

export function define(command: Command, run: Run): void {
  printsNoList(command)
    .addHelpText(
      'after',
      helpText({
        prints: `
          Says whose key was removed (on stderr): from the system keyring or the config
          file, wherever it was. The profile's base URL stays; \`agency profiles remove
          <name>\` removes the whole profile.
        `,
        examples: `
          $ agency logout
          $ agency logout --profile acme-hq
        `,
      }),
    )
    .action(run(logout, { key: false }));
}

export async function logout(rt: Runtime, _opts: object): Promise<void> {
  const { ctx, out } = rt;
  if (!ctx.profile) throw unknownProfile(ctx.profileName, ctx.knownProfiles);
  if (keyStorageOf(ctx.profile) === undefined) {
    out.info(`Profile "${ctx.profileName}" has no key; nothing to do.`);
    return;
  }
  let inKeyring = false;
  await rt.config.update((config) => {
    const profile = config.profiles[ctx.profileName];
    if (!profile) return;
    inKeyring = keyStorageOf(profile) === 'keyring';
    delete profile.api_key;
    delete profile.api_key_storage;
  });
  if (inKeyring) {
    const item = { profile: ctx.profileName, configDir: rt.config.dir };
    const why = await forgetKey(item);
    if (why !== undefined) throw notDeleted(item, why);
  }
  out.success(
    `Removed the key of profile "${ctx.profileName}"${inKeyring ? ' from the system keyring' : ''}.`,
  );
}
