/**
 * `agency completion fish`: native `complete` rules from the same command tree as the bash and zsh
 * script (./scripts.ts). A value carries its own short note (`running  status`), so that fish does not
 * print the option's description beside every value.
 */
import {
  COLUMNS_PROBE,
  type CommandNode,
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
    '        echo $at',
    '    end',
    'end',
    '# True before the one argument of `profiles use`, `completion`... is given.',
    'function __agency_wants_argument',
    '    test (__agency_path) = "$argv[1]"; and test (__agency_path count) = 0',
    'end',
    'function __agency_path_is',
    '    test (__agency_path) = "$argv[1]"',
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
    "# Values with a note of their own (not the option's description beside each). With --list, a",
    '# comma-separated value: each after what the token holds up to its last comma, except those it holds.',
    'function __agency_values',
    '    set -l note $argv[1]',
    '    set -l pre ""',
    '    if test "$argv[2]" = --list',
    "        set pre (string match -r '^.*,' -- (commandline -ct))",
    '    end',
    '    for value in $argv[3..-1]',
    '        contains -- $value (string split , -- "$pre"); or printf \'%s%s\\t%s\\n\' "$pre" $value $note',
    '    end',
    'end',
    '# The column names the command gives when asked for none (see the bash script), then all.',
    'function __agency_columns',
    `    set -l names (${COLUMNS_PROBE} $argv --columns '' </dev/null 2>&1 | string match -r -g 'valid columns: (.*)\\.$' | string replace -a ' ' '' | string split ,)`,
    '    test (count $names) -gt 0; or return',
    '    __agency_values column --list $names',
    '    string match -q -- "*,*" (commandline -ct); or printf \'all\\tevery column\\n\'',
    'end',
    'complete -c agency -f',
  ];
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

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}
