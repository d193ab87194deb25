/**
 * End-to-end harness: runs the built `bin/agency.js` as a user would, in its own process, with a
 * temporary AGENCY_CONFIG_DIR, against a sandbox started in this test process on an ephemeral port
 * (so tests can read what the server received and what it holds).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'agency.js');

/**
 * A recognisable key used as the sandbox owner's HQ key across the suite. Tests assert that it never
 * shows up where it should not (stderr, debug logs, error messages, `profiles list`).
 */
export const CANARY_KEY = 'wpk_hq_CANARY0123456789abcdefCANARY99';

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Extra environment; `undefined` values remove a variable. */
  env?: Record<string, string | undefined>;
  /** Written to stdin, then stdin is closed. Without it stdin is an empty, closed pipe. */
  input?: string;
  timeoutMs?: number;
  /**
   * Every run fails if CANARY_KEY shows up on stdout or stderr. A test of an output that exists to
   * show a key opts out for that stream explicitly.
   */
  allowCanary?: 'stdout' | 'stderr' | 'both';
  /** Another agency executable than the repository's bin/agency.js (an installed copy). */
  bin?: string;
}

/** A started agency process, for tests that must act while it runs (signals, kill -9). */
export interface Spawned {
  child: ChildProcessWithoutNullStreams;
  /** Settles when the process has exited and its output is complete; checked for the canary. */
  result: Promise<RunResult>;
}

/**
 * This process's environment without the user's own settings, read once: a test process's environment
 * does not change (only the global setup sets variables, before the test processes start), and reading
 * process.env costs a call into Node for every variable of every run.
 */
let inherited: Record<string, string> | undefined;
function inheritedEnv(): Record<string, string> {
  if (!inherited) {
    inherited = {};
    for (const [name, value] of Object.entries(process.env)) {
      // The user's own settings must not leak into a test.
      if (
        value !== undefined &&
        !name.startsWith('AGENCY_') &&
        name !== 'NO_COLOR' &&
        name !== 'FORCE_COLOR'
      ) {
        inherited[name] = value;
      }
    }
  }
  return inherited;
}

/** The environment a run gets: none of the user's own settings, the test's config dir and extras. */
export function agencyEnv(options: RunOptions & { configDir: string }): Record<string, string> {
  const env: Record<string, string> = { ...inheritedEnv() };
  env.AGENCY_CONFIG_DIR = options.configDir;
  // The history store beside the config, and off unless a test turns it on ({AGENCY_NO_HISTORY:
  // undefined}): a run that records reads /v1/me first, which most tests' request lists do not expect.
  env.AGENCY_STATE_DIR = join(options.configDir, '..', 'state');
  env.AGENCY_NO_HISTORY = '1';
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

export function spawnAgency(args: string[], options: RunOptions & { configDir: string }): Spawned {
  const env = agencyEnv(options);
  const child =
    options.bin === undefined
      ? spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] })
      : spawn(options.bin, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const result = new Promise<RunResult>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const r = { code, signal, stdout, stderr };
      const leak = canaryLeak(r, options.allowCanary);
      if (!leak) return resolve(r);
      reject(new Error(`the canary key leaked on ${leak} of: agency ${args.join(' ')}\n${r[leak]}`));
    });
  });
  child.stdin.on('error', () => {});
  child.stdin.end(options.input ?? '');
  return { child, result };
}

export function runAgency(args: string[], options: RunOptions & { configDir: string }): Promise<RunResult> {
  return spawnAgency(args, options).result;
}

/** Which stream shows the canary key where the run did not allow it. */
export function canaryLeak(r: RunResult, allow: RunOptions['allowCanary']): 'stdout' | 'stderr' | undefined {
  if (allow !== 'stderr' && allow !== 'both' && r.stderr.includes(CANARY_KEY)) return 'stderr';
  if (allow !== 'stdout' && allow !== 'both' && r.stdout.includes(CANARY_KEY)) return 'stdout';
  return undefined;
}

export interface Harness {
  sandbox: Sandbox;
  configDir: string;
  /** Runs agency with AGENCY_API_KEY unset and a "test" profile (the canary HQ key) as the current one. */
  run(args: string[], options?: RunOptions): Promise<RunResult>;
  /** Like run, but returns the process at once. */
  spawn(args: string[], options?: RunOptions): Spawned;
  /** Requests the sandbox received since the last reset, without the query-less /rest prefix noise. */
  requests(): Sandbox['requests'];
  configFile(): string;
  readConfig(): unknown;
  close(): Promise<void>;
}

/**
 * Starts a sandbox and a config dir whose current profile "test" points at it with the canary key.
 * `inProcess`: run() calls the program's main() in this process (test/helpers/in-process.ts) instead of
 * spawning bin/agency.js, for tests whose point is the command, not the binary; spawn() still spawns.
 */
export async function startHarness(
  options: SandboxOptions = {},
  how: { inProcess?: boolean } = {},
): Promise<Harness> {
  const sandbox = await startSandbox({ hqKey: CANARY_KEY, ...options });
  const configDir = join(mkdtempSync(join(tmpdir(), 'agency-e2e-')), 'config');
  const configFile = join(configDir, 'config.json');
  writeConfig(configDir, {
    current: 'test',
    profiles: { test: { api_key: sandbox.hqKey, base_url: sandbox.baseUrl } },
  });
  return {
    sandbox,
    configDir,
    run: async (args, runOptions = {}) => {
      if (!how.inProcess || runOptions.bin !== undefined)
        return runAgency(args, { ...runOptions, configDir });
      const { runInProcess } = await import('./in-process.js');
      return runInProcess(args, { ...runOptions, configDir });
    },
    spawn: (args, runOptions = {}) => spawnAgency(args, { ...runOptions, configDir }),
    requests: () => sandbox.requests,
    configFile: () => configFile,
    readConfig: () => JSON.parse(readFileSync(configFile, 'utf8')),
    close: async () => {
      await sandbox.close();
      // A process of the test (a terminal's shell) may still be leaving as this runs: retry, not ENOTEMPTY.
      rmSync(join(configDir, '..'), { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
    },
  };
}

export function writeConfig(configDir: string, data: unknown): void {
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  writeFileSync(join(configDir, 'config.json'), JSON.stringify(data, null, 2), { mode: 0o600 });
}

/** Parses the JSON error object that --json writes as the last line of stderr. */
export function jsonError(stderr: string): {
  error: { status: number | null; title: string | null; detail: string | null; message: string };
} {
  const lines = stderr.trim().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? '');
}
