/**
 * The scripts of `agency completion <shell>`, generated from the program's own definition, so they never drift
 * from the real commands and options. Profile names are completed live from `agency profiles list`
 * (piped, its first column), so a new profile is offered without reinstalling anything. An option's
 * values come from the option itself: its choices (commander's argChoices, also set by
 * `suggestValues` for open or comma-separated lists), or file names when its value is named `<path>`
 * or `<file>` (directories and the endings `fileTypes` gave it, if any: plan -f offers YAML and JSON)
 * — so a new command completes with no edit here.
 *
 * bash and zsh share one candidate function written in the common subset of both shells (positional
 * parameters, `case`, no arrays); each shell adds a small adapter (zsh's in ./zsh.ts). fish gets native
 * `complete` rules (./fish.ts).
 */
import { HELP_TOPIC } from '../../output/help-sections.js';

interface OptionNode {
  flags: string[];
  description: string;
  /** Takes a value, so the next word is that value and not a command. */
  takesValue: boolean;
  /** The values to offer (its choices), if it has a known set. */
  values: readonly string[];
  /** Its value is a file name. */
  files: boolean;
  /** The name endings of the files it reads ('.yaml'); empty: any file. */
  fileEndings: readonly string[];
  /** A comma-separated list (`--status running,paused`): values are offered after each comma. */
  commaList: boolean;
  /** `--columns`: its values are the column names of the command, asked of the command itself. */
  columns: boolean;
  /** What one value is, for fish's note beside each ("status", "event", "column"). */
  valueNote: string;
}

export interface CommandNode {
  name: string;
  description: string;
  /**
   * Stand-ins for the command's required arguments and options (`keys list 1`, `keys create --label
   * x`): with them, `--columns ''` reaches the command's own check, which names its columns.
   */
  probe: string[];
  options: OptionNode[];
  subcommands: CommandNode[];
}

interface CommanderOption {
  flags: string;
  long?: string | undefined;
  short?: string | undefined;
  description?: string;
  required?: boolean;
  optional?: boolean;
  hidden?: boolean;
  argChoices?: readonly string[] | undefined;
  mandatory?: boolean;
  /** Set by fileTypes() (../command.ts). */
  fileExtensions?: readonly string[];
  /** Set by commaSeparated() (../command.ts). */
  valueSeparator?: string;
}

interface CommanderLike {
  name(): string;
  description(): string;
  options: readonly CommanderOption[];
  commands: readonly CommanderLike[];
  readonly registeredArguments?: readonly { required: boolean }[];
  /** commander's own field: the subcommand that runs when none is named (`campaigns` → list). */
  _defaultCommandName?: string | null;
}

/** The marker of an option whose value is a file: its value is named <path> or <file>. */
const FILE_VALUE = /<(path|file)>|\[(path|file)\]/;

function describeOption(o: CommanderOption): OptionNode {
  const takesValue = Boolean(o.required || o.optional);
  const columns = o.long === '--columns';
  const placeholder = /<([\w-]+)>/.exec(o.flags)?.[1] ?? 'value';
  return {
    flags: [o.long, o.short].filter((f): f is string => Boolean(f)),
    description: o.description ?? '',
    takesValue,
    values: takesValue ? (o.argChoices ?? []) : [],
    files: takesValue && FILE_VALUE.test(o.flags),
    fileEndings: (o.fileExtensions ?? []).map((extension) => `.${extension}`),
    commaList: columns || o.valueSeparator === ',',
    columns,
    valueNote: columns ? 'column' : singular(placeholder),
  };
}

/** `<statuses>` → status, `<events>` → event: what one value is. */
function singular(noun: string): string {
  if (noun.endsWith('ses')) return noun.slice(0, -2);
  return /[^su]s$/.test(noun) ? noun.slice(0, -1) : noun;
}

const HELP_OPTION = describeOption({
  flags: '-h, --help',
  long: '--help',
  short: '-h',
  description: 'show help',
});

export function describeCommands(cmd: CommanderLike): CommandNode {
  // A command that runs a default subcommand (`agency campaigns`) takes that subcommand's options too.
  const fallback = cmd.commands.find((sub) => sub.name() === cmd._defaultCommandName);
  const own = [...cmd.options, ...(fallback?.options ?? [])].filter((o) => !o.hidden);
  const seen = new Set<string>();
  const required = (cmd.registeredArguments ?? []).filter((a) => a.required).map(() => '1');
  const mandatory = own
    .filter((o) => o.mandatory && o.long && o.required)
    .flatMap((o) => [o.long ?? '', 'x']);
  return {
    name: cmd.name(),
    description: cmd.description(),
    probe: [...required, ...mandatory],
    options: [...own.filter((o) => !seen.has(o.flags) && seen.add(o.flags)).map(describeOption), HELP_OPTION],
    subcommands: cmd.commands.map(describeCommands),
  };
}

/** Positional arguments worth completing, by command path. */
export const PROFILE_ARGUMENT = new Set(['profiles use', 'profiles remove']);
export const SHELL_ARGUMENT = new Set(['completion']);
export const PROFILE_OPTIONS = new Set(['--profile', '-p']);
/**
 * `agency help <command…>` is commander's help command, not in the tree (its description as --help gives
 * it); `help environment` is a topic, offered after help beside the commands.
 */
export const HELP_COMMAND = { name: 'help', description: 'display help for command' };
export const HELP_TOPIC_ENTRY = {
  name: HELP_TOPIC,
  description: 'the global options and the environment variables',
};

export interface PathEntry {
  path: string;
  node: CommandNode;
}

/** Every command path ('' for the program itself, then 'companies', 'companies list', ...). */
export function paths(tree: CommandNode): PathEntry[] {
  const result: PathEntry[] = [];
  const walk = (node: CommandNode, prefix: string) => {
    result.push({ path: prefix, node });
    for (const sub of node.subcommands) walk(sub, prefix ? `${prefix} ${sub.name}` : sub.name);
  };
  walk(tree, '');
  return result;
}

/** The options valid after a command path: its own, then the global ones (no --version below the top). */
export function optionsAt(tree: CommandNode, entry: PathEntry): OptionNode[] {
  if (entry.path === '') return entry.node.options;
  const globals = globalOptions(tree);
  const seen = new Set<string>();
  return [...entry.node.options, ...globals].filter((o) => {
    const key = o.flags.join(' ');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A description's first line: what a shell shows beside a candidate. */
export function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

/** The program's options that every command takes (all but --version and the program's --help). */
export function globalOptions(tree: CommandNode): OptionNode[] {
  return tree.options.filter((o) => !o.flags.includes('--version') && !o.flags.includes('--help'));
}

export function valueFlags(tree: CommandNode): string[] {
  const flags = paths(tree).flatMap((e) =>
    e.node.options.filter((o) => o.takesValue).flatMap((o) => o.flags),
  );
  return [...new Set(flags)];
}

/**
 * --columns <TAB>: the command names its columns when asked for none (`--columns ''` is refused with
 * "valid columns: id, name, ..." before anything is read). Asked with a key and a base URL that
 * reach nothing, so that a TAB can never touch the agency; then `all`, unless a list is begun.
 */
export const COLUMNS_PROBE =
  'env -u AGENCY_PROFILE AGENCY_API_KEY=x AGENCY_BASE_URL=http://127.0.0.1:9/rest AGENCY_TIMEOUT=1 agency';
const COLUMNS_FUNCTION = `__agency_columns() {
  local word="$1" names
  shift
  names="$(${COLUMNS_PROBE} "$@" --columns '' </dev/null 2>&1 | sed -n 's/.*valid columns: \\(.*\\)\\.$/\\1/p' | tr -d ' ' | tr ',' '\\n')"
  [ -n "$names" ] || return 0
  printf '%s\\n' "$names" | __agency_list "$word"
  case "$word" in *,*) ;; *) printf '%s\\n' all ;; esac
}
`;

/**
 * The first line of some answers of the candidate function, for the shell's adapter: a comma list that
 * goes on (no space after the value), or commands or options (zsh describes them; "options|keys list").
 */
export const LIST = '__agency_list__';
export const DESCRIBED = '__agency_described__';

/** The candidate function shared by bash and zsh: plain POSIX-style shell plus `local`. */
export function candidates(tree: CommandNode): string {
  const all = paths(tree);
  const subcommands = all
    .filter((e) => e.node.subcommands.length > 0)
    .map((e) => `    "${e.path}") printf '%s\\n' ${e.node.subcommands.map((s) => s.name).join(' ')} ;;`)
    .join('\n');
  const options = all
    .map(
      (e) =>
        `    "${e.path}") printf '%s\\n' ${optionsAt(tree, e)
          .flatMap((o) => o.flags)
          .join(' ')} ;;`,
    )
    .join('\n');
  const caseOf = (values: Iterable<string>) => [...values].map((v) => `"${v}"`).join('|');
  // After an option that takes a value: its choices or file names, by command path and flag.
  const valueCases = all
    .flatMap((e) =>
      optionsAt(tree, e)
        .filter((o) => o.files || o.values.length > 0 || (o.columns && e.path !== ''))
        .map((o) => {
          const when = o.flags.map((f) => `"${e.path}|${f}"`).join('|');
          // Files: the marker, then the endings to keep (none: any file); each shell lists them.
          const then = o.files
            ? `printf '%s\\n' ${['__agency_files__', ...o.fileEndings].join(' ')}`
            : o.columns
              ? `__agency_columns "$1" ${[...e.path.split(' '), ...e.node.probe].join(' ')}`
              : `printf '%s\\n' ${o.values.join(' ')}${o.commaList ? ' | __agency_list "$1"' : ''}`;
          return `      ${when}) ${then} ;;`;
        }),
    )
    .join('\n');
  return `# Prints the candidates for the last argument, one per line; the arguments are the words after
# "agency", the last one being the word under the cursor. The shell filters by what is typed.
__agency_candidates() {
  local at="" word="" last="" skip=0 subs args=0 helping=0
  while [ "$#" -gt 1 ]; do
    word="$1"
    shift
    last="$word"
    if [ "$skip" = 1 ]; then skip=0; continue; fi
    case "$word" in
      ${caseOf(valueFlags(tree))}) skip=1 ;;
      -*) ;;
      *)
        # "agency help companies <TAB>": the words after help name a command, as they would without it.
        if [ "$at$helping$args|$word" = "00|help" ]; then helping=1; continue; fi
        subs="$(__agency_subcommands "$at")"
        case "
$subs
" in *"
$word
"*) at="\${at:+$at }$word" ;;
          *) args=$((args + 1)) ;;
        esac
        ;;
    esac
  done
  if [ "$skip" = 1 ]; then
    case "$at|$last" in
      ${[...PROFILE_OPTIONS].map((f) => `*"|${f}"`).join('|')}) __agency_profiles ;;
${valueCases}
    esac
    return 0
  fi
  if [ "$helping" = 1 ]; then
    # After help: the commands below the one named so far (the topic too at the top), nothing else.
    case "$args|$1" in 0"|"-*|[1-9]*) return 0 ;; esac
    subs="$(__agency_subcommands "$at")"
    [ -n "$subs" ] || return 0
    printf '%s\\n' "${DESCRIBED} commands|$at" "$subs"
    [ -n "$at" ] || printf '%s\\n' ${HELP_TOPIC}
    return 0
  fi
  case "$1" in
    -*) printf '%s\\n' "${DESCRIBED} options|$at"; __agency_options "$at" ;;
    *)
      subs="$(__agency_subcommands "$at")"
      if [ -n "$subs" ]; then
        printf '%s\\n' "${DESCRIBED} commands|$at" "$subs"
        [ -n "$at" ] || printf '%s\\n' help
      elif [ "$args" = 0 ]; then
        # These commands take one argument: once it is given, nothing more is offered.
        case "$at" in
          ${caseOf(PROFILE_ARGUMENT)}) __agency_profiles ;;
          ${caseOf(SHELL_ARGUMENT)}) printf '%s\\n' bash zsh fish ;;
        esac
      fi
      ;;
  esac
}
__agency_subcommands() {
  case "$1" in
${subcommands}
  esac
}
__agency_options() {
  case "$1" in
${options}
  esac
}
__agency_profiles() {
  agency profiles list 2>/dev/null | cut -f1
}
# A comma-separated value ($1 is the word typed): the values on stdin, each after what the word holds up
# to its last comma, except those it holds already (--status running,<TAB> offers running,paused ...).
# While another value can follow the one completed, the list marker first: no space after it.
__agency_list() {
  local pre="" value kept="" count=0
  case "$1" in *,*) pre="\${1%,*}," ;; esac
  while IFS= read -r value; do
    case ",$pre" in *",$value,"*) ;; *) kept="$kept$pre$value
" count=$((count + 1)) ;; esac
  done
  [ "$count" -lt 2 ] || printf '%s\\n' ${LIST}
  printf '%s' "$kept"
}
${COLUMNS_FUNCTION}`;
}

export function bash(tree: CommandNode): string {
  return `# bash completion for agency. Install:
#   mkdir -p ~/.local/share/bash-completion/completions
#   agency completion bash > ~/.local/share/bash-completion/completions/agency
# or add this line to ~/.bashrc:  source <(agency completion bash)
${candidates(tree)}
_agency() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" words ending IFS=$'\\n'
  words="$(__agency_candidates "\${COMP_WORDS[@]:1:COMP_CWORD}")"
  case "$words" in
    ${LIST}*)
      # Inside a comma list: no space after the value, so that a comma can follow.
      compopt -o nospace 2>/dev/null
      words="\${words#*$'\\n'}"
      ;;
    ${DESCRIBED}*) words="\${words#*$'\\n'}" ;;
  esac
  case "$words" in
    __agency_files__*)
      # Quoted as file names, directories with their slash (fails quietly outside a TAB).
      compopt -o filenames 2>/dev/null
      if [ "$words" = __agency_files__ ]; then
        COMPREPLY=( $(compgen -f -- "$cur") )
      else
        # Endings listed after the marker (plan -f: .yaml .yml .json): directories and those files.
        COMPREPLY=( $(compgen -d -- "$cur") )
        for ending in \${words#__agency_files__}; do
          COMPREPLY+=( $(compgen -f -X '!*'"$ending" -- "$cur") )
        done
      fi
      ;;
    *) COMPREPLY=( $(compgen -W "$words" -- "$cur") ) ;;
  esac
}
complete -F _agency agency
`;
}
