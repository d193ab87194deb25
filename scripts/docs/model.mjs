// What the reference says about each command, read from the built program's command tree (the walk
// scripts/build.mjs uses for the piped --help texts): usage, description, arguments, options,
// subcommands, and the help text after the options (what it prints, examples, other sections).
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const { loadProgram, walkCommands } = require('../command-tree.cjs');

/** The config file as the reference names it (`agency --help` names this system's). */
const CONFIG_FILE_SHOWN = '~/.config/agency/config.json';

/** Every command of the program behind `bin`, the program itself first. */
export async function readCommands(bin) {
  const { program } = await loadProgram(path.resolve(bin), CONFIG_FILE_SHOWN);
  return [{ words: [], command: program }, ...walkCommands(program)].map(({ words, command }) =>
    describe(words, command),
  );
}

function describe(words, command) {
  const help = command.createHelp();
  const after = parseAfterText(helpEvent(command, 'afterHelp'));
  return {
    words,
    /** 'agency keys create' */
    name: ['agency', ...words].join(' '),
    /** 'agency-keys-create': the page's file name and the man page's name. */
    slug: ['agency', ...words].join('-'),
    usage: help.commandUsage(command),
    description: help.commandDescription(command),
    arguments: help.visibleArguments(command).map((argument) => ({
      term: argumentTerm(argument),
      description: help.argumentDescription(argument),
    })),
    options: help.visibleOptions(command).map((option) => ({
      term: help.optionTerm(option),
      description: help.optionDescription(option),
    })),
    globalOptions: globalOptions(command),
    subcommands: help
      .visibleCommands(command)
      .filter((sub) => sub.name() !== 'help')
      .map((sub) => ({
        name: sub.name(),
        slug: ['agency', ...words, sub.name()].join('-'),
        description: help.subcommandDescription(sub),
      })),
    ...after,
  };
}

/**
 * The global options a command's help offers ("Global options: -p/--profile, …", the program's
 * afterAll text): the reference lists the same ones (no --csv or --columns where no list is printed).
 */
function globalOptions(command) {
  let program = command;
  while (program.parent) program = program.parent;
  if (program === command) return [];
  const text = helpEvent(program, 'afterAllHelp', command);
  const block = /Global options: ([\s\S]*?) \(`agency help/.exec(text)?.[1] ?? '';
  return [...block.matchAll(/--[\w-]+/g)].map((m) => m[0]);
}

function argumentTerm(argument) {
  const name = `${argument.name()}${argument.variadic ? '...' : ''}`;
  return argument.required ? `<${name}>` : `[${name}]`;
}

/** The text a command's addHelpText(position, …) adds to its help (or to `about`'s, for afterAll). */
function helpEvent(command, event, about = command) {
  let text = '';
  for (const listener of command.listeners(event)) {
    listener({ error: false, command: about, write: (chunk) => (text += chunk) });
  }
  return text;
}

/**
 * The help after the options, in parts: the prose before any titled section (what the command
 * prints), the examples, "Exit codes: …", "Config file: …", and other titled sections ("The file:",
 * "Environment:") whose indented lines are kept as they are.
 */
function parseAfterText(text) {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.replace(/^\n+|\s+$/g, ''))
    .filter(Boolean);
  const result = { output: [], examples: [], exitCodes: [], sections: [], configFile: undefined };
  for (const paragraph of paragraphs) {
    const lines = paragraph.split('\n');
    const title = /^([A-Z][\w ]*):$/.exec(lines[0] ?? '');
    const inline = /^(Exit codes|Config file): ([\s\S]*)$/.exec(paragraph);
    if (title?.[1] === 'Examples') result.examples.push(...parseExamples(lines.slice(1)));
    else if (title) result.sections.push({ title: title[1], lines: dedent(lines.slice(1)) });
    else if (inline?.[1] === 'Exit codes') result.exitCodes.push(...parseExitCodes(inline[2]));
    else if (inline?.[1] === 'Config file') result.configFile = inline[2].trim();
    else if (result.sections.length > 0 && /^\s/.test(lines[0] ?? ''))
      result.sections.at(-1).lines.push('', ...dedent(lines));
    else result.output.push(lines.join(' ').replace(/\s+/g, ' ').trim());
  }
  return result;
}

/** "  $ agency …" starts an example; a line indented further continues it. */
function parseExamples(lines) {
  const examples = [];
  for (const line of lines) {
    const start = /^ {2}\$ (.*)$/.exec(line);
    if (start) examples.push(start[1]);
    else if (examples.length > 0) examples[examples.length - 1] += `\n${line.slice(4)}`;
  }
  return examples;
}

/** "0 ok, 1 API or network error, …, 130 interrupted (143 on SIGTERM, …)." → [{code, meaning}]. */
function parseExitCodes(text) {
  const flat = text.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  // Split at ", <number> " outside parentheses.
  const items = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < flat.length; i++) {
    if (flat[i] === '(') depth++;
    else if (flat[i] === ')') depth--;
    else if (depth === 0 && flat.startsWith(', ', i) && /^\d+ /.test(flat.slice(i + 2))) {
      items.push(flat.slice(start, i));
      start = i + 2;
    }
  }
  items.push(flat.slice(start));
  return items.map((item) => {
    const [, code, meaning] = /^(\d+) (.*)$/.exec(item) ?? [];
    if (code === undefined) throw new Error(`cannot read the exit code in "${item}"`);
    return { code: Number(code), meaning };
  });
}

function dedent(lines) {
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)[0].length));
  return lines.map((line) => line.slice(Number.isFinite(indent) ? indent : 0).trimEnd());
}
