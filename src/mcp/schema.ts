/**
 * A tool's input, made from its command's own arguments and options (the command tree is the one source):
 * the JSON schema the client sees, and the command line a call becomes. The values are then checked by
 * the command itself, exactly as when typed, so a bad URL or name is refused before any request.
 */
import type { Command } from '@commander-js/extra-typings';
import { collectValues, printsList } from '../commands/command.js';
import { UsageError } from '../errors.js';
import type { ToolSpec } from './tools.js';

export interface Param {
  /** The property of the tool's input: the option's or argument's name in snake_case. */
  property: string;
  description: string;
  type: 'string' | 'boolean' | 'integer';
  /** An array (a repeatable option, a variadic argument). */
  many: boolean;
  required: boolean;
  choices?: readonly string[] | undefined;
  /** More JSON schema keywords for each value (a date's pattern, a URL's format). */
  value?: Readonly<Record<string, unknown>> | undefined;
  /** '--label' for an option; undefined for an argument (given after '--', in order). */
  flag?: string | undefined;
  /** The value is text given on stdin, and the option gets '-'. */
  stdin?: boolean | undefined;
  /** The properties of the options this one cannot be given with (the command's `conflicts`). */
  conflicts?: readonly string[] | undefined;
  /** Given on every call and not offered: --yes (the client asks its user before a call that writes). */
  fixed?: true | undefined;
}

// A type, not an interface: the SDK's Tool wants an object with an index signature.
export type JsonSchema = {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties: false;
};

const snake = (name: string) => name.replace(/-/g, '_');

/**
 * What an option's value name says its values are (`--limit <n>`, `--from <date>`): one convention of
 * the command tree, so that a new command's tool gets the same schema without a word in the tool table.
 * A file (`<path>`, `<file>`) names a file on the server's machine: never offered, an assistant passes
 * the values themselves (or, for a tool with `text`, the file's text).
 */
const VALUE_KINDS: Readonly<Record<string, 'integer' | 'file' | Readonly<Record<string, string>>>> = {
  n: 'integer',
  seconds: 'integer',
  percent: 'integer',
  days: 'integer',
  ms: 'integer',
  path: 'file',
  file: 'file',
  date: { pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
  url: { format: 'uri' },
  address: { format: 'email' },
  email: { format: 'email' },
};

/** The value name of `--limit <n>` or `--html [file]`: `n`, `file`; undefined for a flag. */
function valueName(flags: string): string | undefined {
  return /[<[]([\w-]+)[\]>]/.exec(flags)?.[1];
}

export function paramsOf(command: Command, spec: ToolSpec): Param[] {
  const describe = (property: string, fallback: string) => spec.describe?.[property] ?? fallback;
  const params: Param[] = command.registeredArguments.map((argument) => ({
    property: snake(argument.name()),
    description: describe(snake(argument.name()), argument.description),
    type: 'string',
    many: argument.variadic,
    required: argument.required,
    choices: argument.argChoices,
  }));
  for (const option of command.options) {
    const name = option.name();
    if (spec.text?.option === name) {
      const { property, description } = spec.text;
      params.push({
        property,
        description,
        type: 'string',
        many: false,
        required: true,
        flag: option.long,
        stdin: true,
      });
      continue;
    }
    const kind = VALUE_KINDS[valueName(option.flags) ?? ''];
    if (option.hidden || option.negate || kind === 'file' || spec.omit?.includes(name)) continue;
    const takesValue = option.required || option.optional;
    params.push({
      property: snake(name),
      // The help line's "(required)" is the schema's `required` here.
      description: describe(snake(name), option.description),
      type: !takesValue ? 'boolean' : kind === 'integer' ? 'integer' : 'string',
      many: option.variadic || option.parseArg === collectValues,
      required: option.mandatory,
      choices: option.argChoices,
      value: typeof kind === 'object' ? kind : undefined,
      flag: option.long,
      conflicts: (option as { conflictsWith?: string[] }).conflictsWith?.map(snake),
      fixed: option.long === '--yes' || undefined,
    });
  }
  // A list takes the program's --columns: the fields of each item (every field with "all").
  if (printsList(command))
    params.push({
      property: 'columns',
      description: 'the fields of each item to return, e.g. ["id", "name"]; ["all"] for every field',
      type: 'string',
      many: true,
      required: false,
      flag: '--columns',
    });
  // A help line that names another option ("this or --emails is required") names its argument here.
  const argumentOf = (flag: string) => params.find((p) => p.flag === flag)?.property ?? snake(flag.slice(2));
  for (const param of params)
    param.description = param.description.replace(
      /(^|[^\w-])(--[a-z][a-z-]*)/g,
      (_, before: string, flag: string) => before + argumentOf(flag),
    );
  return params;
}

export function inputSchema(params: readonly Param[]): JsonSchema {
  const properties: JsonSchema['properties'] = {};
  for (const param of params) {
    if (param.fixed) continue;
    const value: Record<string, unknown> = { type: param.type, ...param.value };
    if (param.type === 'integer') value.minimum = 1;
    if (param.choices) value.enum = [...param.choices];
    properties[param.property] = param.many
      ? {
          type: 'array',
          items: value,
          description: param.description,
          ...(param.required ? { minItems: 1 } : {}),
        }
      : { ...value, description: param.description };
  }
  const required = params.filter((p) => p.required && !p.fixed).map((p) => p.property);
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/**
 * The words after the command's own (options as --name=value, so that no value is read as an option;
 * arguments after '--') and the text for stdin. Only the shape is checked here; the command checks the rest.
 */
export function commandLine(
  params: readonly Param[],
  input: unknown,
): { words: string[]; stdin: string | undefined } {
  if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input)))
    throw new UsageError('The arguments must be an object.');
  const args = (input ?? {}) as Record<string, unknown>;
  const offered = params.filter((p) => !p.fixed);
  const known = new Map(offered.map((p) => [p.property, p]));
  const unknown = Object.keys(args).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new UsageError(`Unknown argument ${unknown.map((n) => JSON.stringify(n)).join(', ')}.`, {
      hint: offered.length
        ? `This tool takes: ${offered.map((p) => p.property).join(', ')}.`
        : 'This tool takes no arguments.',
    });
  }
  for (const param of params) {
    const given = (name: string) => args[name] !== undefined && args[name] !== null && args[name] !== false;
    const clash = param.conflicts?.find((other) => given(other));
    if (given(param.property) && clash)
      throw new UsageError(`Argument "${param.property}" cannot be used with "${clash}".`);
  }
  const options: string[] = [];
  const positional: string[] = [];
  let stdin: string | undefined;
  for (const param of params) {
    if (param.fixed && param.flag) {
      options.push(param.flag);
      continue;
    }
    const given = args[param.property];
    if (given === undefined || given === null) {
      if (param.required) throw new UsageError(`Missing argument "${param.property}": ${param.description}.`);
      continue;
    }
    const values = param.many ? (Array.isArray(given) ? given : [given]) : [given];
    if (param.required && values.length === 0)
      throw new UsageError(`Argument "${param.property}" needs at least one value.`);
    const words = values.map((value) => word(param, value));
    if (param.stdin) {
      stdin = words[0];
      options.push(`${param.flag}=-`);
    } else if (param.flag === undefined) positional.push(...words);
    else if (param.type === 'boolean') {
      if (given === true) options.push(param.flag);
    } else options.push(...words.map((value) => `${param.flag}=${value}`));
  }
  return { words: positional.length > 0 ? [...options, '--', ...positional] : options, stdin };
}

/** One value as the command line would carry it; numbers are accepted for text (ids). */
function word(param: Param, value: unknown): string {
  const wrong = () =>
    new UsageError(
      `Argument "${param.property}" must be ${param.many ? 'a list of ' : ''}${
        param.type === 'boolean' ? 'true or false' : param.type === 'integer' ? 'whole numbers' : 'text'
      }, not ${JSON.stringify(value)}.`,
    );
  if (param.type === 'boolean') {
    if (typeof value !== 'boolean') throw wrong();
    return String(value);
  }
  if (param.type === 'integer' && !(typeof value === 'number' && Number.isInteger(value))) {
    // "5" is what the command line itself would get: let the command judge it.
    if (typeof value !== 'string') throw wrong();
  }
  if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) throw wrong();
  return String(value);
}
