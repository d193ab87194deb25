/**
 * The --debug trace of one exchange: request line, headers and body, then status line (with the query
 * string), timing, headers and body. Bodies are cut to their first 2 KB. Header secrets and any
 * key-like JSON field are redacted here; http.ts also removes the profile's key from every line.
 */

/** How much of each body the trace shows. */
export const TRACE_BODY_BYTES = 2048;

const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** JSON string fields whose value is a secret: the keys of a key list or of a new key. */
const SECRET_FIELD =
  /("(?:api_?key|apiKey|key|token|access_token|secret|password)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi;

function redactHeader(name: string, value: string): string {
  return SECRET_HEADERS.has(name.toLowerCase()) ? '[redacted]' : value;
}

export function headerLines(headers: Record<string, string | string[] | undefined>): string[] {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value])
      lines.push(`  ${name}: ${redactHeader(name, one)}`);
  }
  return lines;
}

/** The first 2 KB of a body, secrets redacted, on indented lines; nothing for an empty body. */
export function bodyLines(text: string | undefined): string[] {
  if (text === undefined || text === '') return [];
  const redacted = text.replace(SECRET_FIELD, '$1"[redacted]"');
  const cut = redacted.length > TRACE_BODY_BYTES;
  const shown = cut ? redacted.slice(0, TRACE_BODY_BYTES) : redacted;
  const lines = shown.split(/\r?\n/).map((line) => `  | ${line}`);
  if (cut) lines.push(`  | … (${redacted.length - TRACE_BODY_BYTES} more characters not shown)`);
  return lines;
}

/** `/rest/v2/agency/companies?page=2`: the path with its query string. */
export function target(url: URL): string {
  return `${url.pathname}${url.search}`;
}
