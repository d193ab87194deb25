/**
 * What every command file shares with program.ts. A top-level command's file (src/commands/<noun>/index.ts,
 * registered in src/commands/index.ts) exports `define`, which adds the command's options, help, examples
 * and subcommands to the command program.ts created for it, and wraps each handler with `run`. A command
 * with options is written in two parts: `configure…` (its arguments, options and help, no action) gives
 * the handler its options' type (OptionsOf), and `define…` attaches the handler to it. A command file
 * is loaded only when its command runs (or when help or completion needs them all).
 */
import type { Command, CommandUnknownOpts, Option, OptionValues } from '@commander-js/extra-typings';
import type { GlobalFlags } from '../context.js';
import { UsageError } from '../errors.js';
import { isHelpTopicMiss } from '../output/suggest.js';
import type { Runtime } from '../runtime.js';
import * as terms from '../terms.js';

/** The last argument commander passes to an action. */
export interface ActionCommand {
  optsWithGlobals(): unknown;
  name(): string;
  readonly parent: ActionCommand | null;
}

const NO_LIST = new WeakSet<object>();

/**
 * Marks a command that prints no list (a record, a script, a plan): --csv and --columns are refused
 * there (exit 2, before anything is read or sent) instead of being ignored, and its help does not
 * offer them.
 */
export function printsNoList<C extends object>(command: C): C {
  NO_LIST.add(command);
  return command;
}

export function printsList(command: object): boolean {
  return !NO_LIST.has(command);
}

/** --csv and --columns shape a list: where a command prints none, they are a usage error, not ignored. */
export function refuseListOptions(command: ActionCommand, flags: GlobalFlags): void {
  if (printsList(command)) return;
  const given = [
    flags.csv ? terms.option('csv') : '',
    flags.columns !== undefined ? terms.option('columns') : '',
  ].filter(Boolean);
  if (given.length === 0) return;
  const verb = given.length === 1 ? 'is' : 'are';
  throw new UsageError(
    `${given.join(' and ')} ${verb} for commands that print a list, and \`${commandPath(command)}\` prints none.`,
  );
}

/** `agency companies view`: the words that run a command, for messages. */
function commandPath(command: ActionCommand): string {
  const names: string[] = [];
  for (let c: ActionCommand | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return ['agency', ...names].join(' ');
}

interface RunOptions {
  /** false: the handler reads no profile, so a damaged config file or bad setting cannot stop it. */
  context?: false;
  /**
   * false: the handler sends no request with the profile's key (login, logout, profiles, sandbox), so
   * a key in the system keyring is not read. Every other command reads it before it starts: a keyring
   * that cannot be read then stops it at once (exit 3), not as a failure of its first request.
   */
  key?: false;
}

/**
 * Turns a handler into a commander action: `handler(rt, ...commander's arguments and options)`, with the
 * runtime built from the global options when the action runs.
 */
export type Run = <Args extends unknown[]>(
  handler: (rt: Runtime, ...args: Args) => Promise<void>,
  options?: RunOptions,
) => (...args: [...Args, ActionCommand]) => Promise<void>;

/**
 * The options of the command that `configure` returns, as commander parses them (camelCase names,
 * each value's type): a handler's `opts`, `OptionsOf<typeof configureCreate>`. Derived from the options
 * the command really defines, so that reading one it does not define (misspelt, or left after a
 * rename) fails the type check instead of being always undefined. A shared helper that adds options
 * (addClientTargets) takes `Command<[], Opts>` and returns its chain, so that its options flow into
 * the command's: it is called before `.argument()`.
 */
export type OptionsOf<Configure extends (...args: never[]) => CommandUnknownOpts> = OptionsOfCommand<
  ReturnType<Configure>
>;

/** One set of options per command type: a command configured one of two ways has either set. */
type OptionsOfCommand<C> = C extends Command<unknown[], infer Opts, OptionValues> ? Opts : never;

/**
 * The options of a command before any is added (commander's own default), to name the options that a
 * shared helper adds: `OptionsOf<typeof addClientTargets<NoOptions>>`, the type of the
 * functions that read them.
 */
export type NoOptions = Record<never, never>;

export interface CommandFile {
  define(command: Command, run: Run): void;
}

/**
 * A command's help after its options, written as it reads: `prints` (what the command prints, wrapped
 * by hand at 80 columns) and `examples` (`$ agency …` lines, a continued one indented below it), each a
 * template literal indented with the code around it.
 */
export interface CommandHelp {
  prints: string;
  examples: string;
}

/** The one-line description and the help of a command that a shared definition makes in several variants. */
export interface CommandText extends CommandHelp {
  description: string;
}

/** The help after the options: what the command prints, then "Examples:", each example line indented. */
export function helpText({ prints, examples }: CommandHelp): string {
  const indented = dedent(examples)
    .split('\n')
    .map((line) => (line === '' ? line : `  ${line}`));
  return `\n${dedent(prints)}\n\nExamples:\n${indented.join('\n')}`;
}

/**
 * A template literal's text without the indentation it has in the source (gh's heredoc.Doc): the line
 * break after the opening backtick and the indented line before the closing one are dropped, then the
 * indentation common to the lines that are not blank.
 */
function dedent(text: string): string {
  const lines = text
    .replace(/^\n/, '')
    .replace(/\n[ \t]*$/, '')
    .split('\n');
  const indents = lines.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)?.[0].length ?? 0);
  const common = Math.min(...indents);
  return lines.map((line) => line.slice(common)).join('\n');
}

/** A repeatable option's collector; no default value, so help does not show "(default: [])". */
export function collectValues(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** `--columns id --columns name` is `--columns id,name`: a comma-separated list that may be given again. */
export function joinValues(value: string, previous: string | undefined): string {
  return previous === undefined ? value : `${previous},${value}`;
}

/** An option that may be given again, each value adding to the others (collectValues, joinValues). */
function isRepeatable(option: Option): boolean {
  return option.variadic || option.parseArg === collectValues || option.parseArg === joinValues;
}

/**
 * Every option of `command` and its subcommands that takes one value: given twice with different
 * values (`--fail-on critical --fail-on none`), the run stops with exit 2 before anything is read or
 * sent, where commander would keep the last one without a word. The same value twice is harmless.
 */
export function refuseRepeatedValues(command: Command): void {
  for (const sub of command.commands) refuseRepeatedValues(sub as Command);
  const given = new Map<string, string>();
  for (const option of command.options) {
    if (option.isBoolean() || isRepeatable(option)) continue;
    const name = option.long ?? option.flags;
    // After commander's own listener (added with the option), once per occurrence on the command line.
    command.on(`option:${option.name()}`, (value: unknown) => {
      const text = String(value ?? '');
      const earlier = given.get(name);
      if (earlier === undefined) given.set(name, text);
      else if (earlier !== text)
        throw new UsageError(
          `${name} is given twice, as ${JSON.stringify(earlier)} and ${JSON.stringify(text)}: give it once.`,
        );
    });
  }
}

/**
 * The values an option suggests (completion, and "choices" in its help) without refusing others:
 * for an open set (webhook events; the service adds some) or a comma-separated list (`--status
 * running,paused`), which the handler checks itself. A closed set uses oneOf(). An
 * option whose value is a file names it `<path>`: completion then offers file names (see fileTypes).
 */
export function suggestValues<O extends { argChoices?: string[] | undefined }>(
  option: O,
  values: readonly string[],
): O {
  option.argChoices = [...values];
  return option;
}

/**
 * A closed set of values (`--role`, `--fail-on`): `oneOf(new Option(…).choices([…]))`. Listed in help
 * and completion as commander's `.choices()` are, but any case is accepted (`--role GUEST`) and a wrong value gets the tool's own
 * message listing the valid ones, with "did you mean" for a near miss, as `--status` does.
 */
export function oneOf<O extends Option>(option: O): O {
  const values = option.argChoices ?? [];
  option.argParser((typed: string) => {
    const found = values.find((value) => value.toLowerCase() === typed.trim().toLowerCase());
    if (found !== undefined) return found;
    const close = values.filter((value) => isHelpTopicMiss(typed.trim(), value));
    const hint = close.length === 0 ? '' : ` Did you mean ${close.join(' or ')}?`;
    throw new UsageError(
      `Unknown value ${JSON.stringify(typed)} for ${terms.option(option.name())}; valid: ${values.join(', ')} (any case).${hint}`,
    );
  });
  return option;
}

/** Set by commaSeparated(): the option takes several values in one word, `running,paused`. */
interface ListValue {
  valueSeparator?: string;
}

/**
 * Marks an option whose value is a comma-separated list (`--status running,paused`): completion
 * offers the remaining values after a comma, keeping what was typed before it.
 */
export function commaSeparated<O extends object>(option: O): O {
  (option as ListValue).valueSeparator = ',';
  return option;
}

/**
 * Set by documentedValues(): the option's values are a documented set, others are accepted, and help
 * says where the set is listed (this text) instead of listing it.
 */
export interface OpenValueSet {
  openValueSet?: string;
}

/**
 * An open set (webhook events: the service adds some; an unknown name is sent with a warning): the
 * values are suggested like choices (completion, the MCP schema), but help names the set and where
 * it is listed (`listed`, e.g. "one of the documented events: see `agency webhooks events`") rather
 * than printing a long list, and does not call them choices.
 */
export function documentedValues<O extends { argChoices?: string[] | undefined }>(
  option: O,
  values: readonly string[],
  listed: string,
): O {
  (option as OpenValueSet).openValueSet = listed;
  return suggestValues(option, values);
}

/** An option that reads a file of known kinds: completion offers directories and those files only. */
interface TypedFileOption {
  fileExtensions?: readonly string[];
}

/**
 * Marks a `<path>` option as reading files with these name endings (without the dot): `plan -f <TAB>`
 * offers directories and *.yaml, not every file. The handler still reads any name it is given.
 */
export function fileTypes<O extends object>(option: O, extensions: readonly string[]): O {
  (option as TypedFileOption).fileExtensions = [...extensions];
  return option;
}
