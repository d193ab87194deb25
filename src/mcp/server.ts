/**
 * `agency mcp`: a Model Context Protocol server on stdin/stdout, a host of its own on top of
 * src/program.ts's execute. Each tool call runs its command in this process (call.ts) on the context
 * resolved once at the start — the profile, key and base URL it announces, for its whole life — so
 * that every rule of the command line holds: the same checks, client, retries and redaction, and one
 * set of per-account gates, shared by the calls in flight.
 */
import { Writable } from 'node:stream';
import type { Command } from '@commander-js/extra-typings';
import type { CallToolResult, JSONRPCMessage, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpOptions } from '../commands/mcp/index.js';
import { requireApiKey } from '../context.js';
import { InterruptedError } from '../errors.js';
import type { ProgressSink } from '../output/progress.js';
import type { Runtime } from '../runtime.js';
import { FOR_ASSISTANT } from '../terms.js';
import { VERSION } from '../version.js';
import { callTool } from './call.js';
import { inputSchema, type Param, paramsOf } from './schema.js';
import type { ServedTool } from './terms.js';
import { TOOLS, toolName } from './tools.js';

interface OfferedTool extends ServedTool {
  params: Param[];
  definition: Tool;
}

export async function serve(rt: Runtime, opts: McpOptions): Promise<void> {
  requireApiKey(rt.ctx); // no key: say so now, not at each call
  const allowWrites = opts.allowWrites === true;
  const { tools, globals } = await toolsOf(allowWrites);
  const byName = new Map(tools.map((tool) => [tool.definition.name, tool]));
  const inFlight = new Set<Promise<unknown>>();
  // A key in the system keyring is read once, now, and the calls get it in their context, instead of
  // each call asking the keyring again.
  const context = rt.ctx.keyringItem
    ? Object.freeze({ ...rt.ctx, apiKey: await rt.apiKey(), keyringItem: undefined })
    : rt.ctx;
  const log = (line: string) => rt.out.log(line);

  const { Server, StdioServerTransport, CallToolRequestSchema, ListToolsRequestSchema } = await import(
    './sdk.js'
  );
  const server = new Server(
    { name: 'agency', version: VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        'Tools for a Woodpecker agency: client companies, their API keys, mailboxes, webhooks, campaigns, ' +
        'the blacklist, an inventory audit, and plans. Results are JSON. ' +
        (allowWrites
          ? 'Tools that change the agency are offered; each says whether it is destructive.'
          : 'Read-only: the server was started without allowing writes.'),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map((tool) => tool.definition) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    const tool = byName.get(name);
    if (!tool) return refusal(name, allowWrites);
    const token = request.params._meta?.progressToken;
    const progress =
      token === undefined
        ? undefined
        : progressNotifier((params) => {
            extra
              .sendNotification({
                method: 'notifications/progress',
                params: { progressToken: token, ...params },
              })
              .catch(() => {});
          });
    const call: Promise<CallToolResult> = callTool(
      {
        spec: tool.spec,
        params: tool.params,
        served: tools,
        globals,
        context,
        environment: rt.environment,
        env: rt.env,
        signal: extra.signal,
        progress,
        log: (line) => log(`[${name}] ${line}`),
      },
      request.params.arguments,
    ).finally(() => inFlight.delete(call));
    inFlight.add(call);
    return call;
  });

  const transport = new StdioServerTransport(rt.terminal.stdin, rt.out.streams.stdout);
  transport.onerror = answerUnreadable(transport, log);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
    // No more requests (stdin closed, as by `agency mcp < requests.jsonl`): the calls in flight are
    // answered first. Ctrl-C: closing aborts them (a POST already sent still learns its outcome).
    // setImmediate: once the handlers of the last requests have started, and once the SDK has sent the
    // answers (it does so a few ticks after a call settles).
    const later = () => new Promise((resolve) => setImmediate(resolve));
    rt.terminal.stdin.once('end', async () => {
      await later();
      await Promise.allSettled(inFlight);
      await later();
      await server.close();
    });
    rt.ctx.signal.addEventListener('abort', () => void server.close(), { once: true });
  });
  await server.connect(transport);
  log(
    `agency mcp: serving ${tools.length} tools for profile "${rt.ctx.profileName}" at ${rt.ctx.baseUrl}` +
      (allowWrites ? ', writes allowed.' : ', reads only (start with --allow-writes to offer changes).'),
  );
  // Typed at a prompt, the server looks frozen: say what it waits for. (Piped, stdout stays protocol only.)
  if (rt.terminal.stdinIsTTY)
    log(
      'agency mcp: waiting for an MCP client on stdin; this server is meant to be started by an AI assistant (see docs/mcp.md). Ctrl-C stops it.',
    );
  await closed;
  await Promise.allSettled(inFlight);
  // Stopped by a signal: the exit code says which (130, 143, 129), as for every command.
  if (rt.ctx.signal.aborted) throw new InterruptedError();
}

/** The tools this build has commands for; writes only when allowed. */
async function toolsOf(allowWrites: boolean): Promise<{ tools: OfferedTool[]; globals: Set<string> }> {
  const { buildProgram } = await import('../program.js');
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const program = await buildProgram({ stdout: sink, stderr: sink }, () => async () => {});
  const tools: OfferedTool[] = [];
  for (const spec of TOOLS) {
    if (spec.write && !allowWrites) continue;
    const command = commandAt(program as unknown as Command, spec.path);
    if (!command) continue;
    const params = paramsOf(command, spec);
    const annotations = spec.write
      ? {
          title: spec.title,
          readOnlyHint: false,
          destructiveHint: spec.write.destructive,
          idempotentHint: spec.write.idempotent,
          openWorldHint: true,
        }
      : { title: spec.title, readOnlyHint: true, openWorldHint: true };
    tools.push({
      spec,
      params,
      definition: {
        name: toolName(spec),
        title: spec.title,
        description: `${capitalize(command.description())}. ${spec.result}`,
        inputSchema: inputSchema(params),
        annotations,
      },
    });
  }
  return { tools, globals: new Set(program.options.map((option) => option.name())) };
}

function commandAt(program: Command, path: readonly string[]): Command | undefined {
  let command: Command | undefined = program;
  for (const word of path) command = command?.commands.find((c) => c.name() === word) as Command | undefined;
  return command;
}

/**
 * The protocol wants progress that only grows; a command reports phases (companies listed, then
 * audited) that each count from 0. Each phase continues where the last one ended.
 */
function progressNotifier(
  send: (params: { progress: number; total?: number; message: string }) => void,
): ProgressSink {
  let last = 0;
  let sent = false;
  return () => {
    const base = last;
    return (done, total, message) => {
      // A step that does not move (a phase opening at 0, a page repeated) is not sent: the
      // protocol wants each notification's progress greater than the one before.
      if (sent && base + done <= last) return;
      sent = true;
      last = base + done;
      send({ progress: last, ...(total !== undefined ? { total: base + total } : {}), message });
    };
  };
}

/** JSON-RPC's codes for a line that cannot be read as a request. */
const UNREADABLE = {
  SyntaxError: { code: -32700, message: 'Parse error: the line is not JSON' },
  ZodError: { code: -32600, message: 'Invalid Request: the line is not a JSON-RPC message' },
} as const;

/**
 * A line on stdin that is not JSON (-32700) or not a JSON-RPC message (-32600) gets the error response
 * JSON-RPC asks for, with a null id (none could be read). The SDK alone drops the line without a word,
 * and a client would wait for an answer that never comes. Reading goes on with the next line.
 */
function answerUnreadable(
  transport: { send(message: JSONRPCMessage): Promise<void> },
  log: (line: string) => void,
): (error: Error) => void {
  return (error) => {
    const answer =
      error.name === 'SyntaxError' || error.name === 'ZodError' ? UNREADABLE[error.name] : undefined;
    if (!answer) return;
    log(`agency mcp: ${answer.message} (answered ${answer.code}; serving on).`);
    const response = { jsonrpc: '2.0', id: null, error: answer };
    transport.send(response as unknown as JSONRPCMessage).catch(() => {});
  };
}

/** A tool that is not served: unknown, or a write without --allow-writes. Nothing is sent. */
function refusal(name: string, allowWrites: boolean) {
  const write = !allowWrites && TOOLS.some((spec) => spec.write && toolName(spec) === name);
  const error = write
    ? {
        message: `The tool "${name}" changes the agency, and this server was started without allowing writes.`,
        hint: `To offer the tools that make changes, ${FOR_ASSISTANT.userRuns('mcp --allow-writes')} (the MCP client's configuration starts the server).`,
      }
    : { message: `There is no tool named "${name}".`, hint: 'List the tools with tools/list.' };
  return {
    isError: true,
    content: [
      {
        type: 'text' as const,
        text: JSON.stringify({ error: { status: null, title: null, detail: null, ...error }, exit_code: 2 }),
      },
    ],
  };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
