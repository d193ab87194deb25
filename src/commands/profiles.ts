/** `profiles list | use | remove`. A whole key is never shown here: at most its first and last 4 characters. */
import { maskKey, updateConfig, validateProfileName } from '../config.js';
import { unknownProfile } from '../context.js';
import type { Runtime } from '../cli.js';

interface ProfileRow {
  name: string;
  current: boolean;
  base_url: string | null;
  key: string | null;
}

export async function listProfiles(rt: Runtime): Promise<void> {
  const { config, out } = rt.ctx;
  const rows: ProfileRow[] = Object.entries(config.profiles).map(([name, profile]) => ({
    name,
    current: name === config.current,
    base_url: profile.base_url ?? null,
    key: profile.api_key === undefined ? null : maskKey(profile.api_key),
  }));
  await out.list(
    rows,
    [
      { header: 'name', value: (r) => r.name },
      { header: 'current', value: (r) => (out.streams.stdoutIsTTY ? (r.current ? '*' : '') : r.current), style: (v, c) => (v === '*' ? c.green : undefined) },
      { header: 'base url', value: (r) => r.base_url ?? (out.streams.stdoutIsTTY ? '(default)' : '') },
      { header: 'key', value: (r) => r.key ?? (out.streams.stdoutIsTTY ? '(none)' : '') },
    ],
    'No profiles yet — run: agency login',
  );
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
  ctx.out.success(`Removed profile "${name}" and its key.${wasCurrent ? ' It was the current profile.' : ''}`);
}
