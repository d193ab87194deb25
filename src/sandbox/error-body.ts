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
