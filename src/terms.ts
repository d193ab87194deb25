/**
 * References in a message to what the user gave or can run — an option, a command, a line of an
 * input, an argument, an environment variable — carried as values inside the text, so that each host
 * says them in its own terms: the command line `--skip-existing`, `agency companies list`, "stdin
 * line 3"; `agency mcp` `skip_existing`, `companies_list`, "line 3 of the plan". An error keeps its
 * text with the references (AgencyError.text) and its message in the command line's terms; a result's
 * text (a health problem's next step) carries them too, and each host renders the whole value
 * (renderValue) on its way out.
 */

type Reference =
  | { kind: 'option'; name: string; shown?: string | undefined }
  | { kind: 'command'; line: string }
  | { kind: 'run'; line: string }
  | { kind: 'line'; source: string; line: number }
  | { kind: 'argument'; index: number }
  | { kind: 'variable'; name: string };

/** How a host says each kind of reference. */
export type Terms = { [K in Reference['kind']]: (reference: Extract<Reference, { kind: K }>) => string };

// Private-use characters around a reference's fields (kind first), apart by a unit separator: never
// in what a user types or the service answers.
const OPEN = '\uE000';
const CLOSE = '\uE001';
const SEP = '\u001F';
const REFERENCE = /\uE000([^\uE001]*)\uE001/g;

function token(...fields: (string | number)[]): string {
  return `${OPEN}${fields.join(SEP)}${CLOSE}`;
}

function reference(fields: string): Reference {
  const [kind = '', a = '', b] = fields.split(SEP);
  if (kind === 'option') return { kind, name: a, shown: b };
  if (kind === 'command' || kind === 'run') return { kind, line: a };
  if (kind === 'line') return { kind, source: a, line: Number(b) };
  if (kind === 'variable') return { kind, name: a };
  return { kind: 'argument', index: Number(a) };
}

/**
 * An option of the command (`limit` → `--limit` on the command line, `limit` for a tool). `shown`: the
 * command line's own words for it (commander's "option '-s, --severity <level>'"), kept as they are there.
 */
export function option(name: string, shown?: string): string {
  return shown === undefined ? token('option', name) : token('option', name, shown);
}

/**
 * A command, with its arguments if any, as the command line says it: `companies list`,
 * `campaigns resume --company 1004 --campaign 100401` (→ `agency …`; a tool with its arguments for MCP).
 */
export function command(line: string): string {
  return token('command', line);
}

/**
 * "run `agency login`": what to do, said to whoever acts. An assistant calls the tool where there is one;
 * a command that has none is for the user (USER_RUNS). Capitalised at the start of a sentence.
 */
export function run(line: string): string {
  return token('run', line);
}

/** A line of an input: a file, or stdin (`-`). */
export function inputLine(source: string, line: number): string {
  return token('line', source, line);
}

/** The n-th value of the command's arguments (from 1). */
export function argument(index: number): string {
  return token('argument', index);
}

/** An environment variable of the process (AGENCY_API_KEY). */
export function variable(name: string): string {
  return token('variable', name);
}

/**
 * What an assistant reads for what only the user can do: a command that has no tool (or one this server
 * does not offer), and a setting or variable the server was started with (its MCP client's
 * configuration). Said here once, for every message.
 */
export const FOR_ASSISTANT = {
  userRuns: (line: string) => `ask the user to run \`agency ${line}\``,
  serverSetting: (name: string) => `the server's ${name.replace(/-/g, '_')} setting (the user starts it)`,
  serverVariable: (name: string) => `${name} in the server's environment (the MCP client's configuration)`,
};

/** The pattern of what FOR_ASSISTANT.userRuns says (a test checks that no other command line reaches an assistant). */
export const USER_RUNS = /ask the user to run `agency [^`]*`/g;

const COMMAND_LINE_TERMS: Terms = {
  option: ({ name, shown }) => shown ?? `--${name}`,
  command: ({ line }) => `agency ${line}`,
  run: ({ line }) => `run \`agency ${line}\``,
  line: ({ source, line }) => `${source} line ${line}`,
  argument: ({ index }) => `argument ${index}`,
  variable: ({ name }) => name,
};

/** The text with each reference said in `terms`. */
export function render(text: string, terms: Terms = COMMAND_LINE_TERMS): string {
  if (!text.includes(OPEN)) return text;
  return text.replace(REFERENCE, (_, fields: string, at: number) => {
    const found = reference(fields);
    const said = (terms[found.kind] as (r: Reference) => string)(found);
    return PROSE.test(said) && startsSentence(text.slice(0, at)) ? capitalise(said) : said;
  });
}

/**
 * A text kept in a file that people read too (the history, with sqlite3), in the command line's terms,
 * each command between backticks: `readStored` can tell where it ends and make it a reference again.
 */
const STORED_TERMS: Terms = {
  ...COMMAND_LINE_TERMS,
  command: ({ line }) => `\`agency ${line}\``,
};

export function forStorage(text: string): string {
  return render(text, STORED_TERMS);
}

/**
 * A text kept by `forStorage`, its commands and what to run references again, so that each host says
 * them in its own terms (a tool call for an assistant). A text kept before has no backticks: as it is.
 */
export function readStored(text: string): string {
  return text.replace(/(run )?`agency ([^`\n]+)`/g, (_, runs: string | undefined, line: string) =>
    runs ? run(line) : command(line),
  );
}

/** A value (a result) with every string in it rendered; the same value when no string holds a reference. */
export function renderValue<T>(value: T, terms: Terms = COMMAND_LINE_TERMS): T {
  if (typeof value === 'string') return render(value, terms) as T;
  if (Array.isArray(value)) {
    const items = value.map((item) => renderValue(item, terms));
    return (items.some((item, i) => item !== value[i]) ? items : value) as T;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value);
    const rendered = entries.map(([key, item]) => [key, renderValue(item, terms)] as const);
    return (
      rendered.some(([, item], i) => item !== entries[i]?.[1]) ? Object.fromEntries(rendered) : value
    ) as T;
  }
  return value;
}

/** A reference said in words (not a name to type): capitalised when it starts a sentence. */
const PROSE = /^(run|call|ask|the) /;

function startsSentence(before: string): boolean {
  return /(^|[.!?]\s+|\n)$/.test(before.replace(/\uE000[^\uE001]*\uE001/g, 'x'));
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
