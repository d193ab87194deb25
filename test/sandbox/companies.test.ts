import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOREIGN_AGENCY_ID, MAIN_AGENCY_ID, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { call, expectError, OLIVIA_INACTIVE, tomKey, uniqueName } from './helpers.js';

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
