/**
 * Reading the service's JSON without losing anything it said (contract, "Errors and exit codes"):
 * an integer beyond 2^53 (an id) stays exactly as written instead of rounding to a neighbour's id,
 * and an answer nested deeper than any real one is refused before it can overflow the stack.
 *
 * The common path pays one native regex test: only a text with a run of 16 or more digits (the
 * shortest integer that can be unsafe) is read again, with its unsafe integers kept as ExactInteger.
 */

/** An integer the service wrote that a double cannot hold: its digits, printed as they came. */
export class ExactInteger {
  constructor(readonly digits: string) {}

  /** Arithmetic and comparisons get the nearest double. */
  valueOf(): number {
    return Number(this.digits);
  }

  toString(): string {
    return this.digits;
  }

  /** JSON.stringify cannot write a bare number from an object: stringifyExact() unwraps this marker. */
  toJSON(): string {
    exactSeen = true;
    return `${MARK}${this.digits}`;
  }
}

/** Deeper than any answer of the service (theirs nest < 10): refused before anything recurses into it. */
export const MAX_DEPTH = 256;

/** The answer is valid JSON but nested deeper than MAX_DEPTH. */
export class TooDeepError extends Error {}

const MARK = '\u0000exact:';
const MARKED = /"\\u0000exact:(-?\d+)"/g;
const LONG_DIGITS = /\d{16}/;
// A string (skipped whole, so digits inside it are left alone) or an integer of 16 digits or more.
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d{16,}(?![\d.eE])/g;
let exactSeen = false;

/** JSON.parse, with unsafe integers kept exact and a depth limit; throws SyntaxError or TooDeepError. */
export function parseJson(text: string): unknown {
  const data: unknown = JSON.parse(text);
  // A document nested MAX_DEPTH deep takes at least 2 characters a level.
  if (text.length > 2 * MAX_DEPTH && tooDeep(data)) throw new TooDeepError();
  if (!LONG_DIGITS.test(text)) return data;
  let unsafe = false;
  const marked = text.replace(TOKENS, (token) => {
    if (token.startsWith('"') || Number.isSafeInteger(Number(token))) return token;
    unsafe = true;
    return `"\\u0000exact:${token}"`;
  });
  if (!unsafe) return data;
  return JSON.parse(marked, (_key, value) =>
    typeof value === 'string' && value.startsWith(MARK) ? new ExactInteger(value.slice(MARK.length)) : value,
  );
}

/** JSON.stringify that writes an ExactInteger as the bare number it was. */
export function stringifyExact(value: unknown, indent?: number): string {
  exactSeen = false;
  const text = JSON.stringify(value, null, indent);
  return exactSeen ? text.replace(MARKED, '$1') : text;
}

/** A number as the service wrote it: a double, or an ExactInteger. */
export function isNumeric(value: unknown): value is number {
  return typeof value === 'number' || value instanceof ExactInteger;
}

/** Whether the value nests deeper than MAX_DEPTH (walked without recursion). */
function tooDeep(root: unknown): boolean {
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_DEPTH) return true;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
