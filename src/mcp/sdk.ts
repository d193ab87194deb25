/**
 * The parts of the MCP SDK that `agency mcp` uses. scripts/build.mjs bundles this file (with the SDK
 * and zod) as dist/mcp.cjs, required only when `agency mcp` starts, so no other command loads them.
 * Nothing else in src may import the SDK at run time (types only).
 */
export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
