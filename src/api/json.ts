/**
 * Reading the service's JSON without losing anything it said (contract, "Errors and exit codes"):
 * an integer beyond 2^53 (an id) stays exactly as written instead of rounding to a neighbour's id,
 * and an answer nested deeper than any real one is refused before it can overflow the stack.
 *
 * The common path pays a sparse scan of the text (hasLongDigitRun): only a text with a run of 16 or
 * more digits (the shortest integer that can be unsafe) is read again, with its unsafe integers kept
 * as ExactInteger.
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

/**
 * A whole number typed by the user (an id on the command line), held as exactly as the service's:
 * a number when a double holds it, else an ExactInteger (typed as a number, like the ids of answers).
 */
export function exactInteger(digits: string): number {
  const text = digits.trim().replace(/^0+(?=\d)/, '');
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : (new ExactInteger(text) as unknown as number);
}

/** Deeper than any answer of the service (theirs nest < 10): refused before anything recurses into it. */
export const MAX_DEPTH = 256;

/** The answer is valid JSON but nested deeper than MAX_DEPTH. */
export class TooDeepError extends Error {}

const MARK = '\u0000exact:';
const MARKED = /"\\u0000exact:(-?\d+)"/g;
// A string (skipped whole, so digits inside it are left alone) or an integer of 16 digits or more.
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d{16,}(?![\d.eE])/g;
let exactSeen = false;

/** JSON.parse, with unsafe integers kept exact and a depth limit; throws SyntaxError or TooDeepError. */
export function parseJson(text: string): unknown {
  const data: unknown = JSON.parse(text);
  // A document nested MAX_DEPTH deep takes at least 2 characters a level.
  if (typeof data === 'object' && data !== null && text.length > 2 * MAX_DEPTH && tooDeep(text, data))
    throw new TooDeepError();
  if (!hasLongDigitRun(text)) return data;
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

/**
 * Whether the text holds 16 digits in a row. Any such run covers a position ≡ 15 (mod 16), so only
 * every 16th character is looked at (and the run around it when it is a digit): a few hundred reads
 * for a page of 50 companies, several times faster than a regex.
 */
function hasLongDigitRun(text: string): boolean {
  for (let i = 15; i < text.length; i += 16) {
    if (!isDigit(text.charCodeAt(i))) continue;
    let start = i;
    while (start > 0 && isDigit(text.charCodeAt(start - 1))) start--;
    let end = i + 1;
    while (end < text.length && isDigit(text.charCodeAt(end))) end++;
    if (end - start >= 16) return true;
  }
  return false;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
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

/**
 * Whether the text nests deeper than MAX_DEPTH. A document that deep has at least MAX_DEPTH opening
 * brackets: most answers have fewer and are not walked at all; the others are walked once, without
 * recursion and without allocating per object.
 */
function tooDeep(text: string, root: unknown): boolean {
  let openings = 0;
  for (let i = text.indexOf('{'); i !== -1 && openings < MAX_DEPTH; i = text.indexOf('{', i + 1)) openings++;
  for (let i = text.indexOf('['); i !== -1 && openings < MAX_DEPTH; i = text.indexOf('[', i + 1)) openings++;
  if (openings < MAX_DEPTH) return false;
  const values: unknown[] = [root];
  const depths: number[] = [0];
  while (values.length > 0) {
    const value = values.pop() as object;
    const depth = depths.pop() as number;
    if (depth >= MAX_DEPTH) return true;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const child: unknown = value[i];
        if (typeof child === 'object' && child !== null) {
          values.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in value) {
        const child: unknown = (value as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null) {
          values.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}
