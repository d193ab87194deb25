/**
 * The only module that touches the config file.
 *
 * Reads are a plain JSON parse (they happen on every command, so they must not pay for conf and ajv);
 * writes go through conf (atomic temp-file + rename, mode 0600) inside a lock file, because conf has
 * no locking and two `agency login` processes would otherwise lose each other's profile.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, UsageError } from './errors.js';

export interface Profile {
  api_key?: string;
  base_url?: string;
}

export interface ConfigData {
  current: string;
  profiles: Record<string, Profile>;
}

export const DEFAULT_PROFILE = 'default';
const FILE_NAME = 'config.json';
const LOCK_STALE_MS = 10_000;
const LOCK_WAIT_MS = 15_000;

export function configDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (env.AGENCY_CONFIG_DIR) return env.AGENCY_CONFIG_DIR;
  const home = env.HOME || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', 'agency');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'agency', 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'agency');
}

export function configPath(dir: string): string {
  return join(dir, FILE_NAME);
}

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function validateProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(
      `Invalid profile name ${JSON.stringify(name)}: use letters, digits, '.', '_' or '-' (at most 64 characters).`,
    );
  }
  return name;
}

function emptyConfig(): ConfigData {
  return { current: DEFAULT_PROFILE, profiles: {} };
}

/** Reads the config; a missing file is an empty config, a damaged one is an error that names the path. */
export function readConfig(dir: string): ConfigData {
  const file = configPath(dir);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyConfig();
    throw new ConfigError(`Cannot read the config file ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw damaged(file, `not valid JSON (${(error as Error).message})`);
  }
  return narrowConfig(parsed, file);
}

function damaged(file: string, why: string): ConfigError {
  return new ConfigError(`The config file ${file} is damaged: ${why}.`, {
    hint: 'It was left untouched. Fix it by hand, or move it away and run `agency login` again.',
  });
}

function narrowConfig(value: unknown, file: string): ConfigData {
  if (!isRecord(value)) throw damaged(file, 'the top level is not an object');
  const { current, profiles } = value;
  if (current !== undefined && typeof current !== 'string') throw damaged(file, '"current" is not a string');
  if (profiles !== undefined && !isRecord(profiles)) throw damaged(file, '"profiles" is not an object');
  const result: ConfigData = { current: current ?? DEFAULT_PROFILE, profiles: {} };
  for (const [name, profile] of Object.entries(profiles ?? {})) {
    if (!isRecord(profile)) throw damaged(file, `profile "${name}" is not an object`);
    const { api_key, base_url } = profile;
    if (api_key !== undefined && typeof api_key !== 'string') throw damaged(file, `profile "${name}" has a non-string api_key`);
    if (base_url !== undefined && typeof base_url !== 'string') throw damaged(file, `profile "${name}" has a non-string base_url`);
    result.profiles[name] = { ...profile } as Profile;
  }
  return result;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Read-modify-write under a lock. `mutate` changes the data in place; the result is written atomically
 * with mode 0600 into a 0700 directory. A damaged file stops the update before anything is written.
 */
export async function updateConfig(dir: string, mutate: (data: ConfigData) => void): Promise<ConfigData> {
  ensureDir(dir);
  const release = await acquireLock(join(dir, `${FILE_NAME}.lock`));
  try {
    const data = readConfig(dir);
    mutate(data);
    const { default: Conf } = await import('conf');
    const conf = new Conf<Record<string, unknown>>({
      cwd: dir,
      configName: 'config',
      projectName: 'agency',
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
    });
    conf.store = data as unknown as Record<string, unknown>;
    return data;
  } finally {
    release();
  }
}

function ensureDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new ConfigError(`Cannot create the config directory ${dir}: ${(error as Error).message}`);
  }
}

async function acquireLock(lockFile: string): Promise<() => void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new ConfigError(`Cannot lock the config file (${lockFile}): ${(error as Error).message}`);
      }
    }
    // A lock left behind by a crashed process would block forever: break it once it is clearly stale.
    try {
      if (Date.now() - statSync(lockFile).mtimeMs > LOCK_STALE_MS) rmSync(lockFile, { force: true });
    } catch {
      // The holder released it between our attempts.
    }
    if (Date.now() > deadline) {
      throw new ConfigError(`The config file is locked by another agency process (${lockFile}).`, {
        hint: 'If no other agency process is running, remove the lock file.',
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * Math.min(50, 5 * attempt)));
  }
}

/** "abcd…wxyz": never more than the first and last 4 characters of a key. */
export function maskKey(key: string): string {
  if (key.length <= 12) return '****';
  return `${key.slice(0, 4)}…${key.slice(-4)}`;
}
