/** Calls straight to a sandbox started in-process, and the seeded world's ids, for the sandbox's own tests. */
import { afterEach, expect } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';

export const CANARY = 'wpk_hq_canary0123456789abcdef0123456789';
export const TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

// The seeded world (index i = id - 1001): inactive when i % 7 === 6, Tom owns i % 3 === 1.
export const OLIVIA_ACTIVE = 1001; // "Acme Ltd"
export const TOM_ACTIVE = 1002; // "Blue Harbor Dental"
export const OLIVIA_INACTIVE = 1007;
export const TOM_INACTIVE = 1014;
export const MISSING = 999_999;

export interface Call {
  method?: string;
  key?: string | null;
  company?: string | number;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions
  body: any;
  text: string;
  headers: Headers;
  /** The path called, relative to /rest (or starting with /_sandbox). */
  path: string;
}

export async function call(sb: Sandbox, path: string, c: Call = {}): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json', ...c.headers };
  if (c.key !== null) headers['x-api-key'] = c.key ?? sb.hqKey;
  if (c.company !== undefined) headers['x-company-id'] = String(c.company);
  let body: string | undefined = c.raw;
  if (c.body !== undefined) body = JSON.stringify(c.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path.startsWith('/_sandbox') ? sb.url + path : sb.baseUrl + path, {
    method: c.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
    signal: c.signal,
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers, path };
}

/**
 * An error body: the specification's `{title, status, detail, timestamp}`, or on v1 paths of a
 * sandbox with `v1Dialect` the v1 envelope `{"status": {"status": "ERROR", "code", "msg"}}`
 * (`code` checked when given).
 */
export function expectError(a: Answer, status: number, detail?: RegExp | string, code?: string): void {
  expect(a.status).toBe(status);
  expect(a.headers.get('content-type')).toMatch(/^application\/json/);
  if (typeof a.body?.status === 'object' || code !== undefined) {
    expect(a.path).toMatch(/^\/v1\//);
    expect(Object.keys(a.body)).toEqual(['status']);
    expect(Object.keys(a.body.status).sort()).toEqual(['code', 'msg', 'status']);
    expect(a.body.status.status).toBe('ERROR');
    expect(a.body.status.code).toMatch(code ?? /^E_[A-Z_]+$/);
    if (typeof detail === 'string') expect(a.body.status.msg).toBe(detail);
    else if (detail) expect(a.body.status.msg).toMatch(detail);
    return;
  }
  expect(Object.keys(a.body).sort()).toEqual(['detail', 'status', 'timestamp', 'title']);
  expect(a.body.status).toBe(status);
  expect(typeof a.body.title).toBe('string');
  expect(a.body.title.length).toBeGreaterThan(0);
  expect(a.body.timestamp).toMatch(TIMESTAMP);
  if (typeof detail === 'string') expect(a.body.detail).toBe(detail);
  else if (detail) expect(a.body.detail).toMatch(detail);
}

export function tomKey(sb: Sandbox): string {
  return (sb.users[1] as { hqKey: string }).hqKey;
}

/** A client key of a company, created by its owner when seeded. */
export function clientKey(sb: Sandbox, companyId: number): string {
  const key = sb.store.keysOf(companyId)[0];
  if (!key) throw new Error(`no key for ${companyId}`);
  return key.key;
}

let nameCounter = 0;
export function uniqueName(prefix = 'Test Co'): string {
  nameCounter += 1;
  return `${prefix} ${process.pid}-${nameCounter}`;
}

/** Starts sandboxes for one describe block; each is closed after every test. */
export function sandboxesClosedAfterEach(): (opts: Parameters<typeof startSandbox>[0]) => Promise<Sandbox> {
  const sandboxes: Sandbox[] = [];
  afterEach(async () => {
    await Promise.all(sandboxes.splice(0).map((sb) => sb.close()));
  });
  return async (opts) => {
    const sb = await startSandbox(opts);
    sandboxes.push(sb);
    return sb;
  };
}
