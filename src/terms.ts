/**
 * References in a message to what the user gave or can run — an option, a command, a line of an
 * input, an argument — carried as values inside the text, so that each host says them in its own
 * terms: the command line `--skip-existing`, `agency companies list`, "stdin line 3"; `agency mcp`
 * `skip_existing`, `companies_list`, "line 3 of the plan". An error keeps its text with the
 * references (AgencyError.text) and its message in the command line's terms.
 */

type Reference =
  | { kind: 'option'; name: string }
  | { kind: 'command'; words: string }
  | { kind: 'line'; source: string; line: number }
  | { kind: 'argument'; index: number };

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
  const [kind = '', a = '', b = ''] = fields.split(SEP);
  if (kind === 'option') return { kind, name: a };
  if (kind === 'command') return { kind, words: a };
  if (kind === 'line') return { kind, source: a, line: Number(b) };
  return { kind: 'argument', index: Number(a) };
}

/** An option of the command (`limit` → `--limit` on the command line). */
export function option(name: string): string {
  return token('option', name);
}

/** A command (`companies list` → `agency companies list`). */
export function command(words: string): string {
  return token('command', words);
}

/** A line of an input: a file, or stdin (`-`). */
export function inputLine(source: string, line: number): string {
  return token('line', source, line);
}

/** The n-th value of the command's arguments (from 1). */
export function argument(index: number): string {
  return token('argument', index);
}

const COMMAND_LINE_TERMS: Terms = {
  option: ({ name }) => `--${name}`,
  command: ({ words }) => `agency ${words}`,
  line: ({ source, line }) => `${source} line ${line}`,
  argument: ({ index }) => `argument ${index}`,
};

/** The text with each reference said in `terms`. */
export function render(text: string, terms: Terms = COMMAND_LINE_TERMS): string {
  if (!text.includes(OPEN)) return text;
  return text.replace(REFERENCE, (_, fields: string) => {
    const found = reference(fields);
    return (terms[found.kind] as (r: Reference) => string)(found);
  });
}
