/**
 * Text that came from the server (names, labels, error details) can carry terminal escape sequences.
 * Printed raw, they could rewrite the screen or the window title; these helpers make it inert.
 */
import { ExactInteger, stringifyExact } from '../api/json.js';

// The one set of characters that server text must never bring to a terminal, and user text must never
// carry into a request: C0, DEL, C1 (a lone 0x9B starts a CSI sequence) and every Unicode bidi control
// (the overrides and isolates, and the marks LRM, RLM and ALM) that can reorder what a reader sees.
const CONTROL_RANGES = '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
/** Invisible format characters that make two names look equal: separators, zero-width, BOM. */
const INVISIBLE_RANGES = '\\u200b\\u2028\\u2029\\ufeff';
const CONTROL = new RegExp(`[${CONTROL_RANGES}]`, 'g');
const CONTROL_OR_INVISIBLE = new RegExp(`[${CONTROL_RANGES}${INVISIBLE_RANGES}]`);
const CONTROL_OR_INVISIBLE_ALL = new RegExp(CONTROL_OR_INVISIBLE.source, 'g');
// In JSON text: C0 is escaped by JSON.stringify already (and its layout newlines must stay); the line
// separators U+2028/2029 are escaped as well, as JavaScript source once could not hold them.
const JSON_UNSAFE = new RegExp(`[${CONTROL_RANGES}\\u2028\\u2029]`, 'g');

// ESC-introduced sequences (CSI, OSC terminated by BEL or ST, and the short ones such as ESC c or ESC ( 0,
// whose final byte would otherwise be left behind).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const ESCAPE_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[ -/]*[0-~])/g;

/** True when user input holds a control or invisible format character (refused before anything is sent). */
export function hasControlCharacters(text: string): boolean {
  return CONTROL_OR_INVISIBLE.test(text);
}

/**
 * JSON text whose value is unchanged but which is inert on a terminal: the control set above escaped as
 * \uXXXX (JSON.stringify leaves DEL, C1 and bidi controls raw). Used for stdout's JSON and the JSON error.
 */
export function inertJson(value: unknown, indent?: number): string {
  return stringifyExact(value, indent).replace(JSON_UNSAFE, (c) =>
    c < ' ' ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * User text quoted in a message ("Bidi \u202eoC"): every control and invisible character written as
 * \uXXXX, so that the message shows what is wrong with the text instead of acting it out.
 */
export function quoted(text: string): string {
  return JSON.stringify(text).replace(
    CONTROL_OR_INVISIBLE_ALL,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Removes escape sequences and control characters; keeps tabs and newlines. */
export function terminalSafe(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(CONTROL, (c) => (c === '\t' || c === '\n' ? c : ''));
}

/**
 * A cell that holds a list of values (webhook events, mailbox types, roles): joined with `separator`
 * in a table and in piped rows, and with `; ` in CSV (docs/output.md), so that a spreadsheet user
 * can split the cell on "; " whatever the values hold.
 */
export class ListCell {
  constructor(
    readonly items: readonly string[],
    readonly separator = ',',
  ) {}
}

/** One cell of one line: also folds tabs and newlines to spaces so rows stay rows. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text =
    typeof value === 'string'
      ? value
      : value instanceof ListCell
        ? value.items.join(value.separator)
        : typeof value === 'object' && !(value instanceof ExactInteger)
          ? stringifyExact(value)
          : String(value);
  return terminalSafe(text).replace(/[\t\r\n]+/g, ' ');
}

// Characters that take no column (combining marks, zero-width joiners, variation selectors) and those
// that take two (East Asian wide and fullwidth forms, most emoji). An approximation of wcwidth that
// is right for the names people give companies; it only decides where a cell is cut and padded.
// (Variation selectors are in \p{Mn}.)
const ZERO_WIDTH = /\p{Mn}|\p{Me}|[\u200b-\u200f\u2060-\u2064\ufeff]/u;
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]|\p{Emoji_Presentation}/u;

/** Printable ASCII, one column a character: most text, measured without the Unicode tests. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

function charWidth(char: string): number {
  const code = char.charCodeAt(0);
  if (code >= 0x20 && code < 0x7f) return 1;
  if (ZERO_WIDTH.test(char)) return 0;
  return WIDE.test(char) ? 2 : 1;
}

/** Columns a string takes on a terminal (no escape sequences expected: measure before colouring). */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width;
}

/** Cuts text to at most `width` columns, ending in '…' when something was cut. */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return '';
  let result = '';
  let used = 0;
  for (const char of text) {
    const w = charWidth(char);
    if (used + w > width - 1) break;
    result += char;
    used += w;
  }
  // "Blue Harbor …" reads as a gap; "Blue Harbor…" as a cut word.
  return `${result.trimEnd()}…`;
}

/** Pads with spaces to `width` columns (text already cut to fit). */
export function padToWidth(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/** Where a word without spaces may break: after these (`hello@`, `example.`, `/hooks/`, `no_running_`). */
const BREAK_AFTER = new Set(['/', '@', '.', ',', '_', '-', '?', '&', '=', ':', ';']);

/**
 * A last line of one word this short ("Q4 outreach" / "2") reads as a stray: the word before it goes
 * down to keep it company ("Q4" / "outreach 2"), where the line has room.
 */
const LONE_WORD = 3;

/**
 * Text on lines of at most `width` columns, for a table cell that is too narrow to hold it: broken
 * at a space (which is dropped) where there is one; a list after a comma; a long word (an address, a
 * URL) after one of its punctuation marks; else at the width. A word is broken only when it is longer
 * than the line, and a short last word is not left alone on its line (LONE_WORD). Nothing is lost:
 * joined again, the lines are the text.
 */
export function wrapToWidth(text: string, width: number): string[] {
  if (displayWidth(text) <= width || width <= 0) return [text];
  const lines: string[] = [];
  let rest = [...text];
  /** The last line began after a space (a break between words). */
  let afterSpace = false;
  while (rest.length > 0 && displayWidth(rest.join('')) > width) {
    // The longest start of the rest that fits.
    let fit = 0;
    let used = 0;
    while (fit < rest.length && used + charWidth(rest[fit] as string) <= width) {
      used += charWidth(rest[fit] as string);
      fit++;
    }
    fit = Math.max(1, fit);
    let cut = -1;
    let skip = 0;
    // A space just after what fits is a break too: "Acme Ltd" at width 4 → "Acme", "Ltd".
    for (let i = Math.min(fit, rest.length - 1); i > 0 && cut < 0; i--) {
      if (rest[i] === ' ') [cut, skip] = [i, 1];
    }
    // A list (`CAMPAIGN_COMPLETED,PROSPECT_REPLIED`) breaks between its items before inside one.
    for (let i = fit; i > 1 && cut < 0; i--) {
      if (rest[i - 1] === ',') cut = i;
    }
    for (let i = fit; i > 1 && cut < 0; i--) {
      if (BREAK_AFTER.has(rest[i - 1] as string)) cut = i;
    }
    if (cut < 0) cut = fit;
    lines.push(rest.slice(0, cut).join('').trimEnd());
    afterSpace = skip > 0 || rest[cut] === ' ';
    rest = rest.slice(cut + skip);
    while (rest[0] === ' ') rest.shift();
  }
  if (rest.length > 0) lines.push(rest.join(''));
  if (afterSpace) keepLastWordCompany(lines, width);
  return lines;
}

/**
 * A short last word alone on its line (after a break at a space) takes the word before it along; a
 * hyphenated word that cannot come down whole breaks after its hyphen instead ("Re-" / "engagement 4").
 */
function keepLastWordCompany(lines: string[], width: number): void {
  const last = lines.at(-1) ?? '';
  const before = lines.at(-2) ?? '';
  if (last.includes(' ') || displayWidth(last) > LONE_WORD) return;
  const at = before.lastIndexOf(' ');
  const word = before.slice(at + 1);
  const fits = (text: string) => displayWidth(text) <= width;
  if (at > 0 && fits(`${word} ${last}`)) {
    lines.splice(-2, 2, before.slice(0, at).trimEnd(), `${word} ${last}`);
    return;
  }
  const hyphen = word.lastIndexOf('-');
  const tail = `${word.slice(hyphen + 1)} ${last}`;
  if (hyphen > 0 && hyphen < word.length - 1 && fits(tail))
    lines.splice(-2, 2, before.slice(0, at + 1 + hyphen + 1), tail);
}

/**
 * The breaks between `lines` (wrapToWidth's of `text`) that fall inside a word, not at a space: after
 * punctuation (`PROSPECT_` / `NOT_INTERESTED`) or, `cut`, at the width (`blueharborden` / `tal.example`).
 */
export function breaksInWords(text: string, lines: readonly string[]): { inWords: number; cut: number } {
  const breaks = { inWords: 0, cut: 0 };
  let at = 0;
  for (const line of lines.slice(0, -1)) {
    at = text.indexOf(line, at) + line.length;
    if (text[at] === ' ') continue;
    breaks.inWords++;
    if (!BREAK_AFTER.has(line.at(-1) ?? '')) breaks.cut++;
  }
  return breaks;
}

/**
 * 1234567 → 1,234,567, as toLocaleString('en-US') writes an integer, without creating ICU's number
 * formatter (12–16 ms of the run that first uses it).
 */
export function groupDigits(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A word as a POSIX shell reads it back: as it is when plain, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
