/**
 * Where the config file is: `$AGENCY_CONFIG_DIR`, else the platform's config directory for `agency`.
 * Imports nothing of ours at run time (a type import is erased): the build also bundles it alone
 * (dist/config-path.cjs), so that bin/agency.js names the file in `agency --help` without loading
 * the program.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Env } from './context.js';

export function configDirectory(env: Env, platform: NodeJS.Platform): string {
  if (env.AGENCY_CONFIG_DIR) return env.AGENCY_CONFIG_DIR;
  const home = env.HOME || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', 'agency');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'agency', 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'agency');
}

export const CONFIG_FILE_NAME = 'config.json';

/** The config file in `dir`. */
export function configFileIn(dir: string): string {
  return join(dir, CONFIG_FILE_NAME);
}
