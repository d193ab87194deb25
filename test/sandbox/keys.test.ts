import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOREIGN_AGENCY_ID, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { call, clientKey, expectError, MISSING, OLIVIA_ACTIVE, TOM_ACTIVE, tomKey } from './helpers.js';

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
