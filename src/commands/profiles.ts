/** `profiles list | use | remove`. A whole key is never shown here: at most its first and last 4 characters. */

import type { Runtime } from '../cli.js';
import { maskKey, updateConfig, validateProfileName } from '../config.js';
import { unknownProfile } from '../context.js';

interface ProfileRow {
  name: string;
  current: boolean;
  base_url: string | null;
  key: string | null;
}

/**
 * Piped: `name<TAB>current<TAB>base_url<TAB>key` (completion reads the first field). On a terminal the
 * profile in use is marked, and a line under the table says where the choice came from.
 */
export async function listProfiles(rt: Runtime): Promise<void> {
  const { config, out, profileName } = rt.ctx;
  const tty = out.streams.stdoutIsTTY;
  const rows: ProfileRow[] = Object.entries(config.profiles).map(([name, profile]) => ({
    name,
    // "In use" is what a command run now would use: -p and AGENCY_PROFILE count, not only the saved choice.
    current: name === profileName,
    base_url: profile.base_url ?? null,
    key: profile.api_key === undefined ? null : maskKey(profile.api_key),
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
      { header: 'base url', value: (r) => r.base_url ?? (tty ? '(default)' : '') },
      { header: 'key', value: (r) => r.key ?? (tty ? `(none — agency login -p ${r.name})` : '') },
    ],
    { empty: 'No profiles yet — run: agency login', noun: ['profile', 'profiles'] },
  );
  if (!tty || !out.streams.stderrIsTTY) return;
  if (rt.ctx.profileNamed && profileName !== config.current) {
    const source = rt.ctx.io.env.AGENCY_PROFILE === profileName ? 'AGENCY_PROFILE' : '--profile';
    out.info(`In use: "${profileName}" (from ${source}); the saved current profile is "${config.current}".`);
  }
  if (!config.profiles[profileName] && Object.keys(config.profiles).length > 0) {
    out.warn(
      `The profile in use, "${profileName}", does not exist yet: \`agency login -p ${profileName}\` creates it.`,
    );
  }
}

export async function useProfile(rt: Runtime, name: string): Promise<void> {
  validateProfileName(name);
  const { ctx } = rt;
  if (!ctx.config.profiles[name]) throw unknownProfile(name, ctx.config);
  await updateConfig(ctx.configDir, (config) => {
    if (!config.profiles[name]) throw unknownProfile(name, config);
    config.current = name;
  });
  ctx.out.success(`Now using profile "${name}".`);
}

export async function removeProfile(rt: Runtime, name: string): Promise<void> {
  validateProfileName(name);
  const { ctx } = rt;
  if (!ctx.config.profiles[name]) throw unknownProfile(name, ctx.config);
  let wasCurrent = false;
  await updateConfig(ctx.configDir, (config) => {
    if (!config.profiles[name]) throw unknownProfile(name, config);
    delete config.profiles[name];
    wasCurrent = config.current === name;
    // Never switch silently to another account: back to "default", which may have no key.
    if (wasCurrent) config.current = 'default';
  });
  ctx.out.success(
    `Removed profile "${name}" and its key.${wasCurrent ? ' It was the current profile.' : ''}`,
  );
}
