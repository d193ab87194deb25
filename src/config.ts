/**
 * The only module that touches the config file.
 *
 * Reads are a plain JSON parse (they happen on every command, so they must not pay for conf and ajv).
 * Writes are read-modify-write inside a lock file, because conf has no locking and two `agency login`
 * processes would otherwise lose each other's profile; conf then replaces the file atomically (temp
 * file, fsync, rename; mode 0600), so a crash at any moment leaves the previous file or the new one.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isRecord } from './api/types.js';
import { CONFIG_FILE_NAME, configFileIn } from './config-path.js';
import { ConfigError, UsageError } from './errors.js';
import { acquireLock } from './file-lock.js';
import { run, variable } from './terms.js';
import { syncFolder } from './whole-file.js';

export interface Profile {
  api_key?: string;
  /** "keyring": the key is in the system keyring (src/secrets/), not in this file. */
  api_key_storage?: typeof KEYRING_STORAGE;
  base_url?: string;
}

export const KEYRING_STORAGE = 'keyring';

export interface ConfigData {
  current: string;
  profiles: Record<string, Profile>;
}

export const DEFAULT_PROFILE = 'default';

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
  const file = configFileIn(dir);
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
    // V8's message quotes a piece of the file, which could be the start of a key: give only the place.
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    throw damaged(file, `not valid JSON${position === undefined ? '' : ` (at character ${position})`}`);
  }
  return narrowConfig(parsed, file);
}

/** A config file that is not what the tool writes: reported with its path, never replaced. */
class DamagedConfigError extends ConfigError {}

function damaged(file: string, why: string): ConfigError {
  return new DamagedConfigError(`The config file ${file} is damaged: ${why}.`, {
    hint: `It was left untouched. Fix it by hand, or move it away and ${run('login')} again.`,
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
    const { api_key, api_key_storage, base_url } = profile;
    if (api_key !== undefined && typeof api_key !== 'string')
      throw damaged(file, `profile "${name}" has a non-string api_key`);
    if (api_key_storage !== undefined && api_key_storage !== KEYRING_STORAGE)
      throw damaged(file, `profile "${name}" has an api_key_storage other than "${KEYRING_STORAGE}"`);
    if (base_url !== undefined && typeof base_url !== 'string')
      throw damaged(file, `profile "${name}" has a non-string base_url`);
    result.profiles[name] = { ...profile } as Profile;
  }
  return result;
}

/**
 * The config of one run, bound to its directory: read once (every command reads it to choose a profile),
 * changed only through update(). `warn` receives what the person must know about the file itself.
 */
export class ConfigStore {
  #data: ConfigData | undefined;

  constructor(
    readonly dir: string,
    private readonly warn: (message: string) => void = () => {},
  ) {}

  /**
   * With `needed: false` (the key and base URL came from the environment or flags), a damaged file
   * does not stop the run: a warning, an empty config for this run, and the file left as it is.
   */
  read(options: { needed?: boolean } = {}): ConfigData {
    if (this.#data) return this.#data;
    let data: ConfigData;
    try {
      data = readConfig(this.dir);
    } catch (error) {
      if (!(error instanceof DamagedConfigError) || options.needed !== false) throw error;
      this.warn(
        `${error.message.replace(/\.$/, '')}; not used by this run (the key and base URL come from the environment or flags). It was left untouched.`,
      );
      return emptyConfig();
    }
    this.#data = data;
    tightenFile(configFileIn(this.dir), data, this.warn);
    return data;
  }

  async update(mutate: (data: ConfigData) => void): Promise<ConfigData> {
    this.#data = await updateConfig(this.dir, mutate);
    return this.#data;
  }
}

/**
 * A file holding a key that other users can read (written by hand, copied, or by an old version) is
 * made 0600 the first time it is read, with one line saying so; if that fails, a warning on every run.
 * Nothing else about the file changes. (POSIX modes only: Windows has ACLs instead.)
 */
function tightenFile(file: string, data: ConfigData, warn: (message: string) => void): void {
  if (process.platform === 'win32') return;
  if (!Object.values(data.profiles).some((profile) => profile.api_key)) return;
  let mode: number;
  try {
    mode = statSync(file).mode & 0o777;
  } catch {
    return;
  }
  if ((mode & 0o077) === 0) return;
  const was = `mode ${mode.toString(8).padStart(4, '0')}`;
  try {
    chmodSync(file, 0o600);
    warn(
      `The config file ${file} holds an API key and was readable by other users (${was}); it is now 0600.`,
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    warn(
      `The config file ${file} holds an API key and is readable by other users (${was}); its mode could not be changed (${code}). Run: chmod 600 ${file}`,
    );
  }
}

/**
 * Read-modify-write under a lock. `mutate` changes the data in place; conf writes the result atomically
 * with mode 0600 into a 0700 directory. A damaged file stops the update before anything is written.
 */
async function updateConfig(dir: string, mutate: (data: ConfigData) => void): Promise<ConfigData> {
  ensureDir(dir);
  const file = configFileIn(dir);
  // Loading conf takes ~25 ms: done before taking the lock, so that parallel writers wait only for
  // each other's read-modify-write.
  const { default: Conf } = await import('conf');
  const release = await acquireLock(`${file}.lock`, {
    cannotLock: (lockFile, reason) => new ConfigError(`Cannot lock the config file (${lockFile}): ${reason}`),
    busy: (lockFile) =>
      new ConfigError(`The config file is locked by another agency process (${lockFile}).`, {
        hint: 'If no other agency process is running, remove the lock file.',
      }),
  });
  try {
    const data = readConfig(dir);
    mutate(data);
    removeOrphanTempFiles(dir);
    writeWithConf(Conf, dir, data);
    return data;
  } finally {
    release();
  }
}

function ensureDir(dir: string): void {
  try {
    makeDirectories(resolve(dir));
  } catch (error) {
    throw new ConfigError(`Cannot create the config directory ${dir}: ${(error as Error).message}`, {
      hint: `${variable('AGENCY_CONFIG_DIR')} chooses another directory for it.`,
    });
  }
  tightenDir(dir);
}

/**
 * `mkdir -p`, one level at a time from the nearest existing ancestor. Not Node's recursive mkdirSync:
 * on a file system that refuses new directories without EACCES (procfs: ENOENT for /proc/nope while
 * /proc exists) it retries forever, synchronously, deaf to signals. Here each level is tried once.
 */
function makeDirectories(dir: string): void {
  const missing: string[] = [];
  for (let level = dir; !existsSync(level); level = dirname(level)) {
    missing.unshift(level);
    if (dirname(level) === level) break;
  }
  for (const level of missing) {
    try {
      mkdirSync(level, { mode: 0o700 });
    } catch (error) {
      // Another process (a parallel login) made it meanwhile: fine, as long as it is a directory.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(level).isDirectory()) throw error;
    }
  }
}

/**
 * The directory holding keys is 0700, also when it existed before with looser permissions — but only
 * a directory of ours: owned by us, not a shared sticky directory (/tmp), and holding nothing but our
 * files, so that AGENCY_CONFIG_DIR=$HOME never changes the permissions of a home directory.
 */
function tightenDir(dir: string): void {
  try {
    const stat = statSync(dir);
    if ((stat.mode & 0o077) === 0 || (stat.mode & 0o1000) !== 0) return;
    if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return;
    if (!readdirSync(dir).every((name) => name.startsWith(CONFIG_FILE_NAME))) return;
    chmodSync(dir, 0o700);
  } catch {
    // Best effort: the file itself is written 0600 whatever happens here.
  }
}

/**
 * conf writes through `atomically`: a temporary file in the same directory (mode 0600), fsync, rename.
 * A reader, or a crash at any moment, sees the old file or the new one, never a mix.
 */
function writeWithConf(Conf: typeof import('conf').default, dir: string, data: ConfigData): void {
  const file = configFileIn(dir);
  try {
    const conf = new Conf<ConfigData>({
      cwd: dir,
      configName: 'config',
      projectName: 'agency',
      projectSuffix: '',
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
      // conf reads the file in its constructor, and again before writing to carry over a top-level
      // `__internal__` key. Through our own parser it sees exactly what readConfig just validated under
      // the lock: nothing to throw on, nothing to carry over. With no defaults, schema or migrations
      // the constructor writes nothing; the file gets `data` and only that.
      deserialize: (text) => narrowConfig(JSON.parse(text), file),
      serialize: (value) => `${JSON.stringify(value, null, 2)}\n`,
    });
    conf.store = data;
  } catch (error) {
    throw new ConfigError(`Cannot write the config file ${file}: ${(error as Error).message}`, {
      hint: 'The previous file was left as it was.',
    });
  }
  // The rename is durable once the directory is flushed (atomically does not).
  syncFolder(dir);
}

/** atomically's temporary files: `config.json.tmp-<10 digits of Date.now()><6 hex digits>`. */
const TEMP_FILE = /^config\.json\.tmp-\d{10}[0-9a-f]{6}$/;

/**
 * Temporary files of writers killed mid-write (SIGKILL, power cut: atomically deletes its own on any
 * other exit). Called under the lock, so no writer is using one.
 */
function removeOrphanTempFiles(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (TEMP_FILE.test(name)) rmSync(join(dir, name), { force: true });
}

/** "abcd…wxyz": never more than the first and last 4 characters of a key. */
export function maskKey(key: string): string {
  if (key.length <= 12) return '****';
  return `${key.slice(0, 4)}…${key.slice(-4)}`;
}
