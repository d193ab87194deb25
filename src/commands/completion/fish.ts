/**
 * `agency completion fish`: native `complete` rules from the same command tree as the bash and zsh
 * script (./scripts.ts). A value carries its own short note (`running  status`), so that fish does not
 * print the option's description beside every value.
 */
import {
  COLUMNS_PROBE,
  type CommandNode,
  firstLine,
  HELP_COMMAND,
  HELP_TOPIC_ENTRY,
  optionsAt,
  PROFILE_ARGUMENT,
  PROFILE_OPTIONS,
  paths,
  SHELL_ARGUMENT,
  valueFlags,
} from './scripts.js';

export function fish(tree: CommandNode): string {
  const all = paths(tree);
  const known = all.filter((e) => e.path !== '').map((e) => fishQuote(e.path));
  const values = valueFlags(tree);
  const lines = [
    '# fish completion for agency. Install:',
    '#   agency completion fish > ~/.config/fish/completions/agency.fish',
    '',
    '# The command path typed so far ("companies list"), skipping options and their values; with an',
    "# argument, how many other words (the command's arguments) follow it.",
    'function __agency_path',
    '    set -l words (commandline -opc)',
    '    set -e words[1]',
    '    set -l at ""',
    '    set -l skip 0',
    '    set -l args 0',
    '    set -l helping ""',
    `    set -l known ${known.join(' ')}`,
    '    for word in $words',
    '        if test $skip = 1',
    '            set skip 0',
    '            continue',
    '        end',
    '        switch $word',
    `            case ${values.map(fishQuote).join(' ')}`,
    '                set skip 1',
    "            case '-*'",
    "            case '*'",
    '                # `agency help companies`: the words after help name a command, as without it.',
    '                if test "$at$helping$args" = 0; and test $word = help',
    '                    set helping help',
    '                    continue',
    '                end',
    '                set -l next (string trim -- "$at $word")',
    '                if contains -- $next $known',
    '                    set at $next',
    '                else',
    '                    set args (math $args + 1)',
    '                end',
    '        end',
    '    end',
    '    if set -q argv[1]',
    '        echo $args',
    '    else',
    '        string trim -- "$helping $at"',
    '    end',
    'end',
    '# True before the one argument of `profiles use`, `completion`... is given.',
    'function __agency_wants_argument',
    '    test (__agency_path) = "$argv[1]"; and test (__agency_path count) = 0',
    'end',
    'function __agency_path_is',
    '    test (__agency_path) = "$argv[1]"',
    'end',
    '# True after `help` and the command path in the argument, before any other word.',
    'function __agency_helps',
    '    test (__agency_path) = (string trim -- "help $argv[1]"); and test (__agency_path count) = 0',
    'end',
    '# Directories and the files whose names end in one of the arguments, for the word being typed.',
    'function __agency_files',
    '    for path in (commandline -ct)*',
    '        if test -d $path',
    '            echo $path/',
    '        else',
    '            for ending in $argv',
    '                string match -q -- "*$ending" $path; and echo $path; and break',
    '            end',
    '        end',
    '    end',
    'end',
    'function __agency_profiles',
    '    agency profiles list 2>/dev/null | cut -f1',
    'end',
    "# Values with a note of their own (not the option's description beside each). With --list (or",
    '# --columns: the column names, and all before a comma), a comma-separated value: each after what the',
    '# token holds up to its last comma, except those it holds. When the one value that matches what is',
    '# typed could be followed by another, it is offered with a comma after it too: fish then completes it',
    '# with no space (what two candidates share), so that a comma can follow.',
    'function __agency_values',
    '    set -l note $argv[1]',
    '    set -l token (commandline -ct)',
    '    set -l offered $argv[3..-1]',
    '    set -l whole',
    '    if test "$argv[2]" != --one',
    "        set -l pre (string match -r '^.*,' -- $token)",
    '        set offered',
    '        for value in $argv[3..-1]',
    '            contains -- $value (string split , -- "$pre"); or set -a offered "$pre$value"',
    '        end',
    '        test "$argv[2]" = --columns; and test -z "$pre"; and set whole all',
    '    end',
    '    for value in $offered',
    "        printf '%s\\t%s\\n' $value $note",
    '    end',
    '    test -n "$whole"; and printf \'all\\tevery column\\n\'',
    '    set -l typed (string match -- "$token*" $offered $whole)',
    '    if test "$argv[2]" != --one; and test (count $typed) = 1; and contains -- $typed $offered; and test (count $offered) -gt 1',
    "        printf '%s,\\t%s\\n' $typed $note",
    '    end',
    'end',
    '# The column names the command gives when asked for none (see the bash script), then all.',
    'function __agency_columns',
    `    set -l names (${COLUMNS_PROBE} $argv --columns '' </dev/null 2>&1 | string match -r -g 'valid columns: (.*)\\.$' | string replace -a ' ' '' | string split ,)`,
    '    test (count $names) -gt 0; or return',
    '    __agency_values column --columns $names',
    'end',
    'complete -c agency -f',
  ];
  lines.push(
    `complete -c agency -n ${fishQuote("__agency_path_is ''")} -a ${HELP_COMMAND.name} -d ${fishQuote(HELP_COMMAND.description)}`,
    `complete -c agency -n ${fishQuote("__agency_helps ''")} -a ${HELP_TOPIC_ENTRY.name} -d ${fishQuote(HELP_TOPIC_ENTRY.description)}`,
  );
  for (const entry of all) {
    // `agency help companies <TAB>`: the same subcommands, after help.
    const helps = `-n ${fishQuote(`__agency_helps '${entry.path}'`)}`;
    for (const sub of entry.node.subcommands) {
      lines.push(
        `complete -c agency ${helps} -a ${fishQuote(sub.name)} -d ${fishQuote(firstLine(sub.description))}`,
      );
    }
  }
  for (const entry of all) {
    const when = `-n ${fishQuote(`__agency_path_is '${entry.path}'`)}`;
    for (const sub of entry.node.subcommands) {
      lines.push(
        `complete -c agency ${when} -a ${fishQuote(sub.name)} -d ${fishQuote(firstLine(sub.description))}`,
      );
    }
    for (const option of optionsAt(tree, entry)) {
      const flags = option.flags
        .map((f) => (f.startsWith('--') ? `-l ${f.slice(2)}` : `-s ${f.slice(1)}`))
        .join(' ');
      const value = !option.takesValue
        ? ''
        : PROFILE_OPTIONS.has(option.flags[0] ?? '')
          ? " -x -a '(__agency_profiles)'"
          : option.files && option.fileEndings.length > 0
            ? ` -r -f -a ${fishQuote(`(__agency_files ${option.fileEndings.join(' ')})`)}`
            : option.files
              ? ' -r -F'
              : option.columns && entry.path !== ''
                ? ` -x -a ${fishQuote(`(__agency_columns ${[...entry.path.split(' '), ...entry.node.probe].join(' ')})`)}`
                : option.values.length > 0
                  ? ` -x -a ${fishQuote(`(__agency_values ${option.valueNote} ${option.commaList ? '--list' : '--one'} ${option.values.join(' ')})`)}`
                  : ' -x';
      lines.push(
        `complete -c agency ${when} ${flags}${value} -d ${fishQuote(firstLine(option.description))}`,
      );
    }
    const once = `-n ${fishQuote(`__agency_wants_argument '${entry.path}'`)}`;
    if (PROFILE_ARGUMENT.has(entry.path)) lines.push(`complete -c agency ${once} -a '(__agency_profiles)'`);
    if (SHELL_ARGUMENT.has(entry.path)) lines.push(`complete -c agency ${once} -a 'bash zsh fish'`);
  }
  return `${lines.join('\n')}\n`;
}

function fishQuote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
