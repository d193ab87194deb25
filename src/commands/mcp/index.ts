/**
 * `agency mcp [--allow-writes]`: the agency as a Model Context Protocol server on stdin/stdout, for AI
 * assistants. The command defines the options alone; the server (and the SDK, dist/mcp.cjs) loads when
 * it runs.
 */
import type { Command } from '@commander-js/extra-typings';
import { helpText, type OptionsOf, printsNoList, type Run } from '../command.js';

const configure = (mcp: Command) =>
  printsNoList(mcp)
    .option('--allow-writes', 'also offer the tools that change the agency (create, subscribe, apply, …)')
    .addHelpText(
      'after',
      helpText({
        prints: `
          Serves the agency over stdio to an MCP client (Claude Desktop, VS Code, Cursor, …):
          one tool per command, each answering with the JSON that \`--json\` prints and the same
          errors and hints. Reads only, unless --allow-writes. The key, base URL and profile come
          from -p, the environment and the config file, as for every command; stdout carries only
          protocol messages, logs go to stderr. Configuration snippets for Claude Desktop, VS Code
          and Cursor: docs/mcp.md, shipped in the package ($(npm root -g)/agency-cli/docs/mcp.md).
        `,
        examples: `
          $ agency mcp
          $ agency -p acme mcp --allow-writes
        `,
      }),
    );

export type McpOptions = OptionsOf<typeof configure>;

export function define(mcp: Command, run: Run): void {
  configure(mcp).action(
    run(async (rt, opts: McpOptions) => (await import('../../mcp/server.js')).serve(rt, opts)),
  );
}
