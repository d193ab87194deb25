import { DEFAULT_MAX_IN_FLIGHT, MAX_IN_FLIGHT, MIN_IN_FLIGHT } from './api/limit.js';
import { type ProxyEnvironment, readProxyEnvironment } from './api/proxy.js';
import { type ConfigStore, DEFAULT_PROFILE, type Profile, validateProfileName } from './config.js';
import { configDirectory } from './config-path.js';
import { MissingKeyError, UsageError } from './errors.js';
import type { TerminalSettings } from './output/terminal.js';
import type { KeyringItem } from './secrets/keyring.js';
import { keyStorageOf } from './secrets/storage.js';
import { command, option, run, variable } from './terms.js';
import { VERSION } from './version.js';

export const DEFAULT_BASE_URL = 'https://api.woodpecker.co/rest';
export const DEFAULT_TIMEOUT_SECONDS = 30;

/** What commander hands us from the global options. */
export interface GlobalFlags {
  profile?: string | undefined;
  baseUrl?: string | undefined;
  json?: boolean | undefined;
  debug?: boolean | undefined;
  color?: boolean | undefined;
  timeout?: string | undefined;
  csv?: boolean | undefined;
  columns?: string | undefined;
  quiet?: boolean | undefined;
}

/** The process environment, as bin/agency.js passes it. */
export type Env = Readonly<Record<string, string | undefined>>;

/** Every environment variable the tool understands, read once. Empty values count as unset. */
export interface Environment {
  readonly profile: string | undefined;
  readonly baseUrl: string | undefined;
  readonly apiKey: string | undefined;
  readonly configDir: string;
  readonly debug: boolean;
  readonly timeout: string | undefined;
  readonly maxInFlight: string | undefined;
  /** AGENCY_SANDBOX_HQ_KEY: tests give the sandbox a known (canary) key; there is no flag for keys. */
  readonly sandboxSeedKey: string | undefined;
  /** NO_COLOR, FORCE_COLOR=0 and TERM=dumb all say no. */
  readonly colorAllowed: boolean;
  /** TERM=dumb: no cursor movement or colour escape at all. */
  readonly dumbTerminal: boolean;
  /** COLUMNS, for a pty that reports no size. */
  readonly columns: number | undefined;
  /** HTTPS_PROXY, HTTP_PROXY, NO_PROXY (and lower case): src/api/proxy.ts. */
  readonly proxy: ProxyEnvironment;
}

export function readEnvironment(io: { env: Env }, platform: NodeJS.Platform = process.platform): Environment {
  const { env } = io;
  const value = (name: string) => env[name] || undefined;
  return {
    profile: value('AGENCY_PROFILE'),
    baseUrl: value('AGENCY_BASE_URL'),
    apiKey: value('AGENCY_API_KEY'),
    configDir: configDirectory(env, platform),
    debug: isTruthy(env.AGENCY_DEBUG),
    timeout: value('AGENCY_TIMEOUT'),
    maxInFlight: value('AGENCY_MAX_IN_FLIGHT'),
    sandboxSeedKey: value('AGENCY_SANDBOX_HQ_KEY'),
    colorAllowed: !(env.NO_COLOR ?? '') && env.FORCE_COLOR !== '0' && env.TERM !== 'dumb',
    dumbTerminal: env.TERM === 'dumb',
    columns: Number(env.COLUMNS) || undefined,
    proxy: readProxyEnvironment(env),
  };
}

/** How the output should look: usable before (or without) the config, e.g. to report a damaged file. */
export function terminalSettings(
  flags: Pick<GlobalFlags, 'json' | 'color' | 'csv' | 'columns' | 'quiet'>,
  environment: Environment,
): TerminalSettings {
  return {
    json: flags.json === true,
    csv: flags.csv === true,
    columns: flags.columns,
    quiet: flags.quiet === true,
    colorAllowed: flags.color !== false && environment.colorAllowed,
    dumbTerminal: environment.dumbTerminal,
    columnsHint: environment.columns,
  };
}

export interface Context {
  readonly profileName: string;
  /** Where the profile's name came from; a named one (flag, env) must not fall back silently on a typo. */
  readonly profileSource: 'flag' | 'env' | 'config';
  /** The saved profile, undefined when it does not exist (yet). */
  readonly profile: Profile | undefined;
  /** Names of the saved profiles, and those that have a key (for hints). */
  readonly knownProfiles: readonly string[];
  readonly profilesWithKey: readonly string[];
  /** The key in hand: from AGENCY_API_KEY or the config file; undefined when it is in the keyring. */
  readonly apiKey: string | undefined;
  readonly keySource: 'env' | 'profile' | 'keyring' | undefined;
  /** Set when the key is to be read from the system keyring (on the first request, by runtime.ts). */
  readonly keyringItem: KeyringItem | undefined;
  readonly baseUrl: string;
  /** Where baseUrl came from: login saves it only when the user gave it. */
  readonly baseUrlSource: 'flag' | 'env' | 'profile' | 'default';
  readonly json: boolean;
  readonly debug: boolean;
  readonly timeoutMs: number;
  /** Requests one account may have queued at once (AGENCY_MAX_IN_FLIGHT, 1..7). */
  readonly maxInFlight: number;
  readonly userAgent: string;
  /** The key `agency sandbox` gives its owner instead of a random one (tests). */
  readonly sandboxSeedKey: string | undefined;
  /** Aborted on Ctrl-C. */
  readonly signal: AbortSignal;
}

export function resolveContext(
  flags: GlobalFlags,
  environment: Environment,
  config: ConfigStore,
  signal: AbortSignal,
): Context {
  // With the key and the base URL from the environment or flags, the run needs nothing from the file:
  // a damaged one is then a warning, not a stop.
  const independent =
    environment.apiKey !== undefined && (flags.baseUrl ?? environment.baseUrl) !== undefined;
  const data = config.read({ needed: !independent });
  const named = flags.profile ?? environment.profile;
  const profileName = validateProfileName(named ?? data.current ?? DEFAULT_PROFILE);
  const profile = data.profiles[profileName];
  const baseUrlSource =
    flags.baseUrl !== undefined
      ? 'flag'
      : environment.baseUrl
        ? 'env'
        : profile?.base_url
          ? 'profile'
          : 'default';
  const baseUrl = parseBaseUrl(flags.baseUrl ?? environment.baseUrl ?? profile?.base_url ?? DEFAULT_BASE_URL);
  const storage = keyStorageOf(profile);
  // AGENCY_API_KEY overrides everything, the keyring included (which is then never asked).
  const apiKey = environment.apiKey ?? (storage === 'file' ? profile?.api_key : undefined);
  const inKeyring = apiKey === undefined && storage === 'keyring';
  return Object.freeze({
    profileName,
    profileSource:
      flags.profile !== undefined ? 'flag' : environment.profile !== undefined ? 'env' : 'config',
    profile,
    knownProfiles: Object.keys(data.profiles),
    profilesWithKey: Object.keys(data.profiles).filter((name) => keyStorageOf(data.profiles[name])),
    apiKey,
    keySource: environment.apiKey ? 'env' : apiKey ? 'profile' : inKeyring ? 'keyring' : undefined,
    keyringItem: inKeyring ? { profile: profileName, configDir: config.dir } : undefined,
    baseUrl,
    baseUrlSource,
    json: flags.json === true,
    debug: flags.debug === true || environment.debug,
    timeoutMs: parseTimeout(
      flags.timeout ?? environment.timeout,
      flags.timeout !== undefined ? option('timeout') : variable('AGENCY_TIMEOUT'),
    ),
    maxInFlight: parseMaxInFlight(environment.maxInFlight),
    userAgent: `agency-cli/${VERSION}`,
    sandboxSeedKey: environment.sandboxSeedKey,
    signal,
  });
}

/**
 * The key for a request — or the keyring item that holds it (read on the first request) — or a clear
 * error: an unknown named profile is a typo, not an empty profile.
 */
export function requireApiKey(ctx: Context): string | KeyringItem {
  // A named profile that does not exist is a typo — unless the environment (or flags) gave everything
  // a profile could have: the key and the base URL (CI jobs that set AGENCY_PROFILE globally).
  const complete = ctx.keySource === 'env' && (ctx.baseUrlSource === 'flag' || ctx.baseUrlSource === 'env');
  if (ctx.profileSource !== 'config' && !ctx.profile && !complete)
    throw unknownProfile(ctx.profileName, ctx.knownProfiles);
  if (ctx.apiKey) return ctx.apiKey;
  if (ctx.keyringItem) return ctx.keyringItem;
  const withKeys = ctx.profilesWithKey;
  throw new MissingKeyError(`No API key for profile "${ctx.profileName}".`, {
    hint: withKeys.length
      ? `Use a profile that has one (${option('profile', '-p')} ${withKeys[0]}, or \`${command(`profiles use ${withKeys[0]}`)}\`; profiles with a key: ${withKeys.join(', ')}), or ${run('login')}.`
      : `${run('login')} (or \`${command('login --profile <name>')}\`), or set ${variable('AGENCY_API_KEY')}.`,
  });
}

export function unknownProfile(name: string, known: readonly string[]): UsageError {
  return new UsageError(`No profile named "${name}".`, {
    hint: known.length
      ? `Known profiles: ${known.join(', ')}.`
      : `There are no profiles yet: ${run('login')}.`,
  });
}

export function parseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `Invalid base URL ${JSON.stringify(value)}: expected something like ${DEFAULT_BASE_URL}.`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`Invalid base URL ${JSON.stringify(value)}: only http and https are supported.`);
  }
  if (url.username || url.password) {
    throw new UsageError(
      `The base URL must not contain credentials: use \`${command('login')}\` or ${variable('AGENCY_API_KEY')}.`,
    );
  }
  if (url.search || url.hash) {
    throw new UsageError(`Invalid base URL ${JSON.stringify(value)}: it must not have a query or fragment.`);
  }
  return url.href.replace(/\/+$/, '');
}

/** --timeout or AGENCY_TIMEOUT (named in the message, so that a forgotten variable is found). */
export function parseTimeout(value: string | undefined, source = option('timeout')): number {
  if (value === undefined) return DEFAULT_TIMEOUT_SECONDS * 1000;
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(seconds > 0) || seconds > 3600) {
    throw new UsageError(
      `Invalid ${source} ${JSON.stringify(value)}: give a number of seconds more than 0 and at most 3600.`,
    );
  }
  return Math.round(seconds * 1000);
}

/** AGENCY_MAX_IN_FLIGHT: a whole number from 1 (one after another) to 7 (the service's 1 + 6 queued). */
export function parseMaxInFlight(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_IN_FLIGHT;
  const text = value.trim();
  if (!/^\d+$/.test(text) || Number(text) < MIN_IN_FLIGHT || Number(text) > MAX_IN_FLIGHT) {
    throw new UsageError(
      `Invalid ${variable('AGENCY_MAX_IN_FLIGHT')} ${JSON.stringify(value)}: expected a whole number from ${MIN_IN_FLIGHT} to ${MAX_IN_FLIGHT}.`,
    );
  }
  return Number(text);
}

function isTruthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}
