/**
 * The command tree, and one run of one command line beneath every host: `execute` parses the line,
 * runs the command with a runtime (an already resolved context when the host gives one) and returns
 * what happened as a value — the exit code, the typed error, and, for a host that asks, the results
 * and the notes and warnings. It prints no error: the process (src/cli.ts) and `agency mcp`
 * (src/mcp/) each render the outcome in their own terms. Nothing here imports a host.
 */
import { Command, CommanderError, Option } from '@commander-js/extra-typings';
import { onAbort } from './abort-watch.js';
import {
  type ActionCommand,
  joinValues,
  printsList,
  type Run,
  refuseListOptions,
  refuseRepeatedValues,
} from './commands/command.js';
import { explainCompanyForms } from './commands/company-forms.js';
import { addCommands, commandsByGroup } from './commands/index.js';
import { configFileIn } from './config-path.js';
import { type Context, type Environment, type GlobalFlags, readEnvironment } from './context.js';
import { AgencyError, ExitCode, UsageError } from './errors.js';
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
import { networkHint, runFacts } from './output/network-hints.js';
import type { ProgressSink } from './output/progress.js';
import { StdoutWatch } from './output/stdout-watch.js';
import { keepCloseSuggestion } from './output/suggest.js';
import type { RunRecord, Writer } from './output/writer.js';
import { createRuntime, type IO, openOutput, type Runtime, type Transport } from './runtime.js';
import { option } from './terms.js';
import { VERSION } from './version.js';

export interface ExecuteOptions {
  /** Aborts the run (Ctrl-C for the process, the client's cancellation for a tool call). */
  signal: AbortSignal;
  /** The environment as read once by the host; read from `io` when not given. */
  environment?: Environment | undefined;
  /** An already resolved context (the profile, key and base URL a server announced); else resolved per run. */
  context?: Context | undefined;
  /** Replaces the HTTP layer (tests). */
  transport?: Transport | undefined;
  /** Progress for a host that shows it itself (MCP notifications) instead of a terminal line. */
  progress?: ProgressSink | undefined;
  /** true: --json's results are handed over as values (RunOutcome.results) instead of printed. */
  captureResults?: boolean | undefined;
  /** Each writer the run opens (the process clears their progress lines when a signal ends it at once). */
  onOutput?: ((out: Writer) => void) | undefined;
  /** What became of stdout, watched by the host (the process decides the exit code from it); else the run's own. */
  stdout?: StdoutWatch | undefined;
}

export interface RunOutcome extends RunRecord {
  /** The run's exit code (0, or its error's): a host adds its own reasons (a signal, stdout that failed). */
  code: number;
  /** What ended the run, typed (a commander error becomes a UsageError); undefined when it ended well. */
  error?: unknown;
  /** A better hint than the error's own, from what only the run knows (the sandbox that is not running). */
  hint?: string | undefined;
  /** commander has printed the error's message itself (a usage error of the command line). */
  printed: boolean;
  /** The global options as parsed (how the process renders the error: --json, --debug). */
  flags: GlobalFlags;
  /**
   * The run's writer, for what the host says after the run (the error that ended it): the command's
   * own, or one opened with the parsed flags when the run ended before a command started.
   */
  output(): Writer;
}

export async function execute(argv: string[], io: IO, options: ExecuteOptions): Promise<RunOutcome> {
  const environment = options.environment ?? readEnvironment(io);
  const stdout = options.stdout ?? new StdoutWatch(io.stdout);
  const record: RunRecord = { notes: [], warnings: [], ...(options.captureResults ? { results: [] } : {}) };
  let flags: GlobalFlags = {};
  const runtimes: { runtime: Runtime; close(): Promise<void> }[] = [];
  const run: Run =
    (handler, runOptions) =>
    async (...args) => {
      const command = args[args.length - 1] as ActionCommand;
      flags = command.optsWithGlobals() as GlobalFlags;
      refuseListOptions(command, flags);
      const opened = createRuntime(flags, environment, io, options.signal, {
        transport: options.transport,
        progress: options.progress,
        context: options.context,
        record,
        stdout,
      });
      runtimes.push(opened);
      options.onOutput?.(opened.runtime.out);
      // The context (and a key in the keyring) is resolved before the handler starts: a bad setting stops any command alike.
      if (runOptions?.context !== false) await opened.ready({ key: runOptions?.key !== false });
      const call = handler as (rt: Runtime, ...rest: unknown[]) => Promise<void>;
      await call(opened.runtime, ...args.slice(0, -1));
    };

  const configFile = configFileIn(environment.configDir);
  const program = await buildProgram(io, run, commandToRun(argv), configFile);
  argv = versionAsFlag(program, argv); // bin/agency.js answers `agency version` alone without the program
  // A stopped run (a signal, stdout that cannot be written) starts nothing new; a spinner is cleared.
  const clearProgress = () => {
    for (const { runtime } of runtimes) runtime.out.clearProgress();
  };
  const stopClearing = onAbort(options.signal, clearProgress);
  let late: Writer | undefined;
  const outcome: RunOutcome = {
    ...record,
    code: ExitCode.ok,
    printed: false,
    flags,
    output: () => {
      late ??= runtimes.at(-1)?.runtime.out ?? openOutput(io, outcome.flags, environment, stdout).out;
      return late;
    },
  };
  try {
    if (argv.length === 0) {
      const { overview } = await import('./output/overview.js');
      io.stdout.write(overview(program, commandsByGroup(), helpWidth(io.stdout)));
    } else if (argv[0] === 'help' && argv[1] === HELP_TOPIC && argv.length === 2) {
      io.stdout.write(wrapText(environmentHelp(program, configFile), helpWidth(io.stdout)));
    } else {
      const words = argv[0] === 'help' ? helpCommand(program, argv.slice(1)) : argv;
      await program.parseAsync(words, { from: 'user' });
    }
  } catch (error) {
    clearProgress();
    // A parse error comes before any action reads the global options, but commander has parsed them (--json).
    outcome.flags = { ...(program.opts() as GlobalFlags), ...flags };
    Object.assign(outcome, failure(error));
    const facts = runFacts(outcome.flags, environment, runtimes.at(-1)?.runtime);
    outcome.hint = outcome.error === undefined ? undefined : networkHint(outcome.error, facts);
  } finally {
    clearProgress();
    stopClearing();
    await Promise.allSettled(runtimes.map((runtime) => runtime.close()));
  }
  if (outcome.error === undefined) outcome.flags = { ...(program.opts() as GlobalFlags), ...flags };
  return outcome;
}

/** What an error that ended the run means: help that was asked for is no failure. */
function failure(error: unknown): Pick<RunOutcome, 'code' | 'error' | 'printed'> {
  if (!(error instanceof CommanderError)) {
    return { code: error instanceof AgencyError ? error.exitCode : ExitCode.failure, error, printed: false };
  }
  // commander marks help that was asked for (`help`, `--help`) with exit code 0; help shown because a
  // subcommand is missing (`agency companies`) is a usage error.
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0)
    return { code: ExitCode.ok, printed: false };
  // commander has already printed its message (with a suggestion for a mistyped command); a host that
  // names arguments, not flags, gets each option it names as a reference (src/terms.ts).
  const usage = new UsageError(commanderText(error.message.replace(/^error: /, '')));
  return { code: usage.exitCode, error: usage, printed: true };
}

/** "option '-s, --severity <level>' argument …": the option as a reference, said as commander said it on the command line. */
export function commanderText(message: string): string {
  return message.replace(/option '([^']*)'( argument(?= '))?/g, (said, flags: string) => {
    const long = /--([a-z][a-z0-9-]*)/i.exec(flags)?.[1];
    return long === undefined ? said : option(long, said);
  });
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
  explainCompanyForms(program);
  return program;
}
