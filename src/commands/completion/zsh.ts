/**
 * `agency completion zsh`: the candidate function shared with bash (./scripts.ts), a table of what each
 * command and option is for (zsh shows it beside each: `companies  -- list, create and view …`), and
 * the adapter that hands the candidates to zsh.
 */
import {
  type CommandNode,
  candidates,
  DESCRIBED,
  firstLine,
  globalOptions,
  HELP_COMMAND,
  HELP_TOPIC_ENTRY,
  LIST,
  optionsAt,
  paths,
} from './scripts.js';

export function zsh(tree: CommandNode): string {
  return `#compdef agency
# zsh completion for agency. Install:
#   mkdir -p ~/.zfunc && agency completion zsh > ~/.zfunc/_agency
#   and in ~/.zshrc, before compinit:  fpath=(~/.zfunc $fpath)
# or, after compinit in ~/.zshrc:  source <(agency completion zsh)
${candidates(tree)}
${descriptions(tree)}
_agency() {
  local -a matches described
  local -A notes
  local line name
  matches=( \${(f)"$(__agency_candidates "\${(@)words[2,CURRENT]}")"} )
  case "\${matches[1]}" in
    __agency_files__)
      # Endings listed after the marker (plan -f: .yaml .yml .json): directories and those files.
      if (( \${#matches} > 1 )); then
        _files -g "*(\${(j:|:)matches[2,-1]})"
      else
        _files
      fi
      ;;
    ${LIST})
      # Inside a comma list: no space after the value, so that a comma can follow.
      shift matches
      compadd -S '' -a matches
      ;;
    ${DESCRIBED}*)
      # "${DESCRIBED} options|keys list": each candidate with what it is for.
      for line in "\${(@f)$(__agency_descriptions "\${matches[1]#* }")}"; do
        notes[\${line%%:*}]="\${line#*:}"
      done
      line="\${\${matches[1]#* }%%|*}"
      shift matches
      for name in "\${matches[@]}"; do described+=( "\${name//:/\\\\:}:\${notes[$name]}" ); done
      _describe -t "$line" "\${line%s}" described
      ;;
    *) compadd -a matches ;;
  esac
}
# Autoloaded from $fpath, this file is the body of _agency: answer the first TAB too. Sourced, register.
if [ "\${funcstack[1]}" = _agency ]; then
  _agency "$@"
else
  compdef _agency agency
fi
`;
}

/**
 * \`__agency_descriptions "commands|companies"\` prints name:description lines for what the candidate
 * function offers there; options below the top name the global ones first (a command's own win).
 */
function descriptions(tree: CommandNode): string {
  const globals = globalOptions(tree);
  const lines = (items: [string, string][]) =>
    items.length
      ? `printf '%s\\n' ${items.map(([name, note]) => quote(`${name}:${firstLine(note)}`)).join(' ')}`
      : ':';
  const cases = paths(tree).flatMap((entry) => {
    const commands: [string, string][] = entry.node.subcommands.map((sub) => [sub.name, sub.description]);
    // Offered at the top (help) and after help (the topic); only what is offered is shown.
    if (entry.path === '') {
      for (const extra of [HELP_COMMAND, HELP_TOPIC_ENTRY]) commands.push([extra.name, extra.description]);
    }
    const own = (
      entry.path === '' ? entry.node.options : optionsAt(tree, entry).filter((o) => !globals.includes(o))
    ).flatMap((o) => o.flags.map((flag): [string, string] => [flag, o.description]));
    return [
      ...(commands.length ? [`    "commands|${entry.path}") ${lines(commands)} ;;`] : []),
      `    "options|${entry.path}") ${entry.path === '' ? '' : '__agency_descriptions globals; '}${lines(own)} ;;`,
    ];
  });
  const global = globals.flatMap((o) => o.flags.map((flag): [string, string] => [flag, o.description]));
  return `__agency_descriptions() {
  case "$1" in
    globals) ${lines(global)} ;;
${cases.join('\n')}
  esac
}`;
}

function quote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}
