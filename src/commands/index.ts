/**
 * The registry of top-level commands: one line each, in the order help lists them. A line names the
 * command, says in one line what it does (help and the command overview show it without loading the
 * command), and how to load its command file. A command with subcommands lists them in its own index.ts.
 */
import type { Command } from '@commander-js/extra-typings';
import type { CommandFile, Run } from './command.js';

/** The overview (`agency` alone) lists commands under these headings, in this order. */
const COMMAND_GROUPS = {
  companies: 'Companies and keys',
  health: 'Fleet health',
  accounts: 'Accounts',
  setup: 'Setup',
} as const;

type Registration = readonly [
  name: string,
  group: keyof typeof COMMAND_GROUPS,
  summary: string,
  load: () => Promise<CommandFile>,
];

// biome-ignore format: one registration line per command
const COMMANDS: readonly Registration[] = [
  ['companies', 'companies', 'list, create and view client companies', () => import('./companies/index.js')],
  ['keys', 'companies', 'list and create API keys of client companies', () => import('./keys/index.js')],
  ['guests', 'companies', "invite a client's people as guests and set what they may see", () => import('./guests/index.js')],
  ['me', 'accounts', 'show who the key belongs to (HQ or client key)', () => import('./me/index.js')],
  ['mailboxes', 'accounts', 'list the mailboxes of the HQ account or a company', () => import('./mailboxes/index.js')],
  ['webhooks', 'accounts', 'list webhooks; subscribe, unsubscribe or move them across accounts', () => import('./webhooks/index.js')],
  ['campaigns', 'accounts', 'list campaigns; pause, stop and resume them across clients', () => import('./campaigns/index.js')],
  ['inventory', 'health', 'audit keys, mailboxes, webhooks and campaigns', () => import('./inventory/index.js')],
  ['deliverability', 'health', 'sent, replied, bounced per client vs last period', () => import('./deliverability/index.js')],
  ['health', 'health', 'which clients need attention today, and why', () => import('./health/index.js')],
  ['report', 'health', 'what each client got: results per campaign', () => import('./report/index.js')],
  ['history', 'health', 'what earlier health, report and deliverability runs recorded', () => import('./history/index.js')],
  ['blacklist', 'accounts', "list, add, remove and check the agency's blacklist", () => import('./blacklist/index.js')],
  ['plan', 'companies', 'what it takes to reach the state a file describes', () => import('./plan/index.js')],
  ['apply', 'companies', 'make the changes that `plan` shows', () => import('./apply/index.js')],
  ['mcp', 'setup', 'serve the agency to AI assistants over MCP (stdio)', () => import('./mcp/index.js')],
  ['api', 'accounts', 'make a raw API call and print the response body', () => import('./api/index.js')],
  ['login', 'setup', 'check an API key and save it in a profile', () => import('./login/index.js')],
  ['logout', 'setup', "remove a profile's API key", () => import('./logout/index.js')],
  ['profiles', 'setup', 'list, select and remove config profiles', () => import('./profiles/index.js')],
  ['auth', 'setup', "print a profile's API key for scripts (auth token)", () => import('./auth/index.js')],
  ['sandbox', 'setup', 'run a practice agency API on this machine', () => import('./sandbox/index.js')],
  ['completion', 'setup', 'print tab completion for bash, zsh or fish', () => import('./completion/index.js')],
];

/** Each overview heading with its top-level commands, in registration order. */
export function commandsByGroup(): { title: string; names: string[] }[] {
  return Object.entries(COMMAND_GROUPS).map(([group, title]) => ({
    title,
    names: COMMANDS.filter(([, g]) => g === group).map(([name]) => name),
  }));
}

/**
 * Adds every top-level command to `program` with its name and summary (for help and for suggestions on
 * a mistyped name), and the options, subcommands and action of `only` (of every command without it).
 */
export async function addCommands(program: Command, run: Run, only?: string): Promise<void> {
  const registered = COMMANDS.map(([name, , summary, load]) => ({
    name,
    load,
    command: program.command(name).description(summary),
  }));
  const wanted = registered.filter(({ name }) => only === undefined || only === name);
  const files = await Promise.all(wanted.map(({ load }) => load()));
  for (const [i, { command }] of wanted.entries()) files[i]?.define(command, run);
}
