/** `agency sandbox`: runs the local simulator until Ctrl-C, and saves a "sandbox" profile pointing at it. */
import type { Command } from '@commander-js/extra-typings';
import { ConfigError, UsageError } from '../../errors.js';
import { groupDigits } from '../../output/text.js';
import type { Runtime } from '../../runtime.js';
import type { RequestLogEntry, Sandbox } from '../../sandbox/index.js';
import type { PreparationMs } from '../../sandbox/resources/reports.js';
import { helpText, type OptionsOf, printsNoList, type Run } from '../command.js';

const configure = (sandbox: Command) =>
  printsNoList(sandbox)
    .option('--port <n>', 'port on 127.0.0.1 (default: a free one)')
    .option('--state <file>', 'keep the state in this file (reloaded on start)')
    .option('--latency <ms>', "processing time of each request (in its account's slot)")
    .option('--rtt <ms>', 'network round trip of each request (outside that slot)')
    .option(
      '--report-ms <ms>',
      'time a campaign report takes to be ready (default 0, after 2 polls); MIN-MAX spreads it',
    )
    .option('--companies <n>', 'companies to seed (default 120; 0 = an empty agency)')
    .option('--docs-mode', "answer as the service's docs show (webhooks only at /v2, older paging names)")
    .option('--quiet', 'no log line per request on stderr')
    .option('--no-save-profile', 'do not save the "sandbox" profile')
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints the base URL and the HQ keys of the practice agency ("Northwind
          Outreach", 120 companies, some inactive): a table on a terminal, "name<TAB>
          value" lines when piped, one JSON line with --json. Then logs each request on
          stderr (method, path, status, ms; not with --quiet or --json) until Ctrl-C.
          Use it from another terminal with -p sandbox. A "sandbox" profile that points
          anywhere but this machine is kept: the sandbox is then saved as "sandbox-local"
          and says so.

          Faults, to see how your scripts cope: POST a rule to
          http://127.0.0.1:<port>/_sandbox/faults,
          e.g. {"kind": "status", "status": 503, "path": "/v2/agency/*", "times": 2}
          (method, path with * wildcards, times: default 1, 0 = every request). Kinds:
          status, status-after, html, reset-before, reset-after, stall, truncated,
          not-json, empty, empty-after, large-page, repeat-page, v1-nothing, deep,
          report-failed, report-pending.
          GET /_sandbox/faults lists them, DELETE disarms them all; /_sandbox/requests
          and /_sandbox/stats show what the sandbox received.
        `,
        examples: `
          $ agency sandbox
          $ agency sandbox --port 8099 --state ./sandbox.json
          $ agency sandbox --rtt 30 --latency 20 --companies 300
          $ agency sandbox --companies 0 --docs-mode
          $ agency -p sandbox companies list
          $ curl -X POST http://127.0.0.1:8099/_sandbox/faults -d '{"kind":"reset-after","method":"POST"}'
        `,
      }),
    );

export type SandboxCommandOptions = OptionsOf<typeof configure>;

/** Seeding more than this is a typo, not a practice agency (and would take the memory with it). */
const MAX_SEEDED_COMPANIES = 100_000;

export const SANDBOX_PROFILE = 'sandbox';

export async function runSandbox(rt: Runtime, opts: SandboxCommandOptions): Promise<void> {
  const { ctx, out } = rt;
  const port = opts.port === undefined ? 0 : parsePort(opts.port);
  const latencyMs = opts.latency === undefined ? 0 : parseNonNegative(opts.latency, '--latency');
  const rttMs = opts.rtt === undefined ? 0 : parseNonNegative(opts.rtt, '--rtt');
  // A preparation time replaces the default pending polls: a report is ready when the time has passed.
  const reports =
    opts.reportMs === undefined
      ? undefined
      : { preparationMs: parsePreparation(opts.reportMs), pendingPolls: 0 };
  const companies = opts.companies === undefined ? undefined : parseCompanies(opts.companies);
  // A script reading the JSON line is not a person watching: it gets no log (and never a full pipe).
  const logRequests = opts.quiet !== true && !out.json;
  if (opts.state !== undefined) {
    // A folder is no state file: said as for the other files the tool writes (--html, --keys-out).
    const { stat } = await import('node:fs/promises');
    const { folderNotFile } = await import('../../input/output-file.js');
    if ((await stat(opts.state).catch(() => undefined))?.isDirectory())
      throw folderNotFile('--state', opts.state, 'sandbox.json');
  }
  const { startSandbox, bannerData } = await import('../../sandbox/index.js');
  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({
      port,
      statePath: opts.state,
      latencyMs,
      rttMs,
      reports,
      docsMode: opts.docsMode === true,
      seed: companies === undefined ? undefined : { companies },
      // Tests pass a known (canary) key this way; there is deliberately no flag for keys.
      hqKey: ctx.sandboxSeedKey,
      onRequest: logRequests ? (entry) => out.info(logLine(entry)) : undefined,
    });
  } catch (error) {
    throw startFailure(error, port, opts.state);
  }

  const saveProfile = opts.saveProfile !== false;
  let profile = SANDBOX_PROFILE;
  let replaced: string | undefined;
  let kept: string | undefined;
  if (saveProfile) {
    await rt.config.update((config) => {
      // A "sandbox" profile that points anywhere but this machine holds someone's real key: it is kept,
      // and this sandbox goes under the first name that is free or points at this machine too.
      profile = sandboxProfileName(config.profiles);
      if (profile !== SANDBOX_PROFILE) kept = config.profiles[SANDBOX_PROFILE]?.base_url;
      const before = config.profiles[profile]?.base_url;
      if (before && before !== sandbox.baseUrl) replaced = before;
      config.profiles[profile] = { api_key: sandbox.hqKey, base_url: sandbox.baseUrl };
    });
  }
  if (kept)
    out.warn(
      `The "${SANDBOX_PROFILE}" profile points at ${kept}, not at this machine: it is kept; this sandbox is saved as the profile "${profile}".`,
    );
  // Another sandbox may still be running there: say that the profile now points here.
  if (replaced) out.warn(`The "${profile}" profile pointed at ${replaced}; it now points at this sandbox.`);
  if (out.json) {
    out.out(
      `${JSON.stringify({ base_url: sandbox.baseUrl, hq_key: sandbox.hqKey, profile: saveProfile ? profile : null, users: sandbox.users.map((u) => ({ name: u.name, email: u.email, hq_key: u.hqKey })) })}\n`,
    );
  } else if (rt.terminal.stdoutIsTTY) {
    // On a terminal: the banner as a table (the keys whole: this is where the user asked for them).
    out.record(Object.fromEntries(bannerData(sandbox).rows.map((row) => [row.label, row.value])));
  } else {
    out.line(`base_url\t${sandbox.baseUrl}`);
    out.line(`hq_key\t${sandbox.hqKey}`);
    for (const user of sandbox.users.slice(1)) out.line(`other_user\t${user.name}\t${user.hqKey}`);
    out.info(
      `Sandbox running at ${sandbox.baseUrl}${opts.state ? ` (state in ${opts.state})` : ' (state in memory)'}.`,
    );
  }
  if (!out.json) {
    if (saveProfile) out.info(`Saved profile "${profile}": try  agency -p ${profile} companies list`);
    out.info('Press Ctrl-C to stop.');
  }

  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sandbox.close();
  out.info('Sandbox stopped.');
}

/** The profile this sandbox is saved as: "sandbox", unless that one points elsewhere than this machine. */
function sandboxProfileName(profiles: Record<string, { base_url?: string | undefined }>): string {
  const free = (name: string) => {
    const url = profiles[name]?.base_url;
    return profiles[name] === undefined || (url !== undefined && onThisMachine(url));
  };
  if (free(SANDBOX_PROFILE)) return SANDBOX_PROFILE;
  for (let n = 1; ; n++) {
    const name = n === 1 ? `${SANDBOX_PROFILE}-local` : `${SANDBOX_PROFILE}-local-${n}`;
    if (free(name)) return name;
  }
}

/** A base URL on this machine (a sandbox's), as opposed to the service or another host. */
function onThisMachine(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\./.test(host);
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

/** `12:03:04  GET /rest/v2/agency/companies?page=2  200  21 ms` (status "-" when no answer was sent). */
export function logLine(entry: RequestLogEntry, now = new Date()): string {
  const time = now.toTimeString().slice(0, 8);
  const fault = entry.fault ? `  (fault: ${entry.fault})` : '';
  return `${time}  ${entry.method} ${entry.path}  ${entry.status || '-'}  ${Math.round(entry.ms)} ms${fault}`;
}

function parseCompanies(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > MAX_SEEDED_COMPANIES)
    throw new UsageError(
      `Invalid --companies ${JSON.stringify(value)}: expected 0 to ${groupDigits(MAX_SEEDED_COMPANIES)}.`,
    );
  return n;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || port > 65535)
    throw new UsageError(`Invalid port ${JSON.stringify(value)}: expected 0 to 65535.`);
  return port;
}

/** `--report-ms 2000`, or `1000-3000`: each report's time spread evenly over the range. */
function parsePreparation(value: string): PreparationMs {
  const range = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(value);
  if (!range) return parseNonNegative(value, '--report-ms');
  const [min, max] = [
    parseNonNegative(range[1] ?? '', '--report-ms'),
    parseNonNegative(range[2] ?? '', '--report-ms'),
  ];
  if (min > max)
    throw new UsageError(`Invalid --report-ms ${JSON.stringify(value)}: MIN-MAX with MIN ≤ MAX.`);
  return { min, max };
}

function parseNonNegative(value: string, option: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > 600_000)
    throw new UsageError(`Invalid ${option} ${JSON.stringify(value)}: expected milliseconds.`);
  return n;
}

export function define(sandbox: Command, run: Run): void {
  configure(sandbox).action(run(runSandbox, { key: false }));
}
