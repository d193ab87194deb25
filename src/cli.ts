/**
 * The program: global options, the table of commands, signals, and errors → text and exit codes. Each
 * command lives in its room, src/commands/<name>/, which is loaded only when that command runs (or when
 * help or completion needs every command), so `agency --help` pays for none of them.
 */
import { setMaxListeners } from 'node:events';
import { Command, CommanderError } from '@commander-js/extra-typings';
import type { ActionCommand, Room, Run } from './commands/room.js';
import { type Environment, type GlobalFlags, readEnvironment } from './context.js';
import { ExitCode, UsageError } from './errors.js';
import { reportError } from './output/error-report.js';
import { createRuntime, type IO, openOutput, type Runtime, type Transport } from './runtime.js';
import { VERSION } from './version.js';

export type { IO } from './runtime.js';

/** Every top-level command, in the order help lists them: its name, one line, and its room. */
const COMMANDS: readonly (readonly [name: string, summary: string, room: () => Promise<Room>])[] = [
  ['companies', 'list and create client companies', () => import('./commands/companies/index.js')],
  ['keys', 'list and create API keys of client companies', () => import('./commands/keys/index.js')],
  ['me', 'show who the key belongs to (HQ or client key)', () => import('./commands/me/index.js')],
  [
    'mailboxes',
    'list the mailboxes of the HQ account or a company',
    () => import('./commands/mailboxes/index.js'),
  ],
  [
    'webhooks',
    'list webhooks; subscribe or unsubscribe many accounts at once',
    () => import('./commands/webhooks/index.js'),
  ],
  [
    'campaigns',
    'list the campaigns of the HQ account or a company',
    () => import('./commands/campaigns/index.js'),
  ],
  [
    'inventory',
    'audit keys, mailboxes, webhooks and campaigns',
    () => import('./commands/inventory/index.js'),
  ],
  [
    'blacklist',
    "list and add to the agency's blacklist of domains and addresses",
    () => import('./commands/blacklist/index.js'),
  ],
  ['plan', 'what it takes to reach the state a file describes', () => import('./commands/plan/index.js')],
  ['apply', 'make the changes that `plan` shows', () => import('./commands/apply/index.js')],
  ['api', 'make a raw API call and print the response body', () => import('./commands/api/index.js')],
  ['login', 'check an API key and save it in a profile', () => import('./commands/login/index.js')],
  ['logout', "remove a profile's API key", () => import('./commands/logout/index.js')],
  ['profiles', 'list, select and remove config profiles', () => import('./commands/profiles/index.js')],
  ['sandbox', 'run a practice agency API on this machine', () => import('./commands/sandbox/index.js')],
  [
    'completion',
    'print tab completion for bash, zsh or fish',
    () => import('./commands/completion/index.js'),
  ],
];

/** `transport` replaces the HTTP layer (tests: a registry of expected requests, test/helpers/http-mock.ts). */
export async function main(argv: string[], io: IO, transport?: Transport): Promise<number> {
  const interrupt = new AbortController();
  // Every request in flight or waiting for its account's turn listens for Ctrl-C: a fan-out has dozens.
  setMaxListeners(0, interrupt.signal);
  const environment = readEnvironment(io);
  let flags: GlobalFlags = {};
  const runtimes: { close(): Promise<void> }[] = [];

  const run: Run =
    (handler, options) =>
    async (...args) => {
      const command = args[args.length - 1] as ActionCommand;
      flags = command.optsWithGlobals() as GlobalFlags;
      const opened = createRuntime(flags, environment, io, interrupt.signal, transport);
      runtimes.push(opened);
      // The context is resolved before the handler starts (a bad setting stops any command the same way).
      if (options?.context !== false) void opened.runtime.ctx;
      const call = handler as (rt: Runtime, ...rest: unknown[]) => Promise<void>;
      await call(opened.runtime, ...args.slice(0, -1));
    };

  const program = await buildProgram(io, run, commandToRun(argv));
  const stopSignals = onSignals(() => interrupt.abort());
  try {
    if (argv.length === 0) {
      io.stdout.write((await import('./output/overview.js')).overview(program));
      return ExitCode.ok;
    }
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    // A parse error comes before any action reads the global options, but commander has parsed them (--json).
    return exitCode(error, { ...(program.opts() as GlobalFlags), ...flags }, io, environment);
  } finally {
    stopSignals();
    await Promise.allSettled(runtimes.map((runtime) => runtime.close()));
  }
}

function exitCode(error: unknown, flags: GlobalFlags, io: IO, environment: Environment): number {
  const { out } = openOutput(io, flags, environment);
  if (error instanceof CommanderError) {
    // commander marks help that was asked for (`help`, `--help`) with exit code 0; help shown because a
    // subcommand is missing (`agency companies`) is a usage error.
    if (
      error.code === 'commander.helpDisplayed' ||
      error.code === 'commander.version' ||
      error.exitCode === 0
    ) {
      return ExitCode.ok;
    }
    // commander has already printed its message (with a suggestion for a mistyped command).
    return reportError(out, new UsageError(error.message.replace(/^error: /, '')), { printed: true });
  }
  return reportError(out, error, { debug: flags.debug === true });
}

/**
 * First Ctrl-C asks the running command to stop cleanly (a POST already sent may finish so that its
 * outcome is reported); a second one, or a command still busy after 10 s, ends the process.
 */
function onSignals(abort: () => void): () => void {
  let count = 0;
  const handler = () => {
    count++;
    abort();
    if (count > 1) process.exit(ExitCode.interrupted);
    setTimeout(() => process.exit(ExitCode.interrupted), 10_000).unref();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

/** Commands that describe other commands, so they need every command built in full. */
const NEEDS_WHOLE_TREE = new Set(['help', 'completion']);

/**
 * The top-level command `argv` runs, whose room alone is loaded. Undefined (load every room) for `agency`
 * alone, a global option first, and `help`/`completion`. An unknown word is fine: every top-level name is
 * always registered, so commander still suggests the nearest one.
 */
function commandToRun(argv: readonly string[]): string | undefined {
  const first = argv[0];
  if (first === undefined || first.startsWith('-') || NEEDS_WHOLE_TREE.has(first)) return undefined;
  return first;
}

/**
 * The program with every top-level command's name and summary (for help and errors), and the options,
 * subcommands and action of `only` alone (every command without it).
 */
export async function buildProgram(io: Pick<IO, 'stdout' | 'stderr'>, run: Run, only?: string) {
  const program = new Command('agency')
    .description('Manage the client companies, API keys, mailboxes and webhooks of a Woodpecker\nagency.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    // Settings below are copied only to subcommands created after them, so they come first.
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .showSuggestionAfterError(true)
    .showHelpAfterError('(add --help for usage and examples)')
    // Every command's help also lists --profile, --json and the other global options.
    .configureHelp({ showGlobalOptions: true })
    .option('-p, --profile <name>', 'config profile to use (env AGENCY_PROFILE)')
    .option('--base-url <url>', 'API base address including /rest (env AGENCY_BASE_URL)')
    .option('--json', 'print machine-readable JSON on stdout')
    .option('--debug', 'log each HTTP request and response to stderr, secrets redacted (env AGENCY_DEBUG=1)')
    .option('--no-color', 'never use colour (env NO_COLOR)')
    .option('--timeout <seconds>', 'deadline per HTTP request, default 30 (env AGENCY_TIMEOUT)')
    .addHelpText(
      'after',
      `
Examples:
  $ agency login
  $ agency companies create --name "Acme Ltd"
  $ KEY=$(agency keys create 1042 --label zapier)
  $ agency companies list --active --json | jq -r '.[].id'
  $ agency mailboxes --company 1042

Run \`agency\` alone for an overview, and \`agency <command> --help\` for a
command's options and examples.

Exit codes: 0 ok, 1 API or network error, 2 bad input (nothing sent),
3 missing key or 401/403, 4 not found (also an unknown company name), 5 conflict
(inactive company), 6 changes pending (plan --exit-code), 130 interrupted.`,
    );
  const rooms = COMMANDS.map(([name, summary, room]) => ({
    name,
    room,
    command: program.command(name).description(summary),
  }));
  const wanted = rooms.filter(({ name }) => only === undefined || only === name);
  const loaded = await Promise.all(wanted.map(({ room }) => room()));
  for (const [i, { command }] of wanted.entries()) loaded[i]?.define(command, run);
  return program;
}
