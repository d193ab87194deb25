import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent, get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FOREIGN_AGENCY_ID, MAIN_AGENCY_ID, type Sandbox, startSandbox } from '../../src/sandbox/index.js';

const CANARY = 'wpk_hq_canary0123456789abcdef0123456789';
const TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

// The seeded world (index i = id - 1001): inactive when i % 7 === 6, Tom owns i % 3 === 1.
const OLIVIA_ACTIVE = 1001; // "Acme Ltd"
const TOM_ACTIVE = 1002; // "Blue Harbor Dental"
const OLIVIA_INACTIVE = 1007;
const TOM_INACTIVE = 1014;
const MISSING = 999_999;

interface Call {
  method?: string;
  key?: string | null;
  company?: string | number;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions
  body: any;
  text: string;
  headers: Headers;
}

async function call(sb: Sandbox, path: string, c: Call = {}): Promise<Answer> {
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
  return { status: res.status, body: parsed, text, headers: res.headers };
}

function expectError(a: Answer, status: number, detail?: RegExp | string): void {
  expect(a.status).toBe(status);
  expect(a.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Object.keys(a.body).sort()).toEqual(['detail', 'status', 'timestamp', 'title']);
  expect(a.body.status).toBe(status);
  expect(typeof a.body.title).toBe('string');
  expect(a.body.title.length).toBeGreaterThan(0);
  expect(a.body.timestamp).toMatch(TIMESTAMP);
  if (typeof detail === 'string') expect(a.body.detail).toBe(detail);
  else if (detail) expect(a.body.detail).toMatch(detail);
}

function tomKey(sb: Sandbox): string {
  return (sb.users[1] as { hqKey: string }).hqKey;
}

/** A client key of a company, created by its owner when seeded. */
function clientKey(sb: Sandbox, companyId: number): string {
  const key = sb.store.keysOf(companyId)[0];
  if (!key) throw new Error(`no key for ${companyId}`);
  return key.key;
}

let nameCounter = 0;
function uniqueName(prefix = 'Test Co'): string {
  nameCounter += 1;
  return `${prefix} ${process.pid}-${nameCounter}`;
}

describe('seeded world', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ hqKey: CANARY });
  });
  afterAll(() => sb.close());

  it('has an owner and a teammate with HQ keys, the canary as the owner key', () => {
    expect(sb.hqKey).toBe(CANARY);
    expect(sb.users.map((u) => [u.name, u.email])).toEqual([
      ['Olivia Owner', 'olivia@northwind.example'],
      ['Tom Teammate', 'tom@northwind.example'],
    ]);
    expect(sb.users[0]?.hqKey).toBe(CANARY);
    expect(tomKey(sb)).toMatch(/^wpk_hq_[0-9a-f]{32}$/);
    expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sb.baseUrl).toBe(`${sb.url}/rest`);
  });

  it('seeds 120 uniquely named companies from id 1001, ~15% inactive, mixed owners', () => {
    const companies = sb.store.companies(MAIN_AGENCY_ID);
    expect(companies).toHaveLength(120);
    expect(companies[0]).toMatchObject({ id: 1001, name: 'Acme Ltd', active: true, ownerId: 1 });
    expect(companies[1]).toMatchObject({ id: 1002, name: 'Blue Harbor Dental', ownerId: 2 });
    expect(new Set(companies.map((c) => c.name)).size).toBe(120);
    const inactive = companies.filter((c) => !c.active);
    expect(inactive.length / 120).toBeGreaterThan(0.1);
    expect(inactive.length / 120).toBeLessThan(0.2);
    expect(sb.store.company(OLIVIA_INACTIVE)).toMatchObject({ active: false, ownerId: 1 });
    expect(sb.store.company(TOM_INACTIVE)).toMatchObject({ active: false, ownerId: 2 });
    expect(sb.store.accessibleCompanies(2).every((c) => c.ownerId === 2)).toBe(true);
    expect(sb.store.accessibleCompanies(1)).toHaveLength(120);
    for (const c of companies) expect(sb.store.keyCount(c.id)).toBeGreaterThanOrEqual(1);
  });

  it('has a foreign agency with its own companies, one inactive', () => {
    const foreign = sb.store.companies(FOREIGN_AGENCY_ID);
    expect(foreign.length).toBeGreaterThan(1);
    expect(foreign.some((c) => !c.active)).toBe(true);
    expect(sb.store.foreignAgency.name).not.toBe(sb.store.mainAgency.name);
  });

  it('starts a 10,000-company world quickly and serves its last page', async () => {
    const t0 = performance.now();
    const big = await startSandbox({ seed: { companies: 10_000 } });
    const elapsed = performance.now() - t0;
    try {
      expect(elapsed).toBeLessThan(1000);
      const last = await call(big, '/v2/agency/companies?page=200');
      expect(last.body.content).toHaveLength(50);
      expect(last.body.pagination_data).toEqual({
        total_elements: 10_000,
        total_pages: 200,
        current_page_number: 200,
        page_size: 50,
      });
      expect(new Set(big.store.companies(MAIN_AGENCY_ID).map((c) => c.name)).size).toBe(10_000);
    } finally {
      await big.close();
    }
  });
});

describe('GET /v2/agency/companies', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  it('pages 120 companies as 50 + 50 + 20, sorted by id, with pagination data', async () => {
    const pages = [];
    for (const page of [1, 2, 3]) {
      const a = await call(sb, `/v2/agency/companies?page=${page}`);
      expect(a.status).toBe(200);
      expect(a.body.pagination_data).toEqual({
        total_elements: 120,
        total_pages: 3,
        current_page_number: page,
        page_size: 50,
      });
      pages.push(...a.body.content);
    }
    expect(pages).toHaveLength(120);
    expect(pages.map((c) => c.id)).toEqual(Array.from({ length: 120 }, (_, i) => 1001 + i));
    expect(pages[0]).toEqual({
      id: 1001,
      name: 'Acme Ltd',
      owner: 'Olivia Owner',
      active: true,
      running_campaigns: expect.any(Number),
      email_slots: expect.any(Number),
      linkedin_slots: expect.any(Number),
    });
    expect(pages[1].owner).toBe('Tom Teammate');
  });

  it('defaults to page 1', async () => {
    const a = await call(sb, '/v2/agency/companies');
    expect(a.body.pagination_data.current_page_number).toBe(1);
    expect(a.body.content[0].id).toBe(1001);
  });

  it('answers a page past the end with empty content and the same totals', async () => {
    const a = await call(sb, '/v2/agency/companies?page=4');
    expect(a.status).toBe(200);
    expect(a.body.content).toEqual([]);
    expect(a.body.pagination_data).toEqual({
      total_elements: 120,
      total_pages: 3,
      current_page_number: 4,
      page_size: 50,
    });
  });

  it.each(['0', '-1', 'abc', '1.5', '', '2x'])('rejects page=%j with 400', async (page) => {
    expectError(await call(sb, `/v2/agency/companies?page=${page}`), 400, /page/);
  });

  it('filters by active=true and active=false', async () => {
    const all = sb.store.companies(MAIN_AGENCY_ID);
    const inactiveIds = all.filter((c) => !c.active).map((c) => c.id);
    const t = await call(sb, '/v2/agency/companies?active=true');
    expect(t.body.pagination_data.total_elements).toBe(120 - inactiveIds.length);
    expect(t.body.content.every((c: { active: boolean }) => c.active)).toBe(true);
    const f = await call(sb, '/v2/agency/companies?active=false');
    expect(f.body.content.map((c: { id: number }) => c.id)).toEqual(inactiveIds);
    expect(f.body.pagination_data).toMatchObject({ total_elements: inactiveIds.length, total_pages: 1 });
    expect(inactiveIds).toContain(OLIVIA_INACTIVE);
  });

  it.each(['yes', '1', 'TRUE', ''])('rejects active=%j with 400', async (value) => {
    expectError(await call(sb, `/v2/agency/companies?active=${value}`), 400, /active/);
  });

  it('reports total_pages 0 for an empty list', async () => {
    const empty = await startSandbox({ seed: { companies: 0 } });
    try {
      const a = await call(empty, '/v2/agency/companies');
      expect(a.body).toEqual({
        content: [],
        pagination_data: { total_elements: 0, total_pages: 0, current_page_number: 1, page_size: 50 },
      });
    } finally {
      await empty.close();
    }
  });

  it('lists only the caller agency companies', async () => {
    const frank = sb.store.users(FOREIGN_AGENCY_ID)[0]?.hqKey as string;
    const a = await call(sb, '/v2/agency/companies', { key: frank });
    const foreignIds = sb.store.companies(FOREIGN_AGENCY_ID).map((c) => c.id);
    expect(a.body.content.map((c: { id: number }) => c.id)).toEqual(foreignIds);
  });
});

describe('POST /v2/agency/companies', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());
  const count = () => sb.store.companies(MAIN_AGENCY_ID).length;

  it('creates one company owned by the requesting user, with an automatic key', async () => {
    const name = uniqueName();
    const a = await call(sb, '/v2/agency/companies', { body: { companies: [{ name }] } });
    expect(a.status).toBe(201);
    expect(a.body.companies).toHaveLength(1);
    const created = a.body.companies[0];
    expect(created).toEqual({ id: expect.any(Number), name, owner: 'Olivia Owner', active: true });
    expect(created.id).toBeGreaterThan(1120);
    const keys = await call(sb, `/v2/agency/companies/${created.id}/api_keys`);
    expect(keys.body.content).toEqual([{ api_key: expect.any(String), label: 'Default key' }]);
    const me = await call(sb, '/v1/me', { key: keys.body.content[0].api_key });
    expect(me.body).toMatchObject({ account_type: 'CLIENT', company_id: created.id, company_name: name });
    const listed = await call(sb, '/v2/agency/companies?page=3');
    expect(listed.body.content.at(-1)).toMatchObject({ id: created.id, name, running_campaigns: 0 });
    expect(sb.stats().createdCompanies).toBe(1);
  });

  it('creates 10 at once, in order, with increasing ids', async () => {
    const names = Array.from({ length: 10 }, () => uniqueName());
    const a = await call(sb, '/v2/agency/companies', {
      body: { companies: names.map((name) => ({ name })) },
    });
    expect(a.status).toBe(201);
    expect(a.body.companies.map((c: { name: string }) => c.name)).toEqual(names);
    const ids = a.body.companies.map((c: { id: number }) => c.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    for (const id of ids) expect(sb.store.keysOf(id)).toHaveLength(1);
  });

  it('refuses 11 companies with 400 and creates none', async () => {
    const before = count();
    const names = Array.from({ length: 11 }, () => uniqueName());
    const a = await call(sb, '/v2/agency/companies', {
      body: { companies: names.map((name) => ({ name })) },
    });
    expectError(a, 400, /at most 10/i);
    expect(count()).toBe(before);
    expect(sb.store.findCompanyByName(names[0] as string)).toBeUndefined();
  });

  it('refuses two equal names in one request, naming it, and creates none', async () => {
    const before = count();
    const fresh = uniqueName();
    const dup = uniqueName('Twice');
    const a = await call(sb, '/v2/agency/companies', {
      body: { companies: [{ name: fresh }, { name: dup }, { name: dup }] },
    });
    expectError(a, 400);
    expect(a.body.detail).toContain(dup);
    expect(count()).toBe(before);
    expect(sb.store.findCompanyByName(fresh)).toBeUndefined();
  });

  it('refuses a name that already exists in the agency, naming it, and creates none', async () => {
    const before = count();
    const fresh = uniqueName();
    const a = await call(sb, '/v2/agency/companies', {
      body: { companies: [{ name: fresh }, { name: 'Acme Ltd' }] },
    });
    expectError(a, 400);
    expect(a.body.detail).toContain('Acme Ltd');
    expect(count()).toBe(before);
    expect(sb.store.findCompanyByName(fresh)).toBeUndefined();
  });

  it('compares names exactly and per agency', async () => {
    const foreignName = sb.store.companies(FOREIGN_AGENCY_ID)[0]?.name as string;
    const a = await call(sb, '/v2/agency/companies', {
      body: { companies: [{ name: 'acme ltd' }, { name: foreignName }] },
    });
    expect(a.status).toBe(201);
  });

  it.each([
    ['a non-object body', [1, 2]],
    ['a missing companies array', { names: ['x'] }],
    ['companies not an array', { companies: 'x' }],
    ['an empty array', { companies: [] }],
    ['an item without name', { companies: [{ title: 'x' }] }],
    ['an empty name', { companies: [{ name: '' }] }],
    ['a blank name', { companies: [{ name: '   ' }] }],
    ['a numeric name', { companies: [{ name: 7 }] }],
    ['a null item', { companies: [null] }],
  ])('refuses %s with 400', async (_what, body) => {
    const before = count();
    expectError(await call(sb, '/v2/agency/companies', { body }), 400);
    expect(count()).toBe(before);
  });

  it('refuses a body that is not JSON, or no body at all, with 400', async () => {
    expectError(await call(sb, '/v2/agency/companies', { raw: '{"companies": [' }), 400, /JSON/);
    expectError(await call(sb, '/v2/agency/companies', { method: 'POST' }), 400, /JSON/);
  });

  it("makes the teammate the owner of his companies; the automatic key is in his list, not Olivia's", async () => {
    const name = uniqueName('Tom Co');
    const a = await call(sb, '/v2/agency/companies', { key: tomKey(sb), body: { companies: [{ name }] } });
    expect(a.status).toBe(201);
    const { id, owner } = a.body.companies[0];
    expect(owner).toBe('Tom Teammate');
    const tomList = await call(sb, `/v2/agency/companies/${id}/api_keys`, { key: tomKey(sb) });
    expect(tomList.body.content).toEqual([{ api_key: expect.any(String), label: 'Default key' }]);
    const oliviaList = await call(sb, `/v2/agency/companies/${id}/api_keys`);
    expect(oliviaList.status).toBe(200);
    expect(oliviaList.body.content).toEqual([]);
    expect(oliviaList.body.pagination_data).toMatchObject({ total_elements: 0, total_pages: 0 });
    const me = await call(sb, '/v1/me', { key: tomKey(sb), company: id });
    expect(me.body).toMatchObject({ account_type: 'CLIENT', company_id: id });
  });

  it("does not show Olivia's automatic key to the teammate (he has no access to her company)", async () => {
    const a = await call(sb, '/v2/agency/companies', { body: { companies: [{ name: uniqueName() }] } });
    const { id } = a.body.companies[0];
    expectError(await call(sb, `/v2/agency/companies/${id}/api_keys`, { key: tomKey(sb) }), 403);
  });
});

describe('api keys', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  it('lists only the keys the requesting user created', async () => {
    // 1002 is Tom's; Olivia added a "Reporting" key to it.
    const olivia = await call(sb, `/v2/agency/companies/${TOM_ACTIVE}/api_keys`);
    expect(olivia.body.content).toEqual([{ api_key: expect.any(String), label: 'Reporting' }]);
    const tom = await call(sb, `/v2/agency/companies/${TOM_ACTIVE}/api_keys`, { key: tomKey(sb) });
    expect(tom.body.content).toEqual([{ api_key: expect.any(String), label: 'Default key' }]);
    expect(tom.body.pagination_data).toEqual({
      total_elements: 1,
      total_pages: 1,
      current_page_number: 1,
      page_size: 50,
    });
  });

  it('creates a key (201) that is listed and works at once as the client key', async () => {
    const a = await call(sb, `/v2/agency/companies/${OLIVIA_ACTIVE}/api_keys`, { body: { label: 'zapier' } });
    expect(a.status).toBe(201);
    expect(Object.keys(a.body)).toEqual(['api_key']);
    const key = a.body.api_key as string;
    const list = await call(sb, `/v2/agency/companies/${OLIVIA_ACTIVE}/api_keys`);
    expect(list.body.content).toContainEqual({ api_key: key, label: 'zapier' });
    const me = await call(sb, '/v1/me', { key });
    expect(me.body).toMatchObject({
      account_type: 'CLIENT',
      company_id: OLIVIA_ACTIVE,
      company_name: 'Acme Ltd',
    });
    const boxes = await call(sb, '/v2/mailboxes', { key });
    expect(boxes.body).toEqual((await call(sb, '/v2/mailboxes', { company: OLIVIA_ACTIVE })).body);
    expect(sb.stats().createdKeys).toBe(1);
    const tom = await call(sb, `/v2/agency/companies/${TOM_ACTIVE}/api_keys`, {
      key: tomKey(sb),
      body: { label: 'tom-crm' },
    });
    expect(tom.status).toBe(201);
    const oliviaView = await call(sb, `/v2/agency/companies/${TOM_ACTIVE}/api_keys`);
    expect(oliviaView.body.content.map((k: { label: string }) => k.label)).not.toContain('tom-crm');
  });

  it('pages the key list by 50', async () => {
    const cid = 1003; // Olivia's, with only its automatic key
    for (let i = 0; i < 55; i++) {
      const a = await call(sb, `/v2/agency/companies/${cid}/api_keys`, { body: { label: `k${i}` } });
      expect(a.status).toBe(201);
    }
    const p1 = await call(sb, `/v2/agency/companies/${cid}/api_keys?page=1`);
    const p2 = await call(sb, `/v2/agency/companies/${cid}/api_keys?page=2`);
    expect(p1.body.content).toHaveLength(50);
    expect(p2.body.content).toHaveLength(6);
    expect(p2.body.pagination_data).toEqual({
      total_elements: 56,
      total_pages: 2,
      current_page_number: 2,
      page_size: 50,
    });
    expect(p2.body.content.at(-1).label).toBe('k54');
    expectError(await call(sb, `/v2/agency/companies/${cid}/api_keys?page=0`), 400);
  });

  it.each([
    ['no label', {}],
    ['an empty label', { label: '' }],
    ['a numeric label', { label: 42 }],
    ['an array body', ['x']],
  ])('refuses %s with 400', async (_what, body) => {
    const before = sb.store.keysOf(OLIVIA_ACTIVE).length;
    expectError(await call(sb, `/v2/agency/companies/${OLIVIA_ACTIVE}/api_keys`, { body }), 400, /label/);
    expect(sb.store.keysOf(OLIVIA_ACTIVE)).toHaveLength(before);
  });

  it('refuses a key body that is not JSON', async () => {
    expectError(await call(sb, `/v2/agency/companies/${OLIVIA_ACTIVE}/api_keys`, { raw: 'label=x' }), 400);
  });

  it('answers 404 for a foreign, missing or non-numeric company and 403 without access', async () => {
    const foreign = sb.store.companies(FOREIGN_AGENCY_ID)[0]?.id as number;
    for (const path of [`${foreign}/api_keys`, `${MISSING}/api_keys`, 'abc/api_keys']) {
      expectError(await call(sb, `/v2/agency/companies/${path}`), 404);
      expectError(await call(sb, `/v2/agency/companies/${path}`, { body: { label: 'x' } }), 404);
    }
    expectError(await call(sb, `/v2/agency/companies/${OLIVIA_ACTIVE}/api_keys`, { key: tomKey(sb) }), 403);
    expectError(
      await call(sb, `/v2/agency/companies/${OLIVIA_ACTIVE}/api_keys`, {
        key: tomKey(sb),
        body: { label: 'x' },
      }),
      403,
    );
  });

  it('refuses agency endpoints to a client key with 403', async () => {
    const key = clientKey(sb, OLIVIA_ACTIVE);
    const detail = "Agency endpoints require the agency's main account key";
    expectError(await call(sb, '/v2/agency/companies', { key }), 403, detail);
    expectError(
      await call(sb, '/v2/agency/companies', { key, body: { companies: [{ name: 'x' }] } }),
      403,
      detail,
    );
    expectError(await call(sb, `/v2/agency/companies/${OLIVIA_ACTIVE}/api_keys`, { key }), 403, detail);
    expectError(await call(sb, `/v2/agency/companies/${OLIVIA_ACTIVE}/email_accounts`, { key }), 403, detail);
  });
});

describe('authentication and errors', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ hqKey: CANARY });
  });
  afterAll(() => sb.close());

  it('answers 401 "Missing api key" without a key and 401 "Invalid api key" with a wrong one', async () => {
    for (const path of ['/v1/me', '/v2/mailboxes', '/v1/webhooks', '/v2/agency/companies']) {
      expectError(await call(sb, path, { key: null }), 401, 'Missing api key');
      expectError(await call(sb, path, { key: 'wpk_nope' }), 401, 'Invalid api key');
    }
    const a = await call(sb, '/v1/me', { key: null });
    expect(a.body.title).toBe('Unauthorized');
  });

  it('writes the error body exactly: title, status, detail, UTC timestamp', async () => {
    const a = await call(sb, '/v2/agency/companies?page=x');
    expect(a.body).toEqual({
      title: 'Bad request',
      status: 400,
      detail: expect.any(String),
      timestamp: expect.any(String),
    });
    expect(a.body.timestamp).toMatch(TIMESTAMP);
    const stamped = Date.parse(`${a.body.timestamp.replace(' ', 'T')}Z`);
    expect(Math.abs(stamped - Date.now())).toBeLessThan(5000);
  });

  it('answers 404 for unknown paths and 405 (with Allow) for wrong methods', async () => {
    expectError(await call(sb, '/v2/nothing'), 404);
    expectError(await call(sb, '/v3/agency/companies'), 404);
    const outside = await fetch(`${sb.url}/v2/agency/companies`, { headers: { 'x-api-key': sb.hqKey } });
    expect(outside.status).toBe(404);
    const a = await call(sb, '/v2/agency/companies', { method: 'DELETE' });
    expectError(a, 405);
    expect(a.body.title).toBe('Method not allowed');
    expect(a.headers.get('allow')).toBe('GET, POST');
    expectError(await call(sb, '/v1/me', { method: 'POST', body: {} }), 405);
    expectError(
      await call(sb, `/v2/agency/companies/${OLIVIA_ACTIVE}/email_accounts`, { method: 'PUT', body: {} }),
      405,
    );
  });

  it('accepts Basic auth with the key as user name or password on v1 paths only', async () => {
    const basic = (s: string) => ({ authorization: `Basic ${Buffer.from(s).toString('base64')}` });
    for (const cred of [`${CANARY}:x`, `${CANARY}:`, `:${CANARY}`, `anything:${CANARY}`]) {
      const a = await call(sb, '/v1/me', { key: null, headers: basic(cred) });
      expect(a.status).toBe(200);
      expect(a.body.account_type).toBe('HQ');
    }
    expect((await call(sb, '/v1/webhooks', { key: null, headers: basic(`${CANARY}:x`) })).status).toBe(200);
    expectError(await call(sb, '/v1/me', { key: null, headers: basic('wrong:x') }), 401, 'Invalid api key');
    expectError(
      await call(sb, '/v2/mailboxes', { key: null, headers: basic(`${CANARY}:x`) }),
      401,
      'Missing api key',
    );
  });
});

describe('x-company-id', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());
  const foreign = () => sb.store.companies(FOREIGN_AGENCY_ID);

  it.each(['abc', '12a', '-5', '1.0', '1e3', '0x3e9'])(
    'answers 400 for the non-numeric value %j',
    async (value) => {
      expectError(await call(sb, '/v2/mailboxes', { company: value }), 400, /x-company-id must be a number/);
    },
  );

  it('answers 403 when the key is a client key', async () => {
    const a = await call(sb, '/v2/mailboxes', { key: clientKey(sb, OLIVIA_ACTIVE), company: OLIVIA_ACTIVE });
    expectError(a, 403);
  });

  it('answers 404 for a company of another agency and for a missing company', async () => {
    const activeForeign = foreign().find((c) => c.active)?.id as number;
    expectError(await call(sb, '/v2/mailboxes', { company: activeForeign }), 404);
    expectError(await call(sb, '/v2/mailboxes', { company: MISSING }), 404);
  });

  it('answers 409 for an inactive company, naming it', async () => {
    const a = await call(sb, '/v1/webhooks', { company: OLIVIA_INACTIVE });
    expectError(a, 409);
    expect(a.body.title).toBe('Conflict');
    expect(a.body.detail).toContain(String(OLIVIA_INACTIVE));
    expect(a.body.detail).toMatch(/inactive/);
  });

  it('answers 403 when the user has no access to the company', async () => {
    expectError(await call(sb, '/v2/mailboxes', { key: tomKey(sb), company: OLIVIA_ACTIVE }), 403);
  });

  it('checks in the order 400, 403 (client key), 404, 409, 403 (access)', async () => {
    const client = clientKey(sb, OLIVIA_ACTIVE);
    const inactiveForeign = foreign().find((c) => !c.active)?.id as number;
    expectError(await call(sb, '/v2/mailboxes', { key: client, company: 'abc' }), 400);
    expectError(await call(sb, '/v2/mailboxes', { key: client, company: MISSING }), 403);
    expectError(await call(sb, '/v2/mailboxes', { key: client, company: OLIVIA_INACTIVE }), 403);
    expectError(await call(sb, '/v2/mailboxes', { company: inactiveForeign }), 404);
    expectError(await call(sb, '/v2/mailboxes', { key: tomKey(sb), company: OLIVIA_INACTIVE }), 409);
    expectError(await call(sb, '/v2/mailboxes', { key: tomKey(sb), company: TOM_INACTIVE }), 409);
  });

  it("acts on the company's account when valid, like the company's own key", async () => {
    const viaHeader = await call(sb, '/v1/webhooks', { key: tomKey(sb), company: TOM_ACTIVE });
    const viaKey = await call(sb, '/v1/webhooks', { key: clientKey(sb, TOM_ACTIVE) });
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.body).toEqual(viaKey.body);
    const hq = await call(sb, '/v1/webhooks');
    expect(hq.body).not.toEqual(viaKey.body);
    const rec = sb.requests.at(-3);
    expect(rec?.account).toBe(`company:${TOM_ACTIVE}`);
    expect(sb.requests.at(-1)?.account).toBe('hq:1');
  });

  it('refuses agency endpoints in a company context', async () => {
    expectError(await call(sb, '/v2/agency/companies', { company: OLIVIA_ACTIVE }), 403, /x-company-id/);
  });
});

describe('account endpoints', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  it('GET /v1/me differs between HQ and client keys', async () => {
    const hq = await call(sb, '/v1/me');
    expect(hq.body).toEqual({
      id: 1,
      email: 'olivia@northwind.example',
      name: 'Olivia Owner',
      role: 'AGENCY_OWNER',
      agency: { id: 1, name: 'Northwind Outreach' },
      account_type: 'HQ',
    });
    const tom = await call(sb, '/v1/me', { key: tomKey(sb) });
    expect(tom.body).toMatchObject({ name: 'Tom Teammate', role: 'AGENCY_MEMBER', account_type: 'HQ' });
    const client = await call(sb, '/v1/me', { key: clientKey(sb, OLIVIA_ACTIVE) });
    expect(client.body).toEqual({
      id: OLIVIA_ACTIVE,
      company_id: OLIVIA_ACTIVE,
      company_name: 'Acme Ltd',
      account_type: 'CLIENT',
      agency: { id: 1, name: 'Northwind Outreach' },
    });
    const acting = await call(sb, '/v1/me', { company: OLIVIA_ACTIVE });
    expect(acting.body).toEqual(client.body);
  });

  it('GET /v2/mailboxes is a bare array of IMAP/SMTP mailboxes, some with an error', async () => {
    const hq = await call(sb, '/v2/mailboxes');
    expect(Array.isArray(hq.body)).toBe(true);
    expect(hq.body.length).toBeGreaterThan(0);
    let errors = 0;
    for (let id = 1001; id <= 1030; id++) {
      if (!sb.store.company(id)?.active) continue;
      const a = await call(sb, '/v2/mailboxes', { company: id });
      expect(Array.isArray(a.body)).toBe(true);
      for (const m of a.body) {
        expect(m).toEqual({
          id: expect.any(Number),
          type: expect.stringMatching(/^(IMAP|SMTP)$/),
          details: expect.objectContaining({
            email: expect.stringContaining('@'),
            from_name: expect.any(String),
            daily_limit: expect.any(Number),
            sent_today: expect.any(Number),
          }),
        });
        if (m.details.error !== undefined) errors += 1;
      }
    }
    expect(errors).toBeGreaterThan(0);
  });

  it('GET /v1/webhooks answers {webhooks: [{target_url, event}]}', async () => {
    const hq = await call(sb, '/v1/webhooks');
    expect(hq.body.webhooks.length).toBeGreaterThan(0);
    const events = new Set<string>();
    for (let id = 1001; id <= 1020; id++) {
      if (!sb.store.company(id)?.active) continue;
      const a = await call(sb, '/v1/webhooks', { company: id });
      expect(Object.keys(a.body)).toEqual(['webhooks']);
      for (const w of a.body.webhooks) {
        expect(Object.keys(w).sort()).toEqual(['event', 'target_url']);
        expect(w.event).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
        expect(() => new URL(w.target_url)).not.toThrow();
        events.add(w.event);
      }
    }
    expect(events.has('PROSPECT_REPLIED')).toBe(true);
  });

  it('GET .../email_accounts answers {content} without pagination_data', async () => {
    const a = await call(sb, `/v2/agency/companies/${OLIVIA_ACTIVE}/email_accounts`);
    expect(a.status).toBe(200);
    expect(Object.keys(a.body)).toEqual(['content']);
    expect(a.body.content.length).toBeGreaterThan(0);
    for (const e of a.body.content) {
      expect(Object.keys(e).sort()).toEqual(['details', 'id', 'type']);
      expect(Object.keys(e.details).sort()).toEqual([
        'email',
        'error',
        'from_name',
        'imap_id',
        'provider',
        'running_campaigns',
      ]);
    }
    const inactive = await call(sb, `/v2/agency/companies/${OLIVIA_INACTIVE}/email_accounts`);
    expect(inactive.status).toBe(200);
    const foreign = sb.store.companies(FOREIGN_AGENCY_ID)[0]?.id;
    expectError(await call(sb, `/v2/agency/companies/${foreign}/email_accounts`), 404);
    expectError(await call(sb, `/v2/agency/companies/${MISSING}/email_accounts`), 404);
    expectError(
      await call(sb, `/v2/agency/companies/${OLIVIA_ACTIVE}/email_accounts`, { key: tomKey(sb) }),
      403,
    );
    const tom = await call(sb, `/v2/agency/companies/${TOM_ACTIVE}/email_accounts`, { key: tomKey(sb) });
    expect(tom.status).toBe(200);
  });

  it('gives companies created through the API no mailboxes or webhooks yet', async () => {
    const a = await call(sb, '/v2/agency/companies', { body: { companies: [{ name: uniqueName() }] } });
    const { id } = a.body.companies[0];
    expect((await call(sb, '/v2/mailboxes', { company: id })).body).toEqual([]);
    expect((await call(sb, '/v1/webhooks', { company: id })).body).toEqual({ webhooks: [] });
    expect((await call(sb, `/v2/agency/companies/${id}/email_accounts`)).body).toEqual({ content: [] });
  });
});

describe('rate limit', () => {
  const sandboxes: Sandbox[] = [];
  const start = async (opts: Parameters<typeof startSandbox>[0]) => {
    const sb = await startSandbox(opts);
    sandboxes.push(sb);
    return sb;
  };
  afterEach(async () => {
    await Promise.all(sandboxes.splice(0).map((sb) => sb.close()));
  });

  it('serves one in progress plus 6 queued per account and answers 429 to the rest at once', async () => {
    const sb = await start({ latencyMs: 60, queueTimeoutMs: 5000 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => call(sb, '/v2/agency/companies')));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(7);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    const rejected = answers.find((a) => a.status === 429) as Answer;
    expectError(rejected, 429);
    expect(rejected.body.title).toBe('Too many requests');
    expect(rejected.headers.get('retry-after')).toBeNull();
    const stats = sb.stats();
    expect(stats.rejected429).toBe(3);
    expect(stats.maxConcurrentByAccount).toEqual({ 'hq:1': 1 });
  });

  it('answers 429 to a request that waits longer than the queue timeout', async () => {
    const sb = await start({ latencyMs: 200, queueTimeoutMs: 40 });
    const statuses = (await Promise.all([1, 2, 3].map(() => call(sb, '/v1/me')))).map((a) => a.status);
    expect(statuses.sort()).toEqual([200, 429, 429]);
  });

  it('keeps separate limits for the HQ account and each client account', async () => {
    const sb = await start({ latencyMs: 30, queueTimeoutMs: 5000 });
    // 7 per account fill each lane exactly; a shared lane would refuse 7 of these 21.
    const calls = [
      ...Array.from({ length: 7 }, () => call(sb, '/v2/agency/companies')),
      ...Array.from({ length: 7 }, () => call(sb, '/v2/mailboxes', { company: OLIVIA_ACTIVE })),
      ...Array.from({ length: 7 }, () => call(sb, '/v2/mailboxes', { key: clientKey(sb, TOM_ACTIVE) })),
    ];
    const statuses = (await Promise.all(calls)).map((a) => a.status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(sb.stats().maxConcurrentByAccount).toEqual({
      'hq:1': 1,
      [`company:${OLIVIA_ACTIVE}`]: 1,
      [`company:${TOM_ACTIVE}`]: 1,
    });
    expect(sb.stats().rejected429).toBe(0);
  });

  it('shares one HQ account between both users of the agency', async () => {
    const sb = await start({ latencyMs: 40, queueLimit: 1, queueTimeoutMs: 5000 });
    const statuses = (
      await Promise.all([
        call(sb, '/v1/me'),
        call(sb, '/v1/me', { key: tomKey(sb) }),
        call(sb, '/v2/agency/companies', { key: tomKey(sb) }),
      ])
    ).map((a) => a.status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
  });

  it('never answers 429 to a client that sends one request at a time', async () => {
    const sb = await start({ latencyMs: 2, queueLimit: 0, queueTimeoutMs: 10 });
    for (let page = 1; page <= 10; page++) {
      expect((await call(sb, `/v2/agency/companies?page=${page}`)).status).toBe(200);
    }
    expect(sb.stats().rejected429).toBe(0);
  });

  it('does not hold a queue place for a request whose client gave up', async () => {
    const sb = await start({ latencyMs: 200, queueLimit: 2, queueTimeoutMs: 5000 });
    const first = call(sb, '/v1/me');
    const abort = new AbortController();
    const quitters = Array.from({ length: 2 }, () =>
      call(sb, '/v1/me', { signal: abort.signal }).catch(() => 'aborted'),
    );
    await new Promise((r) => setTimeout(r, 30));
    abort.abort();
    expect(await Promise.all(quitters)).toEqual(Array(2).fill('aborted'));
    await new Promise((r) => setTimeout(r, 30)); // let the server see those sockets close
    // Were the quitters still queued, these would find the queue full and get 429 at once.
    const later = Array.from({ length: 2 }, () => call(sb, '/v1/me'));
    expect((await first).status).toBe(200);
    expect((await Promise.all(later)).map((a) => a.status)).toEqual(Array(2).fill(200));
    expect(sb.stats().rejected429).toBe(0);
  });

  it('lets authentication errors through without taking a slot', async () => {
    const sb = await start({ latencyMs: 100, queueLimit: 0, queueTimeoutMs: 10 });
    const busy = call(sb, '/v1/me');
    await new Promise((r) => setTimeout(r, 20));
    expect((await call(sb, '/v1/me', { key: 'bad' })).status).toBe(401);
    expect((await busy).status).toBe(200);
  });
});

describe('faults', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());
  beforeEach(() => sb.reset());
  const created = (name: string) => sb.store.findCompanyByName(name) !== undefined;

  it("'status' answers the status with the error body and Retry-After, once by default", async () => {
    sb.addFault({ kind: 'status', status: 503, retryAfter: 2, path: '/v2/agency/companies' });
    const a = await call(sb, '/v2/agency/companies');
    expectError(a, 503);
    expect(a.headers.get('retry-after')).toBe('2');
    expect((await call(sb, '/v2/agency/companies')).status).toBe(200);
  });

  it("'status' 429 on a POST processes nothing", async () => {
    sb.addFault({ kind: 'status', status: 429, method: 'POST', path: '/v2/agency/companies' });
    const name = uniqueName();
    expect((await call(sb, '/v2/agency/companies')).status).toBe(200);
    expectError(await call(sb, '/v2/agency/companies', { body: { companies: [{ name }] } }), 429);
    expect(created(name)).toBe(false);
    expect((await call(sb, '/v2/agency/companies', { body: { companies: [{ name }] } })).status).toBe(201);
  });

  it('counts times (2 = twice, 0 = forever) and matches globs and the /rest prefix', async () => {
    sb.addFault({ kind: 'status', status: 500, path: '/v2/agency/*', times: 2 });
    const path = `/v2/agency/companies/${OLIVIA_ACTIVE}/api_keys`;
    expect((await call(sb, path)).status).toBe(500);
    expect((await call(sb, '/v1/me')).status).toBe(200);
    expect((await call(sb, '/v2/agency/companies')).status).toBe(500);
    expect((await call(sb, path)).status).toBe(200);
    sb.addFault({ kind: 'status', status: 504, path: '/rest/v1/me', times: 0 });
    for (let i = 0; i < 3; i++) expect((await call(sb, '/v1/me')).status).toBe(504);
    const del = await fetch(`${sb.url}/_sandbox/faults`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect((await call(sb, '/v1/me')).status).toBe(200);
  });

  it("'html' answers a gateway page without processing", async () => {
    sb.addFault({ kind: 'html', method: 'POST' });
    const name = uniqueName();
    const a = await call(sb, '/v2/agency/companies', { body: { companies: [{ name }] } });
    expect(a.status).toBe(502);
    expect(a.headers.get('content-type')).toMatch(/^text\/html/);
    expect(a.text).toBe('<html><body><h1>502 Bad Gateway</h1></body></html>');
    expect(created(name)).toBe(false);
    sb.addFault({ kind: 'html', status: 504 });
    expect((await call(sb, '/v1/me')).text).toContain('504');
  });

  it("'reset-before' drops the connection and processes nothing", async () => {
    sb.addFault({ kind: 'reset-before', method: 'POST', path: '/v2/agency/companies' });
    const name = uniqueName();
    await expect(call(sb, '/v2/agency/companies', { body: { companies: [{ name }] } })).rejects.toThrow();
    expect(created(name)).toBe(false);
    expect(sb.requests.at(-1)).toMatchObject({ status: 0, fault: 'reset-before' });
  });

  it("'reset-after' processes the request, then drops the connection", async () => {
    sb.addFault({ kind: 'reset-after', method: 'POST', path: '/v2/agency/companies' });
    const name = uniqueName();
    await expect(call(sb, '/v2/agency/companies', { body: { companies: [{ name }] } })).rejects.toThrow();
    expect(created(name)).toBe(true);
    expect(sb.requests.at(-1)).toMatchObject({ status: 201, fault: 'reset-after' });
  });

  it("'stall' waits, then answers normally", async () => {
    sb.addFault({ kind: 'stall', stallMs: 150 });
    const t0 = Date.now();
    const a = await call(sb, '/v1/me');
    expect(a.status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it("'stall' abandons a request whose client gave up", async () => {
    sb.addFault({ kind: 'stall', stallMs: 2000, method: 'POST' });
    const name = uniqueName();
    const abort = AbortSignal.timeout(50);
    await expect(
      call(sb, '/v2/agency/companies', { body: { companies: [{ name }] }, signal: abort }),
    ).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 50));
    expect(created(name)).toBe(false);
  });

  it("'truncated' processes, then sends half the JSON body", async () => {
    sb.addFault({ kind: 'truncated', method: 'POST' });
    const name = uniqueName();
    const res = await fetch(`${sb.baseUrl}/v2/agency/companies`, {
      method: 'POST',
      headers: { 'x-api-key': sb.hqKey, 'content-type': 'application/json' },
      body: JSON.stringify({ companies: [{ name }] }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    await expect(res.text().then((t) => JSON.parse(t))).rejects.toThrow();
    expect(created(name)).toBe(true);
  });

  it("'not-json' answers 200 with a body that is not JSON", async () => {
    sb.addFault({ kind: 'not-json', path: '/v2/agency/companies' });
    const a = await call(sb, '/v2/agency/companies');
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toMatch(/^application\/json/);
    expect(a.text).toBe('this is not json');
  });

  it("'large-page' answers one page holding `size` items on list endpoints", async () => {
    sb.addFault({ kind: 'large-page', path: '/v2/agency/companies', size: 300 });
    const a = await call(sb, '/v2/agency/companies');
    expect(a.body.content).toHaveLength(300);
    expect(a.body.pagination_data).toMatchObject({
      total_elements: 300,
      total_pages: 1,
      current_page_number: 1,
    });
    expect(a.body.content[0]).toHaveProperty('linkedin_slots');
    sb.addFault({ kind: 'large-page', path: '/v2/agency/companies/*/api_keys' });
    const k = await call(sb, `/v2/agency/companies/${OLIVIA_ACTIVE}/api_keys`);
    expect(k.body.content).toHaveLength(5000);
    expect(k.body.content[0]).toEqual({ api_key: expect.any(String), label: expect.any(String) });
    expect((await call(sb, '/v2/agency/companies')).body.content).toHaveLength(50);
  });

  it('only fires on a matching method', async () => {
    sb.addFault({ kind: 'status', status: 500, method: 'post' });
    expect((await call(sb, '/v2/agency/companies')).status).toBe(200);
    expect(
      (await call(sb, `/v2/agency/companies/${OLIVIA_ACTIVE}/api_keys`, { body: { label: 'x' } })).status,
    ).toBe(500);
  });

  it('takes rules through the control API, validated', async () => {
    const post = (body: unknown) =>
      fetch(`${sb.url}/_sandbox/faults`, { method: 'POST', body: JSON.stringify(body) });
    expect((await post({ kind: 'nope' })).status).toBe(400);
    expect((await post([{ kind: 'status', status: 'x' }])).status).toBe(400);
    const ok = await post([
      { kind: 'status', status: 502, path: '/v1/me' },
      { kind: 'not-json', path: '/v1/me' },
    ]);
    expect(ok.status).toBe(200);
    expect((await call(sb, '/v1/me')).status).toBe(502);
    expect((await call(sb, '/v1/me')).text).toBe('this is not json');
    expect((await call(sb, '/v1/me')).status).toBe(200);
  });
});

describe('state file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'agency-sandbox-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps companies, keys and HQ keys across a restart, written 0600 and atomically', async () => {
    const statePath = join(dir, 'nested', 'state.json');
    const first = await startSandbox({ statePath });
    const name = uniqueName();
    const made = await call(first, '/v2/agency/companies', { body: { companies: [{ name }] } });
    const id = made.body.companies[0].id;
    const key = (await call(first, `/v2/agency/companies/${id}/api_keys`, { body: { label: 'ci' } })).body
      .api_key;
    const hqKey = first.hqKey;
    const tom = tomKey(first);
    await first.close();

    expect(statSync(statePath).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'nested'))).toEqual(['state.json']);
    expect(JSON.parse(readFileSync(statePath, 'utf8')).version).toBe(1);

    const second = await startSandbox({ statePath });
    try {
      expect(second.hqKey).toBe(hqKey);
      expect(tomKey(second)).toBe(tom);
      expect(second.store.findCompanyByName(name)?.id).toBe(id);
      expect((await call(second, '/v1/me', { key })).body.company_id).toBe(id);
      const keys = await call(second, `/v2/agency/companies/${id}/api_keys`);
      expect(keys.body.content.map((k: { label: string }) => k.label)).toEqual(['Default key', 'ci']);
      const again = await call(second, '/v2/agency/companies', {
        body: { companies: [{ name: uniqueName() }] },
      });
      expect(again.body.companies[0].id).toBe(id + 1);
    } finally {
      await second.close();
    }
  });

  it('lets the hqKey option replace the saved owner key', async () => {
    const statePath = join(dir, 'state.json');
    await (await startSandbox({ statePath })).close();
    const sb = await startSandbox({ statePath, hqKey: CANARY });
    try {
      expect((await call(sb, '/v1/me', { key: CANARY })).status).toBe(200);
    } finally {
      await sb.close();
    }
    expect(JSON.parse(readFileSync(statePath, 'utf8')).users[0].hqKey).toBe(CANARY);
  });

  it('refuses to start on a damaged file, naming it, and leaves it untouched', async () => {
    const statePath = join(dir, 'state.json');
    writeFileSync(statePath, '{"version": 1, "companies": [');
    await expect(startSandbox({ statePath })).rejects.toThrow(statePath);
    expect(readFileSync(statePath, 'utf8')).toBe('{"version": 1, "companies": [');
    writeFileSync(statePath, '{"version": 1}');
    await expect(startSandbox({ statePath })).rejects.toThrow(/damaged/);
  });
});

describe('control API and recording', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ latencyMs: 5 });
  });
  afterAll(() => sb.close());
  beforeEach(() => sb.reset());
  const control = async (path: string, method = 'GET') => {
    const res = await fetch(`${sb.url}/_sandbox${path}`, { method });
    // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions
    return { status: res.status, body: (await res.json()) as any };
  };

  it('records every API request in order, with headers, query, body, status and account', async () => {
    await call(sb, '/v2/agency/companies?page=2&active=true');
    await call(sb, `/v2/agency/companies/${OLIVIA_ACTIVE}/api_keys`, { body: { label: 'rec' } });
    await call(sb, '/v2/mailboxes', { company: TOM_ACTIVE });
    await call(sb, '/v1/me', { key: null });
    expect(sb.requests.map((r) => [r.method, r.path, r.status, r.account])).toEqual([
      ['GET', '/rest/v2/agency/companies', 200, 'hq:1'],
      ['POST', `/rest/v2/agency/companies/${OLIVIA_ACTIVE}/api_keys`, 201, 'hq:1'],
      ['GET', '/rest/v2/mailboxes', 200, `company:${TOM_ACTIVE}`],
      ['GET', '/rest/v1/me', 401, ''],
    ]);
    const [list, post, boxes] = sb.requests;
    expect(list?.query).toEqual({ page: '2', active: 'true' });
    expect(list?.headers['x-api-key']).toBe(sb.hqKey);
    expect(post?.body).toEqual({ label: 'rec' });
    expect(boxes?.headers['x-company-id']).toBe(String(TOM_ACTIVE));
    expect(typeof list?.startedAt).toBe('number');
    const viaHttp = await control('/requests');
    expect(viaHttp.body).toHaveLength(4);
    expect(viaHttp.body[1].body).toEqual({ label: 'rec' });
  });

  it('serves stats, and does not record or limit control requests', async () => {
    await call(sb, '/v1/me');
    await control('/requests');
    const stats = await control('/stats');
    expect(stats.body).toEqual({
      connections: expect.any(Number),
      requests: 1,
      maxConcurrentByAccount: { 'hq:1': 1 },
      rejected429: 0,
      createdCompanies: 0,
      createdKeys: 0,
    });
    expect(sb.requests).toHaveLength(1);
  });

  it('resets requests, stats and faults but not data', async () => {
    const name = uniqueName();
    await call(sb, '/v2/agency/companies', { body: { companies: [{ name }] } });
    sb.addFault({ kind: 'status', status: 500, times: 0 });
    expect((await control('/reset', 'POST')).status).toBe(200);
    expect(sb.requests).toHaveLength(0);
    expect(sb.stats()).toMatchObject({ requests: 0, createdCompanies: 0, maxConcurrentByAccount: {} });
    expect((await call(sb, '/v1/me')).status).toBe(200);
    expect(sb.store.findCompanyByName(name)).toBeDefined();
  });

  it('summarises the state: agencies, users, companies with owner and key count', async () => {
    const { status, body } = await control('/state');
    expect(status).toBe(200);
    expect(body.agencies).toEqual([
      { id: 1, name: 'Northwind Outreach', main: true },
      { id: 2, name: 'Southwind Partners', main: false },
    ]);
    expect(body.users[0]).toMatchObject({
      id: 1,
      name: 'Olivia Owner',
      role: 'AGENCY_OWNER',
      hq_key: sb.hqKey,
    });
    expect(body.companies[0]).toEqual({
      id: 1001,
      agency_id: 1,
      name: 'Acme Ltd',
      active: true,
      owner: 'Olivia Owner',
      keys: sb.store.keyCount(1001),
    });
    expect(body.companies.find((c: { id: number }) => c.id === OLIVIA_INACTIVE).active).toBe(false);
    expect(body.companies.some((c: { agency_id: number }) => c.agency_id === 2)).toBe(true);
  });

  it('answers unknown control paths with 404 and wrong methods with 405', async () => {
    expect((await control('/nope')).status).toBe(404);
    expect((await control('/stats', 'POST')).status).toBe(405);
  });

  it('keeps connections alive: one socket for sequential requests on a keep-alive agent', async () => {
    const fresh = await startSandbox();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<number>((resolve, reject) => {
        httpGet(`${fresh.baseUrl}/v1/me`, { agent, headers: { 'x-api-key': fresh.hqKey } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        }).on('error', reject);
      });
    try {
      for (let i = 0; i < 20; i++) expect(await get()).toBe(200);
      expect(fresh.stats()).toMatchObject({ connections: 1, requests: 20 });
      fresh.reset();
      // fetch (undici) alternates between two pooled sockets, but still reuses them.
      for (let i = 0; i < 20; i++) await call(fresh, '/v1/me');
      expect(fresh.stats().connections).toBeLessThanOrEqual(2);
    } finally {
      agent.destroy();
      await fresh.close();
    }
  });
});
