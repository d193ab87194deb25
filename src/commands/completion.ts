/**
 * `completion <shell>`: scripts generated from the program's own definition, so they never drift
 * from the real commands and options. Profile names are completed live from `agency profiles list`.
 */
import { UsageError } from '../errors.js';

export interface CommandNode {
  name: string;
  options: string[];
  /** Options that take a value (so the next word is not a command). */
  valueOptions: string[];
  subcommands: CommandNode[];
}

interface CommanderLike {
  name(): string;
  options: readonly { long?: string | undefined; short?: string | undefined; required?: boolean; optional?: boolean; hidden?: boolean }[];
  commands: readonly CommanderLike[];
}

export function describeCommands(cmd: CommanderLike): CommandNode {
  const visible = cmd.options.filter((o) => !o.hidden);
  return {
    name: cmd.name(),
    options: [...visible.flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f))), '--help'],
    valueOptions: visible
      .filter((o) => o.required || o.optional)
      .flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f))),
    subcommands: cmd.commands.map(describeCommands),
  };
}

export function completionScript(shell: string, tree: CommandNode): string {
  if (shell === 'bash') return bash(tree);
  if (shell === 'zsh') return zsh(tree);
  if (shell === 'fish') return fish(tree);
  throw new UsageError(`Unknown shell ${JSON.stringify(shell)}: use bash, zsh or fish.`);
}

/** "companies list" → options of that command plus the global ones, for every command path. */
function paths(tree: CommandNode): { path: string; node: CommandNode }[] {
  const result: { path: string; node: CommandNode }[] = [];
  const walk = (node: CommandNode, prefix: string) => {
    result.push({ path: prefix, node });
    for (const sub of node.subcommands) walk(sub, prefix ? `${prefix} ${sub.name}` : sub.name);
  };
  walk(tree, '');
  return result;
}

function bash(tree: CommandNode): string {
  const globals = tree.options;
  const cases = paths(tree)
    .map(({ path, node }) => {
      const words = [...node.subcommands.map((s) => s.name), ...node.options, ...(path ? globals : [])];
      return `    "${path}") words="${[...new Set(words)].join(' ')}" ;;`;
    })
    .join('\n');
  const valueOptions = [...new Set(paths(tree).flatMap(({ node }) => node.valueOptions))].join('|');
  return `# bash completion for agency; source it, or save it as
# ~/.local/share/bash-completion/completions/agency
_agency() {
  local cur prev path="" word i
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  case "$prev" in
    -p|--profile)
      COMPREPLY=( $(compgen -W "$(agency profiles list 2>/dev/null | cut -f1)" -- "$cur") ); return ;;
    completion)
      COMPREPLY=( $(compgen -W "bash zsh fish" -- "$cur") ); return ;;
    --file|--state|--data)
      COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
    ${valueOptions}) COMPREPLY=(); return ;;
  esac
  # The command path so far: the words that are not options or option values.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    case "$word" in
      ${valueOptions}) ((i++)) ;;
      -*) ;;
      *) case " $(_agency_words "$path") " in *" $word "*) path="\${path:+$path }$word" ;; esac ;;
    esac
  done
  COMPREPLY=( $(compgen -W "$(_agency_words "$path")" -- "$cur") )
}
_agency_words() {
  local words=""
  case "$1" in
${cases}
  esac
  echo "$words"
}
complete -F _agency agency
`;
}

function zsh(tree: CommandNode): string {
  // zsh runs bash completion functions through bashcompinit: one definition to keep right.
  return `#compdef agency
# zsh completion for agency; save it as _agency in a directory of your $fpath
autoload -U +X bashcompinit && bashcompinit
${bash(tree).replace(/^# bash completion[^\n]*\n[^\n]*\n/, '')}`;
}

function fish(tree: CommandNode): string {
  const lines = [
    '# fish completion for agency; save it as ~/.config/fish/completions/agency.fish',
    'complete -c agency -f',
    "complete -c agency -s p -l profile -x -a '(agency profiles list 2>/dev/null | cut -f1)' -d 'config profile'",
  ];
  const top = tree.subcommands.map((s) => s.name).join(' ');
  for (const sub of tree.subcommands) {
    lines.push(`complete -c agency -n "not __fish_seen_subcommand_from ${top}" -a ${sub.name}`);
    const children = sub.subcommands.map((s) => s.name);
    for (const child of children) {
      lines.push(
        `complete -c agency -n "__fish_seen_subcommand_from ${sub.name}; and not __fish_seen_subcommand_from ${children.join(' ')}" -a ${child}`,
      );
    }
    for (const node of [sub, ...sub.subcommands]) {
      for (const option of node.options.filter((o) => o.startsWith('--'))) {
        const condition = node === sub ? sub.name : node.name;
        lines.push(`complete -c agency -n "__fish_seen_subcommand_from ${condition}" -l ${option.slice(2)}`);
      }
    }
  }
  lines.push(`complete -c agency -n "__fish_seen_subcommand_from completion" -a "bash zsh fish"`);
  for (const option of tree.options.filter((o) => o.startsWith('--') && o !== '--profile')) {
    lines.push(`complete -c agency -l ${option.slice(2)}`);
  }
  return `${lines.join('\n')}\n`;
}
