/**
 * One tool call is one run of the command, in this process: main() with the command line the input
 * makes, --json, and streams that keep what the command prints. The result is what `--json` printed;
 * an error is the error `--json` reported (its message, and the hint the command gave), as a tool error.
 */
import { PassThrough } from 'node:stream';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Env } from '../context.js';
import { AgencyError, ExitCode } from '../errors.js';
import { keptStream } from '../output/kept.js';
import type { ProgressSink } from '../output/progress.js';
import type { IO } from '../runtime.js';
import { commandLine, type Param } from './schema.js';
import { jsonText, type ToolSpec } from './tools.js';

export interface CallSetup {
  spec: ToolSpec;
  params: readonly Param[];
  /** Global options of the server's own command line (-p, --base-url, --timeout, --debug). */
  globals: readonly string[];
  env: Env;
  signal: AbortSignal;
  progress?: ProgressSink | undefined;
  /** The call's stderr, line by line, for the server's log (without the --json error objects). */
  log: (line: string) => void;
}

interface RunOutput {
  code: number;
  stdout: string;
  stderr: string;
}

export async function callTool(setup: CallSetup, input: unknown): Promise<CallToolResult> {
  let line: { words: string[]; stdin: string | undefined };
  try {
    line = commandLine(setup.params, input);
  } catch (error) {
    if (!(error instanceof AgencyError)) throw error;
    // As the command's own usage errors (exit 2): nothing was sent.
    setup.log(`error: ${error.message}`);
    const reported = {
      status: null,
      title: null,
      detail: null,
      message: inToolTerms(error.message, setup.params),
    };
    return {
      isError: true,
      content: [{ type: 'text', text: errorText(reported, error.hint, error.exitCode) }],
    };
  }
  const argv = [...setup.globals, ...setup.spec.path, '--json', ...(setup.spec.fixed ?? []), ...line.words];
  const { main } = await import('../cli.js');
  const output = await capture(
    setup,
    (io) => main(argv, io, undefined, { signal: setup.signal, progress: setup.progress }),
    line.stdin,
  );
  if (output.code !== ExitCode.ok && !setup.spec.answers?.includes(output.code))
    return errorResult(output, setup);
  return {
    content: [
      { type: 'text', text: present(setup, output.stdout, input) },
      ...warnings(output, setup.params),
    ],
  };
}

/** What a command that printed JSON becomes for the assistant (keys list masks keys unless asked). */
function present(setup: CallSetup, stdout: string, input: unknown): string {
  const { present: change } = setup.spec;
  if (!change || stdout === '') return stdout;
  return jsonText(change(JSON.parse(stdout), (input ?? {}) as Record<string, unknown>));
}

/** The warnings of the run, and its notes (a value sent in another form than given): what the writer marked. */
function warnings(output: RunOutput, params: readonly Param[]): CallToolResult['content'] {
  const lines = output.stderr
    .split('\n')
    .filter((l) => l.startsWith('warning: ') || l.startsWith('note: '))
    .map((l) => inToolTerms(l, params));
  return lines.length > 0 ? [{ type: 'text', text: lines.join('\n') }] : [];
}

/**
 * A message of the command in the tool's terms: the options it names (`Invalid --limit`) by the tool's
 * argument names (`Invalid limit`), and "argument 2" of the command line as the second of the
 * arguments' values (`values #2`): the assistant passed arguments, not a command line.
 */
function inToolTerms(message: string, params: readonly Param[]): string {
  let text = message;
  for (const param of params) {
    if (param.flag?.startsWith('--'))
      text = text.replace(new RegExp(`(?<![\\w-])${param.flag}(?![\\w-])`, 'g'), param.property);
  }
  const positional = params.filter((param) => param.flag === undefined);
  const [only] = positional;
  if (positional.length === 1 && only)
    text = text.replace(/\bargument (\d+)\b/g, only.many ? `${only.property} #$1` : only.property);
  return text;
}

/**
 * A failed run: whatever it printed on stdout (a fleet command's rows before the failure), then the
 * error --json wrote as the last line of stderr, with the hint the human message gave.
 */
function errorResult(output: RunOutput, setup: CallSetup): CallToolResult {
  const lines = output.stderr.replace(/\n$/, '').split('\n');
  const last = lines.length - 1;
  let error: Record<string, unknown> = { message: lines.filter((l) => l !== '').at(-1) ?? 'failed' };
  try {
    const parsed = JSON.parse(lines[last] ?? '');
    if (parsed && typeof parsed.error === 'object') error = parsed.error;
  } catch {}
  const content: CallToolResult['content'] = [];
  if (output.stdout !== '') content.push({ type: 'text', text: present(setup, output.stdout, {}) });
  if (typeof error.message === 'string')
    error = { ...error, message: inToolTerms(error.message, setup.params) };
  content.push({ type: 'text', text: errorText(error, hintOf(lines.slice(0, last)), output.code) });
  return { isError: true, content };
}

/** The error object of --json, with the hint, and the exit code the command line would have had. */
function errorText(error: Record<string, unknown>, hint: string | undefined, code: number): string {
  return JSON.stringify({ error: { ...error, ...(hint ? { hint } : {}) }, exit_code: code }, null, 2);
}

/** The hint of the last "error:" message: the "hint:" line after it (and its continuation lines). */
function hintOf(lines: readonly string[]): string | undefined {
  const errorAt = lines.findLastIndex((l) => l.startsWith('error: '));
  if (errorAt < 0) return undefined;
  const hintAt = lines.findIndex((l, i) => i > errorAt && l.startsWith('hint: '));
  if (hintAt < 0) return undefined;
  return lines.slice(hintAt).join('\n').slice('hint: '.length);
}

/** Runs `run` with streams that keep stdout and stderr; stderr also goes to the server's log. */
async function capture(
  setup: CallSetup,
  run: (io: IO) => Promise<number>,
  stdinText?: string,
): Promise<RunOutput> {
  const stdin = new PassThrough();
  stdin.end(stdinText ?? '');
  const stdout = keptStream();
  const stderr = keptStream();
  const code = await run({ stdin, stdout: stdout.stream, stderr: stderr.stream, env: setup.env });
  const err = stderr.text();
  for (const l of err.split('\n')) if (l !== '' && !l.startsWith('{"error":')) setup.log(l);
  return { code, stdout: stdout.text(), stderr: err };
}
