/**
 * Helpers for the end-to-end suite of the core contract: a harness whose every run is checked for
 * leaked secrets, the requests the sandbox received (paths relative to /rest), direct calls to the
 * sandbox (the "truth" a command's output is compared with), and picks of seeded companies by role
 * (never by hard-coded id).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import {
  FOREIGN_AGENCY_ID,
  MAIN_AGENCY_ID,
  type RecordedRequest,
  type Sandbox,
  type SandboxOptions,
} from '../../src/sandbox/index.js';
import type { CompanyRecord, HqContext, UserRecord } from '../../src/sandbox/store.js';
import { CANARY_KEY, type Harness, type RunOptions, type RunResult, startHarness } from './cli.js';

/** A recorded request, with `path` relative to the base URL (e.g. '/v2/agency/companies'). */
export type SentRequest = Pick<RecordedRequest, 'method' | 'path' | 'query' | 'headers' | 'body' | 'status'>;

/** Every run of this harness asserts that no key it knows of (the users' HQ keys, AGENCY_API_KEY) reached stderr. */
export async function startCoreHarness(
  options: SandboxOptions = {},
  how: { inProcess?: boolean } = {},
): Promise<Harness> {
  const h = await startHarness(options, how);
  const run = async (args: string[], runOptions: RunOptions = {}): Promise<RunResult> => {
    const r = await h.run(args, runOptions);
    expectNoSecrets(r, h.sandbox, [runOptions.env?.AGENCY_API_KEY]);
    return r;
  };
  return { ...h, run };
}

/** Keys must never appear in messages, debug logs or errors. */
export function expectNoSecrets(
  r: RunResult,
  sandbox: Sandbox | undefined,
  extra: (string | undefined)[] = [],
): void {
  const secrets = [CANARY_KEY, ...(sandbox?.users.map((u) => u.hqKey) ?? []), ...extra].filter(
    (s): s is string => typeof s === 'string' && s.length >= 8,
  );
  for (const secret of new Set(secrets)) expect(r.stderr, 'a key leaked into stderr').not.toContain(secret);
}

export function sent(sandbox: Sandbox): SentRequest[] {
  return sandbox.requests.map((r: RecordedRequest) => ({
    method: r.method,
    path: r.path.replace(/^\/rest(?=\/|$)/, ''),
    query: r.query,
    headers: r.headers,
    body: r.body,
    status: r.status,
  }));
}

/** A local error: exit 2, nothing on stdout, no request sent. */
export function expectUsageError(r: RunResult, sandbox: Sandbox, message?: RegExp): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(sent(sandbox)).toEqual([]);
  if (message) expect(r.stderr).toMatch(message);
}

export function lines(stdout: string): string[] {
  return stdout === '' ? [] : stdout.replace(/\n$/, '').split('\n');
}

/** First field of each TSV row, as `cut -f1` would give it. */
export function cutF1(stdout: string): string[] {
  return lines(stdout).map((line) => line.split('\t')[0] ?? '');
}

export interface DirectAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions
  body: any;
}

/** A call straight to the sandbox, bypassing the CLI (it is not recorded once the caller resets). */
export async function direct(
  sandbox: Sandbox,
  path: string,
  init: { method?: string; key?: string; company?: number; body?: unknown } = {},
): Promise<DirectAnswer> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'x-api-key': init.key ?? sandbox.hqKey,
  };
  if (init.company !== undefined) headers['x-company-id'] = String(init.company);
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(sandbox.baseUrl + path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** Every item of a paged list, fetched page by page straight from the sandbox. */
export async function directAllPages(sandbox: Sandbox, path: string, key?: string): Promise<unknown[]> {
  const items: unknown[] = [];
  for (let page = 1; ; page++) {
    const sep = path.includes('?') ? '&' : '?';
    const { status, body } = await direct(sandbox, `${path}${sep}page=${page}`, { key });
    if (status !== 200) throw new Error(`direct ${path} page ${page}: ${status}`);
    items.push(...body.content);
    if (
      body.content.length === 0 ||
      body.pagination_data.current_page_number >= body.pagination_data.total_pages
    ) {
      return items;
    }
  }
}

// ---- the seeded world, by role ----

export function owner(sandbox: Sandbox): UserRecord {
  return sandbox.store.users(MAIN_AGENCY_ID).find((u) => u.role === 'AGENCY_OWNER') as UserRecord;
}

export function teammate(sandbox: Sandbox): UserRecord {
  return sandbox.store.users(MAIN_AGENCY_ID).find((u) => u.role === 'AGENCY_MEMBER') as UserRecord;
}

function first(list: CompanyRecord[], what: string): CompanyRecord {
  const company = list[0];
  if (!company) throw new Error(`the seeded sandbox has no ${what}`);
  return company;
}

/** An active company of the main agency owned by `userId` (default: the owner, Olivia), with seeded data. */
export function activeCompany(sandbox: Sandbox, userId = owner(sandbox).id): CompanyRecord {
  const list = sandbox.store
    .companies(MAIN_AGENCY_ID, { active: true, ownerId: userId })
    .filter((c) => c.seeded);
  return first(list, `active company owned by user ${userId}`);
}

export function inactiveCompany(sandbox: Sandbox): CompanyRecord {
  return first(sandbox.store.companies(MAIN_AGENCY_ID, { active: false }), 'inactive company');
}

export function foreignCompany(sandbox: Sandbox): CompanyRecord {
  return first(sandbox.store.companies(FOREIGN_AGENCY_ID, { active: true }), 'foreign company');
}

/** An active company of the main agency that Tom (the teammate) has no access to. */
export function companyTomCannotSee(sandbox: Sandbox): CompanyRecord {
  const tom = teammate(sandbox);
  const list = sandbox.store
    .companies(MAIN_AGENCY_ID, { active: true })
    .filter((c) => !sandbox.store.hasAccess(tom, c));
  return first(list, 'company hidden from the teammate');
}

/** The HQ context of a user, to create data straight in the store. */
export function hqContext(sandbox: Sandbox, user: UserRecord): HqContext {
  return { level: 'hq', account: `hq:${user.agencyId}`, agency: sandbox.store.mainAgency, user };
}

/** A name no other test uses. */
export function uniqueName(prefix: string): string {
  uniqueCounter += 1;
  return `${prefix} ${process.pid}-${uniqueCounter}`;
}
let uniqueCounter = 0;

/**
 * For a test file whose tests share one core harness, run in-process, and a temporary directory: both
 * made before the file's tests, the sandbox's request log emptied before each test, both removed after.
 * `options`: the sandbox's (e.g. a smaller seed for a command that reads every company).
 */
export function sharedInProcessHarness(options: SandboxOptions = {}): {
  readonly h: Harness;
  readonly tmp: string;
} {
  let harness: Harness | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    harness = await startCoreHarness(options, { inProcess: true });
    dir = mkdtempSync(join(tmpdir(), 'agency-commands-'));
  });
  afterAll(async () => {
    await harness?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => harness?.sandbox.reset());
  return {
    get h() {
      if (!harness) throw new Error('the harness starts in beforeAll');
      return harness;
    },
    get tmp() {
      if (!dir) throw new Error('the directory is made in beforeAll');
      return dir;
    },
  };
}
