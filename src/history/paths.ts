/**
 * Where the history store is: `$AGENCY_STATE_DIR`, else the platform's state directory for `agency`
 * (Linux: `$XDG_STATE_HOME/agency`, else `~/.local/state/agency`), and whether a run is left out of it.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Env } from '../context.js';

const HISTORY_FILE_NAME = 'history.db';

function stateDirectory(env: Env, platform: NodeJS.Platform = process.platform): string {
  if (env.AGENCY_STATE_DIR) return env.AGENCY_STATE_DIR;
  const home = env.HOME || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'agency');
  if (platform === 'win32')
    return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'agency', 'State');
  return join(env.XDG_STATE_HOME || join(home, '.local', 'state'), 'agency');
}

export function historyFile(env: Env, platform: NodeJS.Platform = process.platform): string {
  return join(stateDirectory(env, platform), HISTORY_FILE_NAME);
}

/** AGENCY_NO_HISTORY=1 (any value but empty, 0 or false) leaves every run out, as --no-history does one. */
export function historyOffByEnvironment(env: Env): boolean {
  const value = env.AGENCY_NO_HISTORY;
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}
