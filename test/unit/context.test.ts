import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config.js';
import {
  DEFAULT_BASE_URL,
  type GlobalFlags,
  parseBaseUrl,
  parseMaxInFlight,
  parseTimeout,
  readEnvironment,
  requireApiKey,
  resolveContext,
} from '../../src/context.js';
import { ConfigError, ExitCode, MissingKeyError, UsageError } from '../../src/errors.js';
import { type IO, openOutput } from '../../src/runtime.js';
import { testDir } from '../helpers/temp-dir.js';

function configDirWith(data: unknown): string {
  const dir = testDir('agency-ctx-');
  if (data !== null)
    writeFileSync(join(dir, 'config.json'), typeof data === 'string' ? data : JSON.stringify(data));
  return dir;
}

function io(env: Record<string, string>, tty = false): IO {
  const stream = () => Object.assign(new PassThrough(), { isTTY: tty, columns: 100 });
  return { stdin: stream(), stdout: stream(), stderr: stream(), env };
}

const signal = new AbortController().signal;
const twoProfiles = {
  current: 'work',
  profiles: {
    work: { api_key: 'work-key-123456', base_url: 'https://work.example/rest' },
    home: { api_key: 'home-key-123456' },
  },
};

function resolve(
  flags: GlobalFlags,
  env: Record<string, string>,
  config: unknown = twoProfiles,
  tty = false,
) {
  const dir = configDirWith(config);
  const streams = io({ AGENCY_CONFIG_DIR: dir, ...env }, tty);
  const environment = readEnvironment(streams);
  const ctx = resolveContext(flags, environment, new ConfigStore(environment.configDir), signal);
  return { ...ctx, out: openOutput(streams, flags, environment).out };
}

describe('profile selection', () => {
  it('uses the current profile by default', () => {
    const ctx = resolve({}, {});
    expect(ctx.profileName).toBe('work');
    expect(requireApiKey(ctx)).toBe('work-key-123456');
    expect(ctx.baseUrl).toBe('https://work.example/rest');
  });

  it('prefers --profile over AGENCY_PROFILE over the current profile', () => {
    expect(resolve({}, { AGENCY_PROFILE: 'home' }).profileName).toBe('home');
    expect(resolve({ profile: 'work' }, { AGENCY_PROFILE: 'home' }).profileName).toBe('work');
  });

  it('falls back to "default" with an empty config', () => {
    const ctx = resolve({}, {}, null);
    expect(ctx.profileName).toBe('default');
    expect(ctx.baseUrl).toBe(DEFAULT_BASE_URL);
  });

  it('refuses an unknown named profile instead of running without its settings', () => {
    const ctx = resolve({ profile: 'wrok' }, {});
    expect(() => requireApiKey(ctx)).toThrow(UsageError);
    expect(() => requireApiKey(ctx)).toThrow(/No profile named "wrok"/);
  });

  it('rejects profile names that could not be stored safely', () => {
    expect(() => resolve({ profile: '../etc' }, {})).toThrow(UsageError);
  });
});

describe('API key', () => {
  it('lets AGENCY_API_KEY override the profile key', () => {
    expect(requireApiKey(resolve({}, { AGENCY_API_KEY: 'env-key-123456' }))).toBe('env-key-123456');
  });

  it('reports a missing key with exit code 3 and a hint', () => {
    const ctx = resolve({}, {}, { current: 'default', profiles: { default: {} } });
    let error: unknown;
    try {
      requireApiKey(ctx);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MissingKeyError);
    expect((error as MissingKeyError).exitCode).toBe(ExitCode.auth);
    expect((error as MissingKeyError).hint).toMatch(/agency login/);
  });
});

describe('base URL', () => {
  it('follows flag > environment > profile > default', () => {
    expect(
      resolve({ baseUrl: 'https://flag.example/rest' }, { AGENCY_BASE_URL: 'https://env.example/rest' })
        .baseUrl,
    ).toBe('https://flag.example/rest');
    expect(resolve({}, { AGENCY_BASE_URL: 'https://env.example/rest' }).baseUrl).toBe(
      'https://env.example/rest',
    );
    expect(resolve({ profile: 'home' }, {}).baseUrl).toBe(DEFAULT_BASE_URL);
  });

  it('records where the base URL came from', () => {
    expect(resolve({ baseUrl: 'http://127.0.0.1:1/rest' }, {}).baseUrlSource).toBe('flag');
    expect(resolve({}, { AGENCY_BASE_URL: 'http://127.0.0.1:1/rest' }).baseUrlSource).toBe('env');
    expect(resolve({}, {}).baseUrlSource).toBe('profile');
    expect(resolve({ profile: 'home' }, {}).baseUrlSource).toBe('default');
  });

  it('normalises a trailing slash and rejects what is not an http(s) base', () => {
    expect(parseBaseUrl('https://api.woodpecker.co/rest/')).toBe('https://api.woodpecker.co/rest');
    for (const bad of [
      'api.woodpecker.co',
      'ftp://x/rest',
      'https://user:pw@x/rest',
      'https://x/rest?a=1',
      '',
    ]) {
      expect(() => parseBaseUrl(bad), bad).toThrow(UsageError);
    }
  });
});

describe('timeout, debug and colour', () => {
  it('parses the timeout in seconds, flag before environment', () => {
    expect(resolve({}, {}).timeoutMs).toBe(30_000);
    expect(resolve({}, { AGENCY_TIMEOUT: '5' }).timeoutMs).toBe(5000);
    expect(resolve({ timeout: '0.5' }, { AGENCY_TIMEOUT: '5' }).timeoutMs).toBe(500);
    for (const bad of ['0', '-1', 'abc', '1e3', '']) expect(() => parseTimeout(bad), bad).toThrow(UsageError);
  });

  it('turns on debug with --debug or AGENCY_DEBUG=1, not AGENCY_DEBUG=0', () => {
    expect(resolve({ debug: true }, {}).debug).toBe(true);
    expect(resolve({}, { AGENCY_DEBUG: '1' }).debug).toBe(true);
    expect(resolve({}, { AGENCY_DEBUG: '0' }).debug).toBe(false);
  });

  it('uses colour only on a terminal, and never with NO_COLOR or --no-color', () => {
    expect(resolve({}, {}, twoProfiles, true).out.options.color).toBe(true);
    expect(resolve({}, {}, twoProfiles, false).out.options.color).toBe(false);
    expect(resolve({}, { NO_COLOR: '1' }, twoProfiles, true).out.options.color).toBe(false);
    expect(resolve({ color: false }, {}, twoProfiles, true).out.options.color).toBe(false);
    expect(resolve({}, { FORCE_COLOR: '0' }, twoProfiles, true).out.options.color).toBe(false);
  });
});

describe('AGENCY_MAX_IN_FLIGHT', () => {
  it('is 3 by default, and any whole number from 1 to 7', () => {
    expect(resolve({}, {}).maxInFlight).toBe(3);
    expect(resolve({}, { AGENCY_MAX_IN_FLIGHT: '' }).maxInFlight).toBe(3);
    for (const depth of [1, 7])
      expect(resolve({}, { AGENCY_MAX_IN_FLIGHT: String(depth) }).maxInFlight).toBe(depth);
  });

  it('refuses anything else as a usage error (exit 2)', () => {
    for (const bad of ['0', '8', '2.5', '-1', 'three', '1e1']) {
      expect(() => resolve({}, { AGENCY_MAX_IN_FLIGHT: bad }), bad).toThrow(UsageError);
      expect(() => parseMaxInFlight(bad), bad).toThrow(/expected a whole number from 1 to 7/);
    }
  });
});

describe('damaged config', () => {
  it('names the file and does not guess', () => {
    expect(() => resolve({}, {}, '{"current": "work", "profiles": ')).toThrow(ConfigError);
    expect(() => resolve({}, {}, '{"current": "work", "profiles": ')).toThrow(/config\.json is damaged/);
    expect(() => resolve({}, {}, { profiles: { work: { api_key: 42 } } })).toThrow(/non-string api_key/);
    expect(() => resolve({}, {}, [])).toThrow(/top level is not an object/);
  });
});
