/**
 * `agency mcp` as an MCP client sees it: the built binary spawned by the SDK's own Client and
 * StdioClientTransport, with the harness's config (profile "test" → the sandbox, canary key).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { agencyEnv, BIN, CANARY_KEY, type Harness } from './cli.js';
import { startCoreHarness } from './core.js';

/** The first request of a client that writes JSON-RPC lines itself (id 1). */
export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

export interface McpSession {
  client: Client;
  /** The server's stderr so far. */
  stderr(): string;
  /** Errors the client met (a line on stdout that is not a protocol message is one). */
  errors: Error[];
  close(): Promise<void>;
}

export async function startMcp(
  h: Harness,
  args: string[] = [],
  env: Record<string, string | undefined> = {},
): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: agencyEnv({ configDir: h.configDir, env }),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'agency-tests', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    errors,
    close: () => client.close(),
  };
}

/** The text of each content item of a tool result. */
export function texts(result: unknown): string[] {
  return (result as CallToolResult).content.map((item) => (item.type === 'text' ? item.text : ''));
}

/** A successful result's JSON (the first content item), failing with the error text otherwise. */
export function resultJson(result: unknown): unknown {
  const r = result as CallToolResult;
  if (r.isError) throw new Error(`the tool failed: ${texts(r).join('\n')}`);
  return JSON.parse(texts(r)[0] ?? '');
}

/** A tool error's error object (the last content item). */
export function toolError(result: unknown): {
  error: {
    status: number | null;
    title: string | null;
    detail: string | null;
    message: string;
    hint?: string;
  };
  exit_code: number;
} {
  const r = result as CallToolResult;
  if (!r.isError) throw new Error(`the tool did not fail: ${texts(r).join('\n')}`);
  return JSON.parse(texts(r).at(-1) ?? '');
}

function expectNoCanary(session: McpSession, results: unknown[]): void {
  if (session.stderr().includes(CANARY_KEY)) throw new Error('the HQ key leaked into the server log');
  for (const result of results)
    if (JSON.stringify(result).includes(CANARY_KEY)) throw new Error('the HQ key leaked into a result');
}

/**
 * For a test file whose tests share one sandbox and one server (`agency mcp ...args`), started before
 * the tests and closed after; the request log is emptied before each test. `call` keeps every result,
 * and after the tests none of them, nor the server's log, may hold the HQ key.
 */
export function sharedMcp(
  args: string[] = [],
  sandbox: SandboxOptions = {},
  /** The server's environment beyond the harness's ({AGENCY_NO_HISTORY: undefined} records). */
  env: Record<string, string | undefined> = {},
): {
  readonly h: Harness;
  readonly mcp: McpSession;
  call(name: string, args?: Record<string, unknown>): Promise<unknown>;
} {
  let harness: Harness | undefined;
  let session: McpSession | undefined;
  const results: unknown[] = [];
  beforeAll(async () => {
    // The commands a test compares with run in-process (quick); the server is always the built binary.
    harness = await startCoreHarness(sandbox, { inProcess: true });
    session = await startMcp(harness, args, env);
  });
  afterAll(async () => {
    if (session) expectNoCanary(session, results);
    await session?.close();
    await harness?.close();
  });
  beforeEach(() => harness?.sandbox.reset());
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the server starts in beforeAll');
    return value;
  };
  return {
    get h() {
      return ready(harness);
    },
    get mcp() {
      return ready(session);
    },
    async call(name, toolArgs = {}) {
      const result = await ready(session).client.callTool({ name, arguments: toolArgs });
      results.push(result);
      return result;
    },
  };
}
