/** The service's error body: `{title, status, detail, timestamp}` with a UTC `YYYY-MM-DD HH:MM:SS`. */
import { STATUS_CODES } from 'node:http';

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Payload too large',
  429: 'Too many requests',
};

function titleOf(status: number): string {
  const known = TITLES[status];
  if (known) return known;
  const text = (STATUS_CODES[status] ?? 'Error').toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `YYYY-MM-DD HH:MM:SS`, UTC. */
export function timestamp(date = new Date()): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

export function errorBody(status: number, detail: string) {
  return { title: titleOf(status), status, detail, timestamp: timestamp() };
}

/** The v1 paths' dialect: `{"status": {"status": "ERROR", "code": "E_...", "msg": "..."}}`. */
function v1ErrorBody(status: number, msg: string, code = v1CodeOf(status)) {
  return { status: { status: 'ERROR', code, msg } };
}

/** The third dialect some v2 answers use: `{code, message, details}`. */
function codeErrorBody(status: number, message: string, code?: string) {
  return {
    code:
      code ??
      `E_${titleOf(status)
        .toUpperCase()
        .replace(/[^A-Z]+/g, '_')}`,
    message,
    details: [],
  };
}

/** The codes the service's docs show for v1 (E_SESSION, E_URL_NOT_FOUND, E_TOO_MANY_REQUESTS, E_WRONG_PARAM). */
function v1CodeOf(status: number): string {
  if (status === 401 || status === 403) return 'E_SESSION';
  if (status === 404 || status === 405) return 'E_URL_NOT_FOUND';
  if (status === 429) return 'E_TOO_MANY_REQUESTS';
  if (status >= 500) return 'E_SERVER_ERROR';
  return 'E_WRONG_PARAM';
}

export type Dialect = 'v2' | 'v1' | 'code';

/** v1 paths answer errors in the v1 envelope; everything else in the specification's body. */
export function dialectOf(relPath: string | undefined): Dialect {
  return relPath?.startsWith('/v1/') ? 'v1' : 'v2';
}

export function errorIn(dialect: Dialect, status: number, detail: string, code?: string): unknown {
  if (dialect === 'v1') return v1ErrorBody(status, detail, code);
  if (dialect === 'code') return codeErrorBody(status, detail, code);
  return errorBody(status, detail);
}
