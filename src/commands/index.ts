/**
 * The registry of top-level commands: one line each, in the order help lists them. A line names the
 * command, says in one line what it does (help and the command overview show it without loading the
 * command), and how to load its command file. A command with subcommands lists them in its own index.ts.
 */
import type { Command } from '@commander-js/extra-typings';
import type { CommandFile, Run } from './command.js';

type Registration = readonly [name: string, summary: string, load: () => Promise<CommandFile>];

// biome-ignore format: one registration line per command
const COMMANDS: readonly Registration[] = [
  ['companies', 'list, create and view client companies', () => import('./companies/index.js')],
  ['keys', 'list and create API keys of client companies', () => import('./keys/index.js')],
  ['guests', "invite a client's people as guests and set what they may see", () => import('./guests/index.js')],
  ['me', 'show who the key belongs to (HQ or client key)', () => import('./me/index.js')],
  ['mailboxes', 'list the mailboxes of the HQ account or a company', () => import('./mailboxes/index.js')],
  ['webhooks', 'list webhooks; subscribe, unsubscribe or move them across accounts', () => import('./webhooks/index.js')],
  ['campaigns', 'list the campaigns of the HQ account or a company', () => import('./campaigns/index.js')],
  ['inventory', 'audit keys, mailboxes, webhooks and campaigns', () => import('./inventory/index.js')],
  ['deliverability', "each client's sent, replied and bounced emails against the previous period", () => import('./deliverability/index.js')],
  ['health', 'which clients need attention: mailboxes, campaigns, bounces, replies', () => import('./health/index.js')],
  ['blacklist', "list, add, remove and check the agency's blacklist", () => import('./blacklist/index.js')],
  ['plan', 'what it takes to reach the state a file describes', () => import('./plan/index.js')],
  ['apply', 'make the changes that `plan` shows', () => import('./apply/index.js')],
  ['mcp', 'serve the agency to AI assistants over MCP (stdio)', () => import('./mcp/index.js')],
  ['api', 'make a raw API call and print the response body', () => import('./api/index.js')],
  ['login', 'check an API key and save it in a profile', () => import('./login/index.js')],
  ['logout', "remove a profile's API key", () => import('./logout/index.js')],
  ['profiles', 'list, select and remove config profiles', () => import('./profiles/index.js')],
  ['sandbox', 'run a practice agency API on this machine', () => import('./sandbox/index.js')],
  ['completion', 'print tab completion for bash, zsh or fish', () => import('./completion/index.js')],
];

/**
 * Adds every top-level command to `program` with its name and summary (for help and for suggestions on
 * a mistyped name), and the options, subcommands and action of `only` (of every command without it).
 */
export async function addCommands(program: Command, run: Run, only?: string): Promise<void> {
  const registered = COMMANDS.map(([name, summary, load]) => ({
    name,
    load,
    command: program.command(name).description(summary),
  }));
  const wanted = registered.filter(({ name }) => only === undefined || only === name);
  const files = await Promise.all(wanted.map(({ load }) => load()));
  for (const [i, { command }] of wanted.entries()) files[i]?.define(command, run);
}
