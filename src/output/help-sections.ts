/**
 * Pieces of help that commander does not write for us: the Environment section (with the config
 * file's path on this system), the "(required)" mark of a required option, the short block of global
 * options at the end of a command's help, `agency help environment`, and `agency help <words>` for a
 * command of any depth.
 */
import { type Command, Help, type HelpConfiguration, type Option } from '@commander-js/extra-typings';
import type { OpenValueSet } from '../commands/command.js';
import { UsageError } from '../errors.js';
import { formatItem } from './help-wrap.js';
import { isHelpTopicMiss } from './suggest.js';

/** `agency help environment`: the one help topic that is not a command. */
export const HELP_TOPIC = 'environment';

/** The variables a user can set, as `agency --help` lists them. */
const ENVIRONMENT: readonly [string, string][] = [
  ['AGENCY_API_KEY', "API key; overrides the profile's key (there is deliberately no key flag)"],
  ['AGENCY_PROFILE', 'profile to use, like --profile'],
  ['AGENCY_BASE_URL', 'API base address including /rest, like --base-url'],
  ['AGENCY_CONFIG_DIR', 'directory of the config file'],
  ['AGENCY_TIMEOUT', 'deadline per HTTP request in seconds, like --timeout'],
  ['AGENCY_DEBUG', '1 logs each HTTP request and response, like --debug'],
  [
    'AGENCY_MAX_IN_FLIGHT',
    'requests one account may have queued at once, 1..7 (default 3; 1 = one at a time)',
  ],
  ['NO_COLOR', 'never use colour, like --no-color'],
  ['FORCE_COLOR', '0 never uses colour, like NO_COLOR'],
  ['HTTPS_PROXY', 'proxy for an https base URL (HTTP_PROXY for http; lower case too)'],
  ['NO_PROXY', 'hosts reached directly: names, domain suffixes, or *, comma-separated'],
  ['NODE_EXTRA_CA_CERTS', "a file of extra CA certificates to trust, besides the system's"],
];

/** "Environment:" and one line per variable, then where the config file is on this system. */
export function environmentSection(configFile: string): string {
  const width = Math.max(...ENVIRONMENT.map(([name]) => name.length));
  return [
    'Environment:',
    ...ENVIRONMENT.map(([name, text]) => `  ${name.padEnd(width)}  ${text}`),
    '',
    `Config file: ${configFile}`,
  ].join('\n');
}

interface HelpCommand {
  readonly options: readonly Option[];
  readonly commands: readonly HelpCommand[];
  name(): string;
  /** commander's own field: the subcommand that runs when none is named (`campaigns` → list). */
  readonly _defaultCommandName?: string | null;
}

/**
 * How every command's help is laid out at `width`: items wrapped beside their terms, an option's open set
 * of values and "(required)" in its description, and a default subcommand's options listed with its
 * parent's. (A command's help names the global options in one short block after its examples.)
 */
export function helpSettings(width: number): HelpConfiguration {
  return {
    formatItem: (term, termWidth, description, helper) =>
      formatItem(term, termWidth, description, helper.helpWidth ?? width),
    optionDescription(option) {
      const described = Help.prototype.optionDescription.call(this, option);
      return markRequired(markOpenSet(described, (option as OpenValueSet).openValueSet), option.mandatory);
    },
    visibleOptions(command) {
      return optionsWithDefault(command, (c) => Help.prototype.visibleOptions.call(this, c as Command));
    },
  };
}

/**
 * The options a command's help lists: its own, and for a command that runs a default subcommand
 * (`agency campaigns` runs `campaigns list`), that subcommand's too, since the short form takes them.
 */
function optionsWithDefault(command: HelpCommand, visible: (command: HelpCommand) => Option[]): Option[] {
  const own = visible(command);
  const fallback = command.commands.find((sub) => sub.name() === command._defaultCommandName);
  if (!fallback) return own;
  const flags = new Set(own.map((o) => o.flags));
  const lent = visible(fallback).filter((o) => !flags.has(o.flags));
  // Its own --help stays last, after the options it lends from the subcommand.
  const help = own.filter((o) => o.long === '--help');
  return [...own.filter((o) => o.long !== '--help'), ...lent, ...help];
}

/** Global options that shape a list, offered only by commands that print one. */
const LIST_OPTIONS = new Set(['--csv', '--columns']);

/**
 * The short block at the end of a command's help (after its examples), like gh's INHERITED FLAGS:
 * the global options by name (`--columns <names|all>`, as `all` is easily missed);
 * `agency help environment` describes them. A command that prints no list does not offer --csv or
 * --columns (it refuses them).
 */
export function globalOptionsBlock(program: { readonly options: readonly Option[] }, list = true): string {
  const flags = program.options
    .filter((o) => !o.hidden && o.long !== '--version' && o.long !== '--help')
    .filter((o) => list || !LIST_OPTIONS.has(o.long ?? ''))
    .map((o) => [o.short, o.long].filter(Boolean).join('/') + (o.long === '--columns' ? ' <names|all>' : ''));
  const explained = '(`agency help environment` explains them and the environment variables)';
  return `\nGlobal options: ${flags.join(', ')} ${explained}.`;
}

/** What --json and --csv are for on a terminal, where tables wrap (docs/output.md says the same). */
const COPY_WHOLE =
  'On a terminal a list is a table fitted to its width: on a narrow one a long value (an address, a ' +
  'URL) wraps onto more lines of its column and cannot be selected in one piece; pipe the output, or ' +
  'use --json or --csv, to copy it whole.';

/** `agency help environment`: every global option with its description, then the Environment section. */
export function environmentHelp(program: Command, configFile: string): string {
  const helper = program.createHelp() as Help;
  const options = program.options.filter((o) => !o.hidden && o.long !== '--help');
  const width = Math.max(...options.map((o) => helper.optionTerm(o).length));
  const lines = options.map((o) =>
    helper.formatItem(helper.optionTerm(o), width, helper.optionDescription(o), helper),
  );
  return [
    'Global options (accepted by every command, before or after its name):',
    ...lines,
    '',
    COPY_WHOLE,
    '',
    environmentSection(configFile),
    '',
  ].join('\n');
}

/**
 * An open set's values are not choices: "(choices: …)" becomes "(<where they are listed>; others are
 * accepted with a warning)", so that nobody reads the list as closed, and a long list (22 events)
 * does not push the other options off the screen.
 */
function markOpenSet(description: string, listed: string | undefined): string {
  if (!listed) return description;
  return description.replace(/\(choices: [^)]*\)/, () => `(${listed}; others are accepted with a warning)`);
}

/** An option's description with " (required)" when commander will refuse to run without it. */
export function markRequired(description: string, mandatory: boolean): string {
  return mandatory && !/\(required\)/.test(description) ? `${description} (required)`.trim() : description;
}

interface CommandTree {
  name(): string;
  aliases(): string[];
  readonly commands: readonly CommandTree[];
}

/**
 * `agency help companies create` → the arguments that show that help (`companies create --help`);
 * a word that names no command → the unknown path, for "unknown command 'companies nosuch'".
 */
export function helpArguments(
  program: CommandTree,
  words: readonly string[],
): { argv: string[] } | { unknown: string; word: string; candidates: string[] } {
  let at = program;
  const path: string[] = [];
  for (const word of words) {
    const next = at.commands.find((c) => c.name() === word || c.aliases().includes(word));
    path.push(word);
    if (!next) {
      const candidates = at.commands.map((c) => c.name()).filter((name) => name !== 'help');
      // `agency help environment` is a topic, not a command (src/program.ts answers it).
      if (at === program) candidates.push(HELP_TOPIC);
      return { unknown: path.join(' '), word, candidates };
    }
    at = next;
  }
  return { argv: [...path, '--help'] };
}

/** The text after the options in `agency --help`. */
export const PROGRAM_HELP = `
Examples:
  $ agency login
  $ agency companies create --name "Acme Ltd"
  $ KEY=$(agency keys create 1042 --label zapier)
  $ agency companies list --active --json | jq -r '.[].id'
  $ agency mailboxes --company 1042

Run \`agency\` alone for an overview, \`agency <command> --help\` for a
command's options and examples, and \`agency help environment\` for the global
options and the environment variables.

Exit codes: 0 ok, 1 API or network error, 2 bad input (nothing sent),
3 missing key or 401/403, 4 not found (also an unknown company name), 5 conflict
(inactive company), 6 changes pending (plan --exit-code), 7 problems found
(health --fail-on), 130 interrupted (143 on SIGTERM, 129 on SIGHUP).`;

/**
 * `agency help <command...>` shows the help of a command of any depth (commander's own help command
 * reads one word only, and shows the program's help for a word it does not know).
 */
export function helpCommand(program: Command, args: readonly string[]): string[] {
  const words = args.filter((word) => !word.startsWith('-'));
  const found = helpArguments(program, words);
  if ('argv' in found) return [...found.argv, ...args.filter((word) => word.startsWith('-'))];
  const close = found.candidates.filter((name) => isHelpTopicMiss(found.word, name));
  throw new UsageError(`unknown command '${found.unknown}'`, {
    hint: close.length
      ? `Did you mean ${close.join(' or ')}?`
      : 'Run `agency` alone for the list of commands.',
  });
}

/** Commands that describe other commands, so they need every command built in full. */
const NEEDS_WHOLE_TREE = new Set(['help', 'completion']);

/**
 * The top-level command `argv` runs, whose file alone is loaded. Undefined (load every file) for `agency`
 * alone, a global option first, and `help`/`completion`. An unknown word is fine: every top-level name is
 * always registered, so commander still suggests the nearest one.
 */
export function commandToRun(argv: readonly string[]): string | undefined {
  const first = argv[0];
  if (first === undefined || first.startsWith('-') || NEEDS_WHOLE_TREE.has(first)) return undefined;
  return first;
}

/**
 * `agency version` is `agency --version`, with global options too (`agency -p work version`): the
 * command word, found past the program's options and their values, becomes the flag.
 */
export function versionAsFlag(program: Command, argv: string[]): string[] {
  const takesValue = new Set(
    program.options.filter((o) => o.required || o.optional).flatMap((o) => [o.short, o.long]),
  );
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] as string;
    if (takesValue.has(word)) i++;
    else if (!word.startsWith('-')) return word === 'version' ? argv.with(i, '--version') : argv;
  }
  return argv;
}
