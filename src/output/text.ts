/**
 * Text that came from the server (names, labels, error details) can carry terminal escape sequences.
 * Printed raw, they could rewrite the screen or the window title; these helpers make it inert.
 */

// ESC-introduced sequences (CSI, OSC terminated by BEL or ST, and two-byte escapes), then lone controls:
// C0 except tab/newline, DEL, C1, and the Unicode bidi overrides that can reorder what a reader sees.
const ESCAPE_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Removes escape sequences and control characters; keeps tabs and newlines. */
export function terminalSafe(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, '').replace(CONTROL, '');
}

/** One cell of one line: also folds tabs and newlines to spaces so rows stay rows. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return terminalSafe(text).replace(/[\t\r\n]+/g, ' ');
}
