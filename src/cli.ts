/**
 * Builds the commander program, registers every command, and turns errors into text and exit codes.
 * Command code is loaded with import() inside each action, so `agency --help` pays for none of it.
 */
import { Command, CommanderError, Option } from '@commander-js/extra-typings';
import { AgencyClient, lazyHttp } from './api/client.js';
import type { Context, GlobalFlags, IO } from './context.js';
import { createWriter, requireApiKey, resolveContext } from './context.js';
import { AgencyError, ExitCode, InterruptedError } from './errors.js';
import type { Writer } from './output/writer.js';
import { VERSION } from './version.js';

/** What every command receives: the resolved context and a factory for API clients. */
export interface Runtime {
  ctx: Context;
  /**
   * A client for the context's key and base URL; `connections` > 1 only for fan-out across companies.
   * `interruptible: false`: Ctrl-C does not abort a request in flight, so that a command can learn and
   * report the outcome of a POST the service may already have processed (it starts no new one).
   */
  api(options?: { connections?: number; apiKey?: string; interruptible?: boolean }): AgencyClient;
}

type Handler = (rt: Runtime) => Promise<void>;

export async function main(argv: string[], io: IO): Promise<number> {
  const interrupt = new AbortController();
  const state: { flags: GlobalFlags } = { flags: {} };
  const clients: AgencyClient[] = [];

  const run = async (cmd: { optsWithGlobals(): unknown }, handler: Handler) => {
    state.flags = cmd.optsWithGlobals() as GlobalFlags;
    const ctx = resolveContext(state.flags, io, interrupt.signal);
    const runtime: Runtime = {
      ctx,
      api: (options) => {
        const client = new AgencyClient(
          lazyHttp({
            baseUrl: ctx.baseUrl,
            apiKey: options?.apiKey ?? requireApiKey(ctx),
            timeoutMs: ctx.timeoutMs,
            userAgent: ctx.userAgent,
            debug: ctx.debug ? (line) => ctx.out.err(`[debug] ${line}\n`) : undefined,
            signal: options?.interruptible === false ? undefined : ctx.signal,
            connections: options?.connections,
          }),
        );
        clients.push(client);
        return client;
      },
    };
    await handler(runtime);
  };

  const program = buildProgram(io, run, commandToRun(argv));
  const stopSignals = onSignals(() => interrupt.abort());
  try {
    if (argv.length === 0) {
      io.stdout.write((await import('./commands/overview.js')).overview(program));
      return ExitCode.ok;
    }
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    // A parse error comes before any action reads the global options, but commander has parsed them (--json).
    return reportError(error, { ...(program.opts() as GlobalFlags), ...state.flags }, io);
  } finally {
    stopSignals();
    await Promise.allSettled(clients.map((c) => c.close()));
  }
}

function reportError(error: unknown, flags: GlobalFlags, io: IO): number {
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
    if (flags.json) writeJsonError(io, null, error.message.replace(/^error: /, ''));
    return ExitCode.usage;
  }
  let out: Writer;
  try {
    out = createWriter(flags, io);
  } catch {
    out = createWriter({}, io);
  }
  if (error instanceof AgencyError) {
    if (error instanceof InterruptedError) {
      out.info('Interrupted.');
    } else {
      // A hint that only repeats the service's detail is noise.
      const repeats =
        error.hint !== undefined &&
        error.message.toLowerCase().includes(error.hint.replace(/\.$/, '').toLowerCase());
      out.error(error.message, repeats ? undefined : error.hint);
    }
    if (flags.json) {
      const api = error as AgencyError & { title?: string; detail?: string };
      writeJsonError(io, error.status, error.message, api.title, api.detail);
    }
    return error.exitCode;
  }
  // A bug of ours: say so plainly, with the stack only when debugging.
  const message = error instanceof Error ? error.message : String(error);
  out.error(`unexpected internal error: ${message}`, 'Please report this with the output of --debug.');
  if (flags.debug && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  if (flags.json) writeJsonError(io, null, message);
  return ExitCode.failure;
}

function writeJsonError(
  io: IO,
  status: number | null,
  message: string,
  title?: string,
  detail?: string,
): void {
  const body = { error: { status, title: title ?? null, detail: detail ?? null, message } };
  io.stderr.write(`${JSON.stringify(body)}\n`);
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

type Run = (cmd: { optsWithGlobals(): unknown }, handler: Handler) => Promise<void>;

/** Commands that describe other commands, so they need every command built in full. */
const NEEDS_WHOLE_TREE = new Set(['help', 'completion']);

/**
 * The top-level command `argv` runs, whose options and subcommands alone are built. Undefined (build
 * every command) for `agency` alone, a global option first, and `help`/`completion`. An unknown word is
 * fine: every top-level name is always registered, so commander still suggests the nearest one.
 */
function commandToRun(argv: readonly string[]): string | undefined {
  const first = argv[0];
  if (first === undefined || first.startsWith('-') || NEEDS_WHOLE_TREE.has(first)) return undefined;
  return first;
}

/**
 * Every command, or with `only`, every top-level command's name and description (for help and errors)
 * but the options, subcommands and action of `only` alone: building them all costs about a millisecond.
 */
export function buildProgram(io: IO, run: Run, only?: string) {
  const want = (name: string) => only === undefined || only === name;
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
3 missing key or 401/403, 4 not found, 5 conflict (inactive company),
130 interrupted.`,
    );

  const companiesModule = () => import('./commands/companies.js');
  const keysModule = () => import('./commands/keys.js');
  const accountModule = () => import('./commands/account.js');
  const apiModule = () => import('./commands/api.js');
  const authModule = () => import('./commands/auth.js');
  const profilesModule = () => import('./commands/profiles.js');
  const sandboxModule = () => import('./commands/sandbox.js');
  const inventoryModule = () => import('./commands/inventory.js');

  // companies
  const companies = program.command('companies').description('list and create client companies');
  if (want('companies')) {
    companies
      .command('list')
      .description('list client companies (all pages)')
      .addOption(new Option('--active', 'only active companies').conflicts('inactive'))
      .addOption(new Option('--inactive', 'only inactive companies').conflicts('active'))
      .option('--page <n>', 'fetch only this page (50 per page)')
      .option('--limit <n>', 'stop after this many companies')
      .addHelpText(
        'after',
        `
Prints one row per company: id, name, owner, active, running campaigns, email
slots, LinkedIn slots. Piped, rows are tab-separated without a header; --json
prints the companies as the API returns them.

Examples:
  $ agency companies list
  $ agency companies list --active --json | jq -r '.[].id'
  $ agency companies list --inactive | cut -f1,2`,
      )
      .action((opts, cmd) => run(cmd, async (rt) => (await companiesModule()).listCompanies(rt, opts)));
    companies
      .command('create')
      .description('create client companies (checked, in chunks of 10)')
      .option('--name <name>', 'a company name (repeatable)', collectValues)
      .option(
        '--file <path>',
        "read names from a file, one per line ('-' = stdin; blank and # lines skipped)",
      )
      .option('--skip-existing', 'create only names that do not exist yet; report the others')
      .option('--dry-run', 'show what would be created; send no POST')
      .option('--with-keys', "include each new company's automatically created API key in the output")
      .addHelpText(
        'after',
        `
Prints the created companies (id, name, owner, active). Names are checked
before anything is sent: none empty, none twice. With more than 10 names, all
existing companies are checked first so that a name clash cannot leave a
half-done run; if a chunk still fails, the output says exactly what was
created.

Examples:
  $ agency companies create --name "Acme Ltd"
  $ agency companies create --name "Acme Ltd" --name "Blue Harbor Dental" --json
  $ agency companies create --file clients.txt --skip-existing`,
      )
      .action((opts, cmd) => run(cmd, async (rt) => (await companiesModule()).createCompanies(rt, opts)));
    companies
      .command('email-accounts')
      .description("list a company's email accounts (with the HQ key)")
      .argument('<company>', 'company id')
      .addHelpText(
        'after',
        `
Prints one row per email account: id, type, address, provider, sender name,
running campaigns, and the account's error if it has one.

Examples:
  $ agency companies email-accounts 1042
  $ agency companies email-accounts 1042 --json | jq '.[].details.email'`,
      )
      .action((company, _opts, cmd) =>
        run(cmd, async (rt) => (await companiesModule()).listEmailAccounts(rt, company)),
      );
  }

  // keys
  const keys = program.command('keys').description('list and create API keys of client companies');
  if (want('keys')) {
    keys
      .command('list')
      .description("list a company's API keys (those your user created)")
      .argument('<company>', 'company id')
      .option('--page <n>', 'fetch only this page (50 per page)')
      .option('--limit <n>', 'stop after this many keys')
      .option('--reveal', 'show whole keys in the table (piped and --json output always has them)')
      .addHelpText(
        'after',
        `
Prints one row per key: the key and its label. On a terminal the key is masked
(wpk_…1a2b) unless --reveal is given; piped output and --json always carry the
whole key, for scripts.

Examples:
  $ agency keys list 1042
  $ agency keys list 1042 --reveal
  $ agency keys list 1042 --json | jq -r '.[]|select(.label=="zapier").api_key'`,
      )
      .action((company, opts, cmd) =>
        run(cmd, async (rt) => (await keysModule()).listKeys(rt, company, opts)),
      );
    keys
      .command('create')
      .description('create an API key for one or more companies')
      .argument('[company...]', 'company ids')
      .requiredOption('--label <label>', 'label of the key, e.g. the integration it is for')
      .option('--file <path>', "read company ids from a file, one per line ('-' = stdin)")
      .addHelpText(
        'after',
        `
For one company, prints the new key alone on stdout (a confirmation goes to
stderr), so that KEY=$(agency keys create 1042 --label zapier) works. For
several, prints "company_id<TAB>api_key" lines; a failure for one company does
not stop the others, and the exit code says if any failed.

Examples:
  $ KEY=$(agency keys create 1042 --label zapier)
  $ agency keys create 1042 1043 1044 --label reporting --json
  $ agency companies list --active | cut -f1 |
      agency keys create --file - --label backup`,
      )
      .action((companyArgs, opts, cmd) =>
        run(cmd, async (rt) => (await keysModule()).createKeys(rt, companyArgs, opts)),
      );
  }

  // account-level reads
  const accountRead = (name: 'me' | 'mailboxes' | 'webhooks', description: string, examples: string) => {
    const command = program.command(name).description(description);
    if (want(name))
      command
        .option('--company <company>', 'act for this client company (HQ key + x-company-id)')
        .addHelpText('after', `\n${examples}`)
        .action((opts, cmd) => run(cmd, async (rt) => (await accountModule()).readAccount(rt, name, opts)));
  };
  accountRead(
    'me',
    'show who the key belongs to (HQ or client key)',
    'Prints the account as "field value" lines: for an HQ key the user, role and\n' +
      'agency; for a client key the company. --json prints the object as the API\n' +
      'returns it.\n\nExamples:\n' +
      '  $ agency me\n  $ agency me --company 1042\n  $ agency me --json | jq -r .agency.name',
  );
  accountRead(
    'mailboxes',
    'list the mailboxes of the HQ account or a company',
    'Prints one row per mailbox: id, type, address, sender name, daily limit, sent\n' +
      'today, and its error if it has one. An inactive company answers 409 (exit 5).\n\nExamples:\n' +
      '  $ agency mailboxes\n  $ agency mailboxes --company 1042\n  $ agency mailboxes --company 1042 --json | jq length',
  );
  accountRead(
    'webhooks',
    'list the webhooks of the HQ account or a company',
    'Prints one row per webhook: the event and the URL it calls. To audit every\n' +
      'company at once, use `agency inventory`.\n\nExamples:\n' +
      "  $ agency webhooks\n  $ agency webhooks --company 1042\n  $ agency webhooks --company 1042 --json | jq -r '.[].event'",
  );

  const inventoryCommand = program
    .command('inventory')
    .description('audit every company: keys, mailboxes, webhooks');
  if (want('inventory'))
    inventoryCommand
      .addOption(new Option('--active', 'only active companies').conflicts('inactive'))
      .addOption(new Option('--inactive', 'only inactive companies').conflicts('active'))
      .option('--concurrency <n>', 'client companies audited at once (default 4)')
      .addHelpText(
        'after',
        `
Prints one row per company: id, name, active, keys (those your user created),
mailboxes (count, types, errors), webhook events and email accounts, then a
summary on stderr. Per-company failures (an inactive company answers 409) are
part of the report. Requests on the HQ account go one at a time; each client
account is its own rate-limit bucket.

Examples:
  $ agency inventory --active
  $ agency inventory --json | jq '.[] | select(.mailboxes.errors > 0) | .id'`,
      )
      .action((opts, cmd) => run(cmd, async (rt) => (await inventoryModule()).inventory(rt, opts)));

  const apiCommand = program.command('api').description('make a raw API call and print the response body');
  if (want('api'))
    apiCommand
      .argument('<path>', 'path under the base URL, e.g. /v2/agency/companies?active=true')
      .option('-X, --method <method>', 'HTTP method (default GET, or POST with --data)')
      .option('--data <json>', "request body: JSON text, @file, or '-' for stdin")
      .option('--company <company>', 'send x-company-id for this company')
      .option('--paginate', "follow 'page' and merge every page's content into one array")
      .addHelpText(
        'after',
        `
Prints the response body (JSON, indented); an error status is reported like
any other command's.

Examples:
  $ agency api /v1/me
  $ agency api /v2/agency/companies --paginate | jq length
  $ agency api /v2/agency/companies/1042/api_keys --data '{"label":"zapier"}'`,
      )
      .action((path, opts, cmd) => run(cmd, async (rt) => (await apiModule()).rawCall(rt, path, opts)));

  const loginCommand = program.command('login').description('check an API key and save it in a profile');
  if (want('login'))
    loginCommand
      .option('--no-verify', 'save without checking the key with GET /v1/me')
      .addHelpText(
        'after',
        `
In a terminal, asks for the key without showing it; piped, reads the first
line of stdin. Then checks the key (GET /v1/me) and says whether it is an HQ
key or a client key, and of which agency; a key the service refuses is not
saved. Offers to make the profile current if another one is. Prints nothing on
stdout; every message goes to stderr.

Examples:
  $ agency login
  $ agency login --profile acme-hq --base-url https://api.woodpecker.co/rest
  $ printf '%s' "$WOODPECKER_KEY" | agency login --profile ci`,
      )
      .action((opts, cmd) => run(cmd, async (rt) => (await authModule()).login(rt, opts)));
  const logoutCommand = program.command('logout').description("remove a profile's API key");
  if (want('logout'))
    logoutCommand
      .addHelpText(
        'after',
        `
Says whose key was removed (on stderr). The profile's base URL stays; \`agency
profiles remove <name>\` removes the whole profile.

Examples:
  $ agency logout
  $ agency logout --profile acme-hq`,
      )
      .action((_opts, cmd) => run(cmd, async (rt) => (await authModule()).logout(rt)));

  const profiles = program.command('profiles').description('list, select and remove config profiles');
  if (want('profiles')) {
    profiles
      .command('list')
      .description('list profiles and show the one in use')
      .addHelpText(
        'after',
        `
Prints one row per profile: name, whether it is in use, base URL, and the key
masked to its first and last 4 characters. The profile in use is the current
one, unless --profile or AGENCY_PROFILE names another.

Examples:
  $ agency profiles list
  $ agency profiles list | cut -f1`,
      )
      .action((_opts, cmd) => run(cmd, async (rt) => (await profilesModule()).listProfiles(rt)));
    profiles
      .command('use')
      .description('make a profile the current one')
      .argument('<name>')
      .addHelpText(
        'after',
        `
Says which profile is now current (on stderr). Later commands use it, unless
--profile or AGENCY_PROFILE names another.

Examples:
  $ agency profiles use sandbox
  $ agency profiles use default`,
      )
      .action((name, _opts, cmd) => run(cmd, async (rt) => (await profilesModule()).useProfile(rt, name)));
    profiles
      .command('remove')
      .description('remove a profile and its key')
      .argument('<name>')
      .addHelpText(
        'after',
        `
Says which profile was removed (on stderr). If it was the current one,
"default" becomes current: the tool never switches to another account by
itself.

Examples:
  $ agency profiles remove old-agency
  $ agency profiles remove sandbox`,
      )
      .action((name, _opts, cmd) => run(cmd, async (rt) => (await profilesModule()).removeProfile(rt, name)));
  }

  const sandboxCommand = program.command('sandbox').description('run a practice agency API on this machine');
  if (want('sandbox'))
    sandboxCommand
      .option('--port <n>', 'port on 127.0.0.1 (default: a free one)')
      .option('--state <file>', 'keep the state in this file (reloaded on start)')
      .option('--latency <ms>', 'processing time of each request')
      .option('--companies <n>', 'companies to seed (default 120)')
      .option('--no-save-profile', 'do not save the "sandbox" profile')
      .addHelpText(
        'after',
        `
Prints the base URL and the HQ keys of the practice agency ("Northwind
Outreach", 120 companies, some inactive), then keeps running until Ctrl-C. Use
it from another terminal with -p sandbox.

Examples:
  $ agency sandbox
  $ agency sandbox --port 8099 --state ./sandbox.json
  $ agency -p sandbox companies list`,
      )
      .action((opts, cmd) => run(cmd, async (rt) => (await sandboxModule()).runSandbox(rt, opts)));

  const completionCommand = program
    .command('completion')
    .description('print tab completion for bash, zsh or fish');
  if (want('completion'))
    completionCommand
      .argument('<shell>', 'bash, zsh or fish')
      .addHelpText(
        'after',
        `
Prints the script on stdout. It completes commands, options and profile names
(-p <TAB>). Install it once, then open a new shell. For zsh, put
fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc. To try it in this shell
only: source <(agency completion bash).

Examples:
  $ agency completion bash > ~/.local/share/bash-completion/completions/agency
  $ agency completion zsh > ~/.zfunc/_agency
  $ agency completion fish > ~/.config/fish/completions/agency.fish`,
      )
      .action(async (shell) => {
        const { completionScript, describeCommands } = await import('./commands/completion.js');
        io.stdout.write(completionScript(shell, describeCommands(program)));
      });

  return program;
}

/** Repeatable option; no default value, so help does not show "(default: [])". */
function collectValues(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
