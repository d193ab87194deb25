/** `agency sandbox`: runs the local simulator until Ctrl-C, and saves a "sandbox" profile pointing at it. */
import type { Command } from '@commander-js/extra-typings';
import { ConfigError, UsageError } from '../../errors.js';
import { optionalPositiveInt } from '../../input/parse.js';
import type { Runtime } from '../../runtime.js';
import type { Sandbox } from '../../sandbox/index.js';
import { helpText, type Run } from '../room.js';

export function define(sandbox: Command, run: Run): void {
  sandbox
    .option('--port <n>', 'port on 127.0.0.1 (default: a free one)')
    .option('--state <file>', 'keep the state in this file (reloaded on start)')
    .option('--latency <ms>', 'processing time of each request')
    .option('--companies <n>', 'companies to seed (default 120)')
    .option('--no-save-profile', 'do not save the "sandbox" profile')
    .addHelpText(
      'after',
      helpText(
        'Prints the base URL and the HQ keys of the practice agency ("Northwind\n' +
          'Outreach", 120 companies, some inactive), then keeps running until Ctrl-C. Use\n' +
          'it from another terminal with -p sandbox.',
        [
          'agency sandbox',
          'agency sandbox --port 8099 --state ./sandbox.json',
          'agency -p sandbox companies list',
        ],
      ),
    )
    .action(run(runSandbox));
}

export interface SandboxCommandOptions {
  port?: string | undefined;
  state?: string | undefined;
  latency?: string | undefined;
  companies?: string | undefined;
  saveProfile?: boolean | undefined;
}

export const SANDBOX_PROFILE = 'sandbox';

export async function runSandbox(rt: Runtime, opts: SandboxCommandOptions): Promise<void> {
  const { ctx, out } = rt;
  const port = opts.port === undefined ? 0 : parsePort(opts.port);
  const latencyMs = opts.latency === undefined ? 0 : parseNonNegative(opts.latency, '--latency');
  const companies = optionalPositiveInt(opts.companies, '--companies');
  const { startSandbox } = await import('../../sandbox/index.js');
  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({
      port,
      statePath: opts.state,
      latencyMs,
      seed: companies === undefined ? undefined : { companies },
      // Tests pass a known (canary) key this way; there is deliberately no flag for keys.
      hqKey: ctx.sandboxSeedKey,
    });
  } catch (error) {
    throw startFailure(error, port, opts.state);
  }

  const saveProfile = opts.saveProfile !== false;
  let replaced: string | undefined;
  if (saveProfile) {
    await rt.config.update((config) => {
      const before = config.profiles[SANDBOX_PROFILE]?.base_url;
      if (before && before !== sandbox.baseUrl) replaced = before;
      config.profiles[SANDBOX_PROFILE] = { api_key: sandbox.hqKey, base_url: sandbox.baseUrl };
    });
  }
  // Another sandbox may still be running there: say that the profile now points here.
  if (replaced)
    out.warn(`The "${SANDBOX_PROFILE}" profile pointed at ${replaced}; it now points at this sandbox.`);
  if (out.json) {
    out.out(
      `${JSON.stringify({ base_url: sandbox.baseUrl, hq_key: sandbox.hqKey, profile: saveProfile ? SANDBOX_PROFILE : null, users: sandbox.users.map((u) => ({ name: u.name, email: u.email, hq_key: u.hqKey })) })}\n`,
    );
  } else {
    out.line(`base_url\t${sandbox.baseUrl}`);
    out.line(`hq_key\t${sandbox.hqKey}`);
    for (const user of sandbox.users.slice(1)) out.line(`other_user\t${user.name}\t${user.hqKey}`);
    out.info(
      `Sandbox running at ${sandbox.baseUrl}${opts.state ? ` (state in ${opts.state})` : ' (state in memory)'}.`,
    );
    if (saveProfile)
      out.info(`Saved profile "${SANDBOX_PROFILE}": try  agency -p ${SANDBOX_PROFILE} companies list`);
    out.info('Press Ctrl-C to stop.');
  }

  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sandbox.close();
  out.info('Sandbox stopped.');
}

/** A busy port or a damaged state file is the user's to fix, not a bug of ours: say so plainly. */
function startFailure(error: unknown, port: number, state: string | undefined): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    return new UsageError(
      `Cannot listen on 127.0.0.1:${port}: ${code === 'EADDRINUSE' ? 'the port is in use' : 'permission denied'}.`,
      { hint: 'Choose another --port, or leave --port out to get a free one.' },
    );
  }
  if (state !== undefined && error instanceof Error) {
    const message = error.message.includes(state)
      ? error.message
      : `Cannot use the state file ${state}: ${error.message}`;
    return new ConfigError(`${message}.`);
  }
  return error;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || port > 65535)
    throw new UsageError(`Invalid port ${JSON.stringify(value)}: expected 0 to 65535.`);
  return port;
}

function parseNonNegative(value: string, option: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > 600_000)
    throw new UsageError(`Invalid ${option} ${JSON.stringify(value)}: expected milliseconds.`);
  return n;
}
