/**
 * The program: global options, signals, and errors → text and exit codes. The commands are registered in
 * src/commands/index.ts; each one's file is loaded only when that command runs (or when help or
 * completion needs every command), so `agency --help` pays for none of them.
 */
import { Command, CommanderError, Option } from '@commander-js/extra-typings';
import { onAbort } from './abort-watch.js';
import { startRun } from './api/limit.js';
import {
  type ActionCommand,
  joinValues,
  printsList,
  type Run,
  refuseListOptions,
  refuseRepeatedValues,
} from './commands/command.js';
import { addCommands, commandsByGroup } from './commands/index.js';
import { configFileIn } from './config-path.js';
import { type Environment, type GlobalFlags, readEnvironment } from './context.js';
import { ExitCode, UsageError } from './errors.js';
import { reportError } from './output/error-report.js';
import {
  commandToRun,
  environmentHelp,
  environmentSection,
  globalOptionsBlock,
  HELP_TOPIC,
  helpCommand,
  helpSettings,
  PROGRAM_HELP,
  versionAsFlag,
} from './output/help-sections.js';
import { helpWidth, wrapText } from './output/help-wrap.js';
import { networkHint, type RunFacts, runFacts } from './output/network-hints.js';
import { watchStdout } from './output/stdout-watch.js';
import { keepCloseSuggestion } from './output/suggest.js';
import { terminalSafe } from './output/text.js';
import { createRuntime, type Host, type IO, openOutput, type Runtime, type Transport } from './runtime.js';
import { HOSTED_SIGNALS, onStopSignals } from './stop-signals.js';
import { VERSION } from './version.js';

export type { IO } from './runtime.js';

/**
 * `transport` replaces the HTTP layer (tests: a registry of expected requests, test/helpers/http-mock.ts).
 * `host`: this run is one of many in a long-lived process (`agency mcp`), which keeps the per-account
 * gates and the signal handlers for its whole life and may run several at once.
 */
export async function main(argv: string[], io: IO, transport?: Transport, host?: Host): Promise<number> {
  if (!host) startRun(); // a 429 of an earlier run in this process must not slow this one down
  const interrupt = new AbortController();
  // Every request in flight or waiting for its account's turn listens for Ctrl-C through abort-watch.ts
  // (one listener on the signal, however many requests).
  if (host?.signal.aborted) interrupt.abort();
  const stopHost = host ? onAbort(host.signal, () => interrupt.abort()) : undefined;
  const environment = readEnvironment(io);
  let flags: GlobalFlags = {};
  const runtimes: { runtime: Runtime; close(): Promise<void> }[] = [];

  const run: Run =
    (handler, options) =>
    async (...args) => {
      const command = args[args.length - 1] as ActionCommand;
      flags = command.optsWithGlobals() as GlobalFlags;
      refuseListOptions(command, flags);
      const opened = createRuntime(flags, environment, io, interrupt.signal, transport, host?.progress);
      runtimes.push(opened);
      // The context is resolved before the handler starts (a bad setting stops any command the same way).
      if (options?.context !== false) void opened.runtime.ctx;
      const call = handler as (rt: Runtime, ...rest: unknown[]) => Promise<void>;
      await call(opened.runtime, ...args.slice(0, -1));
    };

  const configFile = configFileIn(environment.configDir);
  const program = await buildProgram(io, run, commandToRun(argv), configFile);
  argv = versionAsFlag(program, argv); // bin/agency.js answers `agency version` alone without the program
  // A signal or a stdout that cannot be written stops the run (nothing new starts); a spinner is cleared.
  const clearProgress = () => {
    for (const { runtime } of runtimes) runtime.out.clearProgress();
  };
  const signals = host ? HOSTED_SIGNALS : onStopSignals(() => interrupt.abort(), clearProgress);
  const stdout = watchStdout(io.stdout);
  stdout.onFailure(() => interrupt.abort());
  let code: number = ExitCode.ok;
  try {
    if (argv.length === 0) {
      const { overview } = await import('./output/overview.js');
      io.stdout.write(overview(program, commandsByGroup(), helpWidth(io.stdout)));
    } else if (argv[0] === 'help' && argv[1] === HELP_TOPIC && argv.length === 2) {
      io.stdout.write(wrapText(environmentHelp(program, configFile), helpWidth(io.stdout)));
    } else {
      await program.parseAsync(argv[0] === 'help' ? helpCommand(program, argv.slice(1)) : argv, {
        from: 'user',
      });
    }
  } catch (error) {
    clearProgress();
    // A parse error comes before any action reads the global options, but commander has parsed them (--json).
    const allFlags = { ...(program.opts() as GlobalFlags), ...flags };
    // After stdout failed, that failure is the news (the error is most likely the stop it caused).
    if (!stdout.failed) {
      const facts = runFacts(allFlags, environment, runtimes.at(-1)?.runtime);
      code = exitCode(error, allFlags, io, environment, facts);
    }
  } finally {
    clearProgress();
    signals.stop();
    stopHost?.();
    await Promise.allSettled(runtimes.map((runtime) => runtime.close()));
  }
  await stdout.flushed();
  return stdout.exitCode(
    signals.exitCode(code),
    (error) =>
      reportError(openOutput(io, { ...(program.opts() as GlobalFlags), ...flags }, environment).out, error),
    // The writer says nothing after a closed pipe; this note (what it cost) is written past it.
    (text) => io.stderr.write(terminalSafe(text)),
  );
}

function exitCode(
  error: unknown,
  flags: GlobalFlags,
  io: IO,
  environment: Environment,
  facts?: RunFacts,
): number {
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
  const hint = facts && networkHint(error, facts);
  return reportError(out, error, { debug: flags.debug === true, ...(hint ? { hint } : {}) });
}

/**
 * The program with every top-level command's name and summary (for help and errors), and the options,
 * subcommands and action of `only` alone (every command without it).
 */
export async function buildProgram(
  io: Pick<IO, 'stdout' | 'stderr'>,
  run: Run,
  only?: string,
  configFile?: string,
) {
  const width = helpWidth(io.stdout);
  const program = new Command('agency')
    .description('Manage the client companies, API keys, mailboxes and webhooks of a Woodpecker agency.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    // Settings below are copied only to subcommands created after them, so they come first.
    .exitOverride()
    .configureOutput({
      // Help (and the text added after it) is written for 80 columns; reflowed to the terminal's width
      // here, in one place, without breaking words (src/output/help-wrap.ts says why).
      writeOut: (text) => io.stdout.write(wrapText(text, width)),
      writeErr: (text) => io.stderr.write(text),
      getOutHelpWidth: () => width,
      // commander suggests anything within 3 edits ("bogus" → "logout"): keep near misses only.
      outputError: (text, write) => write(keepCloseSuggestion(text)),
    })
    .showSuggestionAfterError(true)
    .showHelpAfterError('(add --help for usage and examples)')
    .configureHelp(helpSettings(width))
    .option('-p, --profile <name>', 'config profile to use (env AGENCY_PROFILE)')
    .option('--base-url <url>', 'API base address including /rest (env AGENCY_BASE_URL)')
    .addOption(new Option('--json', 'print machine-readable JSON on stdout').conflicts('csv'))
    .option('--csv', 'print a list as CSV (RFC 4180, header row) on stdout, for spreadsheets')
    .option(
      '--columns <names>',
      'choose and order the columns of a list, e.g. --columns id,name (repeatable: --columns id --columns name is the same); "all" for every column (and every field with --json)',
      joinValues,
    )
    .option('-q, --quiet', 'only errors, warnings and "note:" lines on stderr (no confirmations or counts)')
    .option('--debug', 'log each HTTP request and response to stderr, secrets redacted (env AGENCY_DEBUG=1)')
    .option('--no-color', 'never use colour (env NO_COLOR)')
    .option('--timeout <seconds>', 'deadline per HTTP request, default 30 (env AGENCY_TIMEOUT)')
    .addHelpText('after', PROGRAM_HELP);
  program.addHelpText('afterAll', ({ command }) =>
    command === program ? '' : globalOptionsBlock(program, printsList(command)),
  );
  // The program's own help only (a subcommand's help lists the global options, not this section).
  if (configFile !== undefined) program.addHelpText('after', `\n${environmentSection(configFile)}`);
  await addCommands(program, run, only);
  // `agency version` is no command (main answers it), but a typo of it deserves the suggestion; for
  // the program alone (its subcommands keep the settings they copied).
  program.configureOutput({ outputError: (text, write) => write(keepCloseSuggestion(text, ['version'])) });
  refuseRepeatedValues(program);
  return program;
}
