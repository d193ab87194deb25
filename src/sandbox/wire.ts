/** Reading requests and writing answers on node:http: bodies, headers, query, the API key. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody } from './error-body.js';
import type { Body } from './routing.js';
import type { Store } from './store.js';
import { SandboxError } from './types.js';

const MAX_BODY_BYTES = 1024 * 1024;

/** The key from `x-api-key`, or on v1 paths from Basic auth (the key as user name or as password). */
export function apiKeyOf(req: IncomingMessage, v1: boolean, store: Store): string | undefined {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string' && header !== '') return header;
  const auth = req.headers.authorization;
  if (!v1 || !auth || !/^basic /i.test(auth)) return undefined;
  const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return decoded || undefined;
  const user = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  if (user && store.authenticate(user)) return user;
  if (password && store.authenticate(password)) return password;
  return user || password || undefined;
}

export function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export function queryOf(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of url.searchParams) if (!(name in out)) out[name] = value;
  return out;
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) reject(new SandboxError(413, `Request body is larger than ${MAX_BODY_BYTES} bytes`));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('request aborted'));
    });
  });
}

export function parseBody(text: string): Body {
  if (text === '') return { kind: 'none' };
  try {
    return { kind: 'json', value: JSON.parse(text) };
  } catch {
    return { kind: 'invalid', text };
  }
}

/** A JSON answer; `body` undefined = no body at all (content-length 0). */
export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  if (body === undefined) {
    // A 204 carries no Content-Length at all; other empty answers say 0.
    res.writeHead(status, status === 204 ? headers : { 'content-length': '0', ...headers });
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

export function sendError(
  res: ServerResponse,
  status: number,
  detail: string,
  headers: Record<string, string> = {},
): void {
  send(res, status, errorBody(status, detail), headers);
}
