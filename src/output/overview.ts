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

const GROUPS: readonly { title: string; commands: readonly string[] }[] = [
  { title: 'Companies and keys', commands: ['companies', 'keys', 'plan', 'apply'] },
  {
    title: 'Accounts',
    commands: ['me', 'mailboxes', 'webhooks', 'campaigns', 'inventory', 'blacklist', 'api'],
  },
  { title: 'Setup', commands: ['login', 'logout', 'profiles', 'sandbox', 'mcp', 'completion'] },
];

/** The overview, wrapped at `width` columns (the terminal's) without breaking a word. */
export function overview(program: CommandLike, width = DEFAULT_HELP_WIDTH): string {
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
  const grouped = new Set(GROUPS.flatMap((g) => g.commands));
  const groups = [
    ...GROUPS.map((g) => ({ title: g.title, names: g.commands.filter((name) => entries.has(name)) })),
    { title: 'Other', names: [...entries.keys()].filter((name) => !grouped.has(name)) },
  ].filter((g) => g.names.length > 0);
  const termWidth = Math.max(...[...entries.values()].flat().map((e) => e.name.length));

  const lines = [program.description(), '', 'Usage: agency <command> [options]', ''];
  for (const group of groups) {
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
    '  agency --help            global options (--profile, --json, ...), environment, exit codes',
    '',
  );
  return wrapText(lines.join('\n'), width);
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}
