/**
 * What `agency` alone prints: a short, grouped overview (like `gh` alone) instead of the full help.
 * Built from the program's own commands, so a new command shows up without editing this file.
 */
import { DEFAULT_HELP_WIDTH, formatItem, wrapText } from './help-wrap.js';

interface CommandLike {
  name(): string;
  description(): string;
  readonly commands: readonly CommandLike[];
}

/** A heading of the overview and the top-level commands under it (src/commands/index.ts says which). */
export interface OverviewGroup {
  title: string;
  names: readonly string[];
}

/** The overview, wrapped at `width` columns (the terminal's) without breaking a word. */
export function overview(
  program: CommandLike,
  groups: readonly OverviewGroup[],
  width = DEFAULT_HELP_WIDTH,
): string {
  const entries = new Map<string, { name: string; description: string }[]>();
  for (const command of program.commands) {
    const rows = command.commands.length
      ? command.commands.map((sub) => ({
          name: `${command.name()} ${sub.name()}`,
          description: sub.description(),
        }))
      : [{ name: command.name(), description: command.description() }];
    entries.set(command.name(), rows);
  }
  const shown = groups
    .map((g) => ({ title: g.title, names: g.names.filter((name) => entries.has(name)) }))
    .filter((g) => g.names.length > 0);
  const termWidth = Math.max(...[...entries.values()].flat().map((e) => e.name.length));

  const lines = [program.description(), '', 'Usage: agency <command> [options]', ''];
  for (const group of shown) {
    lines.push(group.title);
    for (const name of group.names) {
      for (const entry of entries.get(name) ?? [])
        lines.push(formatItem(entry.name, termWidth, firstLine(entry.description), width));
    }
    lines.push('');
  }
  lines.push(
    'Examples',
    '  $ agency login',
    '  $ agency companies create --name "Acme Ltd" --name "Blue Harbor Dental"',
    '  $ KEY=$(agency keys create 1042 --label zapier)',
    '  $ agency companies list --inactive',
    '',
    'New here? `agency sandbox` runs a practice agency on this machine. Leave it',
    'running, and in another terminal try:  agency -p sandbox companies list',
    '',
    "  agency <command> --help  a command's options, examples and what it prints",
    '  agency --help            global options, environment, exit codes',
    '',
  );
  return wrapText(lines.join('\n'), width);
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}
