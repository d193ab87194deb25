/** `agency logout`: removes a profile's key (its base URL stays). */
import type { Command } from '@commander-js/extra-typings';
import { unknownProfile } from '../../context.js';
import type { Runtime } from '../../runtime.js';
import { helpText, printsNoList, type Run } from '../command.js';

export function define(command: Command, run: Run): void {
  printsNoList(command)
    .addHelpText(
      'after',
      helpText({
        prints: `
          Says whose key was removed (on stderr). The profile's base URL stays; \`agency
          profiles remove <name>\` removes the whole profile.
        `,
        examples: `
          $ agency logout
          $ agency logout --profile acme-hq
        `,
      }),
    )
    .action(run(logout));
}

export async function logout(rt: Runtime, _opts: object): Promise<void> {
  const { ctx, out } = rt;
  if (!ctx.profile) throw unknownProfile(ctx.profileName, ctx.knownProfiles);
  if (ctx.profile.api_key === undefined) {
    out.info(`Profile "${ctx.profileName}" has no key; nothing to do.`);
    return;
  }
  await rt.config.update((config) => {
    const profile = config.profiles[ctx.profileName];
    if (profile) delete profile.api_key;
  });
  out.success(`Removed the key of profile "${ctx.profileName}".`);
}
