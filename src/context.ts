/**
 * Resolves flags, environment and the config file into one immutable context. Precedence everywhere:
 * flag > environment > profile > built-in default. This is the only place that reads process.env.
 */
import type { Readable, Writable } from 'node:stream';
import {
  type ConfigData,
  configDir,
  DEFAULT_PROFILE,
  type Profile,
  readConfig,
  validateProfileName,
} from './config.js';
import { MissingKeyError, UsageError } from './errors.js';
import { type Streams, Writer } from './output/writer.js';
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
}

export interface IO {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean; columns?: number };
  env: NodeJS.ProcessEnv;
}

export interface Context {
  readonly profileName: string;
  /** True when the profile was named by --profile or AGENCY_PROFILE (a typo must not fall back silently). */
  readonly profileNamed: boolean;
  readonly profile: Profile | undefined;
  readonly config: ConfigData;
  readonly configDir: string;
  readonly apiKey: string | undefined;
  readonly baseUrl: string;
  /** Where baseUrl came from: login saves it only when the user gave it. */
  readonly baseUrlSource: 'flag' | 'env' | 'profile' | 'default';
  readonly json: boolean;
  readonly debug: boolean;
  readonly timeoutMs: number;
  readonly userAgent: string;
  readonly stdinIsTTY: boolean;
  readonly io: IO;
  readonly out: Writer;
  /** Aborted on Ctrl-C. */
  readonly signal: AbortSignal;
}

/** The output writer alone: usable before (or without) the config, e.g. to report a damaged config file. */
export function createWriter(flags: Pick<GlobalFlags, 'json' | 'color'>, io: IO): Writer {
  const streams: Streams = {
    stdout: io.stdout,
    stderr: io.stderr,
    stdoutIsTTY: io.stdout.isTTY === true,
    stderrIsTTY: io.stderr.isTTY === true,
    // A pty that reports no size (script, some CI runners) still deserves a table that fits.
    columns: io.stdout.isTTY ? io.stdout.columns || Number(io.env.COLUMNS) || 80 : undefined,
  };
  const colorAllowed =
    flags.color !== false && !(io.env.NO_COLOR ?? '') && io.env.FORCE_COLOR !== '0' && io.env.TERM !== 'dumb';
  return new Writer(streams, {
    json: flags.json === true,
    // Colour only ever goes to a terminal.
    color: colorAllowed && streams.stdoutIsTTY,
    stderrColor: colorAllowed && streams.stderrIsTTY,
  });
}

export function resolveContext(flags: GlobalFlags, io: IO, signal: AbortSignal): Context {
  const { env } = io;
  const out = createWriter(flags, io);
  const dir = configDir(env);
  const config = readConfig(dir);
  const named = flags.profile ?? (env.AGENCY_PROFILE || undefined);
  const profileName = validateProfileName(named ?? config.current ?? DEFAULT_PROFILE);
  const profile = config.profiles[profileName];
  const baseUrlSource =
    flags.baseUrl !== undefined
      ? 'flag'
      : env.AGENCY_BASE_URL
        ? 'env'
        : profile?.base_url
          ? 'profile'
          : 'default';
  const baseUrl = parseBaseUrl(
    flags.baseUrl ?? (env.AGENCY_BASE_URL || undefined) ?? profile?.base_url ?? DEFAULT_BASE_URL,
  );
  return Object.freeze({
    profileName,
    profileNamed: named !== undefined,
    profile,
    config,
    configDir: dir,
    apiKey: env.AGENCY_API_KEY || profile?.api_key || undefined,
    baseUrl,
    baseUrlSource,
    json: flags.json === true,
    debug: flags.debug === true || isTruthy(env.AGENCY_DEBUG),
    timeoutMs: parseTimeout(flags.timeout ?? (env.AGENCY_TIMEOUT || undefined)),
    userAgent: `agency-cli/${VERSION}`,
    // A getter: reading io.stdin creates process.stdin, which most commands never use (~2 ms).
    get stdinIsTTY() {
      return io.stdin.isTTY === true;
    },
    io,
    out,
    signal,
  });
}

/** The key for a request, or a clear error: an unknown named profile is a typo, not an empty profile. */
export function requireApiKey(ctx: Context): string {
  // A named profile that does not exist is a typo — unless the environment (or flags) gave everything
  // a profile could have: the key and the base URL (CI jobs that set AGENCY_PROFILE globally).
  const complete =
    Boolean(ctx.io.env.AGENCY_API_KEY) && (ctx.baseUrlSource === 'flag' || ctx.baseUrlSource === 'env');
  if (ctx.profileNamed && !ctx.profile && !complete) throw unknownProfile(ctx.profileName, ctx.config);
  if (ctx.apiKey) return ctx.apiKey;
  const withKeys = Object.keys(ctx.config.profiles).filter((name) => ctx.config.profiles[name]?.api_key);
  throw new MissingKeyError(`No API key for profile "${ctx.profileName}".`, {
    hint: withKeys.length
      ? `Use a profile that has one (-p ${withKeys[0]}, or \`agency profiles use ${withKeys[0]}\`; profiles with a key: ${withKeys.join(', ')}), or run \`agency login\`.`
      : 'Run `agency login` (or `agency login --profile <name>`), or set AGENCY_API_KEY.',
  });
}

export function unknownProfile(name: string, config: ConfigData): UsageError {
  const known = Object.keys(config.profiles);
  return new UsageError(`No profile named "${name}".`, {
    hint: known.length
      ? `Known profiles: ${known.join(', ')}.`
      : 'There are no profiles yet: run `agency login`.',
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
    throw new UsageError('The base URL must not contain credentials: use `agency login` or AGENCY_API_KEY.');
  }
  if (url.search || url.hash) {
    throw new UsageError(`Invalid base URL ${JSON.stringify(value)}: it must not have a query or fragment.`);
  }
  return url.href.replace(/\/+$/, '');
}

export function parseTimeout(value: string | undefined): number {
  if (value === undefined) return DEFAULT_TIMEOUT_SECONDS * 1000;
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(seconds > 0) || seconds > 3600) {
    throw new UsageError(
      `Invalid timeout ${JSON.stringify(value)}: give a number of seconds between 0 and 3600.`,
    );
  }
  return Math.round(seconds * 1000);
}

function isTruthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}
