/**
 * How a tool says what its command's messages and results refer to (src/terms.ts): an option by the
 * argument that sets it, a command by the tool that runs it with its arguments as JSON (a command this
 * server does not offer: for the user to run), a line of stdin as a line of the text argument.
 */
import { FOR_ASSISTANT, type Terms } from '../terms.js';
import type { Param } from './schema.js';
import { type ToolSpec, toolName } from './tools.js';

export interface ServedTool {
  spec: ToolSpec;
  params: readonly Param[];
}

export interface ToolTermsSetup {
  /** The tool called. */
  spec: ToolSpec;
  params: readonly Param[];
  /** Every tool this server offers. */
  served: readonly ServedTool[];
  /** The program's own options (--debug, --timeout, --base-url …): the server's, not a tool's. */
  globals: ReadonlySet<string>;
}

export function toolTerms({ spec, params, served, globals }: ToolTermsSetup): Terms {
  const positional = params.filter((param) => param.flag === undefined);
  const [only] = positional;
  const property = (name: string) => {
    const found = params.find((p) => p.flag === `--${name}`)?.property;
    if (found !== undefined || !globals.has(name)) return { property: found ?? snake(name), server: false };
    return { property: FOR_ASSISTANT.serverSetting(name), server: true };
  };
  const call = (line: string) => toolCall(line, served);
  return {
    option: ({ name, shown }) => {
      const { property: said, server } = property(name);
      if (shown === undefined || server) return said;
      // commander's own words: "option '--severity <level>' argument 'x' is invalid".
      return shown.endsWith(' argument') ? `argument "${said}" value` : `argument "${said}"`;
    },
    command: ({ line }) => call(line) ?? FOR_ASSISTANT.userRuns(line),
    run: ({ line }) => {
      const tool = call(line);
      return tool === undefined ? FOR_ASSISTANT.userRuns(line) : `call ${tool}`;
    },
    line: ({ source, line }) =>
      `line ${line} of ${source === 'stdin' ? (spec.text?.noun ?? 'the input') : source}`,
    argument: ({ index }) =>
      positional.length === 1 && only
        ? only.many
          ? `${only.property} #${index}`
          : only.property
        : `argument ${index}`,
    variable: ({ name }) => FOR_ASSISTANT.serverVariable(name),
  };
}

/**
 * `campaigns resume --company 1004 --campaign 100401` → `campaigns_resume {"company":"1004","campaign":[100401]}`;
 * undefined when no tool served runs that command. A noun alone is its list (`webhooks` → webhooks_list).
 */
export function toolCall(line: string, served: readonly ServedTool[]): string | undefined {
  const words = shellWords(line);
  const path = (tool: ServedTool) => tool.spec.path;
  const matches = (tool: ServedTool, at: readonly string[]) =>
    path(tool).length === at.length && path(tool).every((word, i) => at[i] === word);
  let tool: ServedTool | undefined;
  let rest: string[] = [];
  for (let n = Math.min(words.length, 3); n > 0 && !tool; n--) {
    const head = words.slice(0, n);
    const bare = words[n] === undefined || words[n]?.startsWith('-');
    tool =
      served.find((t) => matches(t, head)) ??
      (bare ? served.find((t) => matches(t, [...head, 'list'])) : undefined);
    rest = words.slice(n);
  }
  if (!tool) return undefined;
  const args = argumentsOf(tool, rest);
  return Object.keys(args).length === 0
    ? toolName(tool.spec)
    : `${toolName(tool.spec)} ${JSON.stringify(args)}`;
}

function argumentsOf(tool: ServedTool, words: readonly string[]): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const positional = tool.params.filter((param) => param.flag === undefined);
  const put = (param: Param | undefined, name: string, value: string | true) => {
    const typed =
      param?.type === 'integer' && typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
    const key = param?.property ?? snake(name);
    if (param?.many) args[key] = [...((args[key] as unknown[] | undefined) ?? []), typed];
    else args[key] = typed;
  };
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (!word.startsWith('--')) {
      const param = positional.shift() ?? positional.at(-1);
      if (param?.many) positional.unshift(param);
      put(param, `argument_${i}`, word);
      continue;
    }
    const [flag = '', inline] = word.split(/=(.*)/s, 2);
    const param = tool.params.find((p) => p.flag === flag);
    if (param?.fixed) continue;
    const takes = param
      ? param.type !== 'boolean'
      : words[i + 1] !== undefined && !words[i + 1]?.startsWith('--');
    if (!takes) put(param, flag.slice(2), true);
    else put(param, flag.slice(2), inline ?? words[++i] ?? '');
  }
  return args;
}

/** The words of a command line as a shell splits them (double or single quotes, no escapes). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

function snake(name: string): string {
  return name.replace(/-/g, '_');
}
