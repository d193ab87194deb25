/**
 * Every command takes a company one way: as its argument where the command is about one company
 * (`keys list 1042`), as --company where the company is a context or a target (`mailboxes --company
 * 1042`). The other form, used by mistake, gets an error that shows the right one for that command,
 * before any request — instead of commander's "unknown option" or "too many arguments".
 */
import { type Command, Option } from '@commander-js/extra-typings';
import { UsageError } from '../errors.js';
import { command, option } from '../terms.js';

/** Walks the program's commands (after they are defined) and gives each the error of the other form. */
export function explainCompanyForms(program: Command): void {
  for (const sub of program.commands) explainCompanyForms(sub as Command);
  const positional = program.registeredArguments.some((a) => a.name() === 'company');
  const asOption = program.options.some((o) => o.attributeName() === 'company');
  if (positional && !asOption) refuseCompanyOption(program);
  else if (asOption && !positional) refuseCompanyArgument(program);
}

/** `keys list --company 1042`: the company is this command's argument. */
function refuseCompanyOption(cmd: Command): void {
  cmd.addOption(new Option('--company <company>').hideHelp());
  cmd.on('option:company', (value: string) => {
    const words = pathOf(cmd);
    throw new UsageError(
      `${command(words)} takes the company as its argument, not as ${option('company')}: ${command(`${words} ${shellWord(value)}`)}`,
      { hint: 'Nothing was sent.' },
    );
  });
}

/** `mailboxes 1042`: this command takes the company as --company. */
function refuseCompanyArgument(cmd: Command): void {
  cmd.allowExcessArguments(true);
  cmd.hook('preAction', (_hooked, acting) => {
    if (acting !== cmd) return;
    const extra = acting.args.slice(acting.registeredArguments.length);
    const [first] = extra;
    if (first === undefined) return;
    const words = pathOf(cmd);
    const given = acting.args.slice(0, acting.registeredArguments.length).map(shellWord);
    throw new UsageError(
      `${command(words)} takes the company as ${option('company')}, not as an argument: ${command([words, ...given, `--company ${shellWord(first)}`].join(' '))}`,
      { hint: 'Nothing was sent.' },
    );
  });
}

/** The command's words after `agency` (`webhooks list`). */
function pathOf(cmd: Command): string {
  const words: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent as Command | null) words.unshift(c.name());
  return words.join(' ');
}

/** A value as it would be typed in a shell: quoted when it holds anything but plain characters. */
function shellWord(value: string): string {
  return /^[\w.@:/+-]+$/.test(value) ? value : JSON.stringify(value);
}
