/**
 * One tool call is one run of its command in this process (src/program.ts's execute) on the context
 * the server announced, with --json: the result is the value the command gave, an error the typed
 * error it ended with, and both are said in the tool's terms (argument and tool names, "line 3 of
 * the plan"). Nothing the command printed is read back.
 */
import { PassThrough, Writable } from 'node:stream';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { maskKey } from '../config.js';
import type { Context, Env, Environment } from '../context.js';
import { AgencyError, ExitCode } from '../errors.js';
import type { ProgressSink } from '../output/progress.js';
import { inertJson } from '../output/text.js';
import { execute, type RunOutcome } from '../program.js';
import { render, renderValue, type Terms } from '../terms.js';
import { commandLine, type Param } from './schema.js';
import { type ServedTool, toolTerms } from './terms.js';
import type { ToolSpec } from './tools.js';

export interface CallSetup {
  spec: ToolSpec;
  params: readonly Param[];
  /** Every tool the server offers, and the program's own options: how messages name them (./terms.ts). */
  served: readonly ServedTool[];
  globals: ReadonlySet<string>;
  /** What the server announced at its start: the profile, key and base URL of every call. */
  context: Context;
  environment: Environment;
  env: Env;
  signal: AbortSignal;
  progress?: ProgressSink | undefined;
  /** The call's stderr, line by line, for the server's log. */
  log: (line: string) => void;
}

export async function callTool(setup: CallSetup, input: unknown): Promise<CallToolResult> {
  const terms = toolTerms(setup);
  let line: { words: string[]; stdin: string | undefined };
  try {
    line = commandLine(setup.params, input);
  } catch (error) {
    if (!(error instanceof AgencyError)) throw error;
    // As the command's own usage errors (exit 2): nothing was sent.
    setup.log(`error: ${error.message}`);
    return { isError: true, content: [errorContent(error, undefined, error.exitCode, terms)] };
  }
  const argv = [...setup.spec.path, '--json', ...line.words];
  const stdin = new PassThrough();
  stdin.end(line.stdin ?? '');
  const outcome = await execute(
    argv,
    { stdin, stdout: lines(setup.log), stderr: lines(setup.log), env: setup.env },
    {
      signal: setup.signal,
      environment: setup.environment,
      context: setup.context,
      progress: setup.progress,
      captureResults: true,
    },
  );
  const args = (input ?? {}) as Record<string, unknown>;
  const content: CallToolResult['content'] = [];
  const result = resultOf(outcome);
  if (result !== undefined)
    content.push({ type: 'text', text: present(setup, renderValue(result, terms), args) });
  const failed = outcome.code !== ExitCode.ok && !setup.spec.answers?.includes(outcome.code);
  if (failed) {
    // The server's log has the error too, as the command line says it.
    setup.log(`error: ${outcome.error instanceof Error ? outcome.error.message : String(outcome.error)}`);
    content.push(errorContent(outcome.error, outcome.hint, outcome.code, terms));
    return { isError: true, content };
  }
  const told = [...outcome.warnings.map((w) => `warning: ${w}`), ...outcome.notes.map((n) => `note: ${n}`)];
  if (told.length > 0) content.push({ type: 'text', text: told.map((t) => render(t, terms)).join('\n') });
  if (content.length === 0) content.push({ type: 'text', text: 'null' });
  return { content };
}

/** The value --json gave: one, or (a command that gave several) all of them. */
function resultOf(outcome: RunOutcome): unknown {
  const results = outcome.results ?? [];
  return results.length <= 1 ? results[0] : results;
}

/**
 * The result as compact JSON. The key in use is never in it (whatever field holds it), unless the
 * tool is one that hands out keys (keys_list with reveal, keys_create).
 */
function present(setup: CallSetup, value: unknown, args: Readonly<Record<string, unknown>>): string {
  const shown = setup.spec.present ? setup.spec.present(value, args) : value;
  const key = setup.context.apiKey;
  return inertJson(key && !setup.spec.handsOutKeys ? withoutKey(shown, key) : shown);
}

function withoutKey(value: unknown, key: string): unknown {
  if (typeof value === 'string') return value === key ? maskKey(key) : value.split(key).join(maskKey(key));
  if (Array.isArray(value)) return value.map((item) => withoutKey(item, key));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutKey(v, key)]));
  return value;
}

/** The error as the tool says it: message and hint in the tool's terms, and the command line's exit code. */
function errorContent(error: unknown, hint: string | undefined, code: number, terms: Terms) {
  const known = error instanceof AgencyError ? error : undefined;
  const message = known ? render(known.text, terms) : `unexpected internal error: ${String(error)}`;
  const shownHint = render(hint ?? known?.hintText ?? '', terms) || undefined;
  const body = {
    error: {
      status: known?.status ?? null,
      title: known?.title ?? null,
      detail: known?.detail ?? null,
      message,
      ...(shownHint ? { hint: shownHint } : {}),
    },
    exit_code: code,
  };
  return { type: 'text' as const, text: inertJson(body) };
}

/** A stream whose every line goes to the server's log. */
function lines(log: (line: string) => void): Writable {
  let rest = '';
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      const text = rest + chunk.toString('utf8');
      const parts = text.split('\n');
      rest = parts.pop() ?? '';
      for (const part of parts) if (part !== '') log(part);
      done();
    },
    final(done) {
      if (rest !== '') log(rest);
      done();
    },
  });
}
