import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import {
  call,
  clientKey,
  expectError,
  MISSING,
  OLIVIA_ACTIVE,
  OLIVIA_INACTIVE,
  TOM_ACTIVE,
  tomKey,
  uniqueName,
} from './helpers.js';

const STATUSES = ['RUNNING', 'DRAFT', 'EDITED', 'PAUSED', 'STOPPED', 'COMPLETED'];

describe('company users', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  it('lists {id, name, email, roles, guest_permissions} in pages of 50, 1-based', async () => {
    const a = await call(sb, `/v2/agency/companies/${OLIVIA_ACTIVE}/users`);
    expect(a.status).toBe(200);
    expect(a.body.pagination_data).toMatchObject({ current_page_number: 1, page_size: 50 });
    expect(a.body.content[0]).toEqual({
      id: 1,
      name: 'Olivia Owner',
      email: 'olivia@northwind.example',
      roles: ['admin', 'owner'],
      guest_permissions: null,
    });
    for (const u of a.body.content) {
      expect(Object.keys(u).sort()).toEqual(['email', 'guest_permissions', 'id', 'name', 'roles']);
      expect(u.roles.length).toBeGreaterThan(0);
      expect(u.guest_permissions === null).toBe(!u.roles.includes('guest'));
    }
  });

  it('shows every role across the agency, and a company with more than one page', async () => {
    const roles = new Set<string>();
    let paged: number | undefined;
    for (const c of sb.store.companies(MAIN_AGENCY_ID).slice(0, 60)) {
      const a = await call(sb, `/v2/agency/companies/${c.id}/users`);
      for (const u of a.body.content) for (const r of u.roles) roles.add(r);
      if (a.body.pagination_data.total_pages > 1) paged = c.id;
    }
    expect([...roles].sort()).toEqual(['admin', 'authorized_team_member', 'guest', 'owner']);
    expect(paged).toBeDefined();
    const page1 = await call(sb, `/v2/agency/companies/${paged}/users?page=1`);
    const page2 = await call(sb, `/v2/agency/companies/${paged}/users?page=2`);
    expect(page1.body.content).toHaveLength(50);
    expect(page2.body.pagination_data.current_page_number).toBe(2);
    const ids = [...page1.body.content, ...page2.body.content].map((u: { id: number }) => u.id);
    expect(new Set(ids).size).toBe(page1.body.pagination_data.total_elements);
  });

  it('matches access: Tom is the owner of his companies (no admin there), the admin reaches every company', async () => {
    const tom = await call(sb, `/v2/agency/companies/${TOM_ACTIVE}/users`, { key: tomKey(sb) });
    const agencyPeople = tom.body.content.filter((u: { id: number }) => u.id < 10);
    expect(agencyPeople).toEqual([
      expect.objectContaining({ name: 'Olivia Owner', roles: ['admin'] }),
      expect.objectContaining({ name: 'Tom Teammate', roles: ['owner'] }),
    ]);
    expectError(await call(sb, `/v2/agency/companies/${OLIVIA_ACTIVE}/users`, { key: tomKey(sb) }), 403);
    expect((await call(sb, `/v2/agency/companies/${OLIVIA_INACTIVE}/users`)).status).toBe(200);
    expectError(await call(sb, `/v2/agency/companies/${MISSING}/users`), 404);
    expectError(
      await call(sb, `/v2/agency/companies/${OLIVIA_ACTIVE}/users`, { key: clientKey(sb, OLIVIA_ACTIVE) }),
      403,
    );
    expectError(await call(sb, `/v2/agency/companies/${OLIVIA_ACTIVE}/users?page=0`), 400);
  });

  it('gives a new company its creator and the admin only', async () => {
    const a = await call(sb, '/v2/agency/companies', {
      key: tomKey(sb),
      body: { companies: [{ name: uniqueName() }] },
    });
    const users = await call(sb, `/v2/agency/companies/${a.body.companies[0].id}/users`);
    expect(users.body.content.map((u: { name: string; roles: string[] }) => [u.name, u.roles])).toEqual([
      ['Olivia Owner', ['admin']],
      ['Tom Teammate', ['owner']],
    ]);
  });
});

describe('campaigns', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  it('answers a bare array with the documented fields, for a client through x-company-id or its own key', async () => {
    const a = await call(sb, '/v1/campaign_list', { company: TOM_ACTIVE, key: tomKey(sb) });
    expect(a.status).toBe(200);
    expect(Array.isArray(a.body)).toBe(true);
    for (const c of a.body) {
      expect(c).toMatchObject({
        id: expect.any(Number),
        name: expect.any(String),
        status: expect.stringMatching(/^(RUNNING|DRAFT|EDITED|PAUSED|STOPPED|COMPLETED)$/),
        created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/),
        from_name: expect.any(String),
        from_email: expect.stringContaining('@'),
        folder_name: expect.any(String),
        per_day: expect.any(Number),
      });
      expect(c.error === null || typeof c.error === 'string').toBe(true);
    }
    const own = await call(sb, '/v1/campaign_list', { key: clientKey(sb, TOM_ACTIVE) });
    expect(own.body).toEqual(a.body);
  });

  it('runs as many campaigns as the company list says; every status and some errors occur', async () => {
    const seen = new Set<string>();
    let errors = 0;
    let idle = 0;
    for (const c of sb.store.companies(MAIN_AGENCY_ID, { active: true }).slice(0, 40)) {
      const a = await call(sb, '/v1/campaign_list', { company: c.id });
      const list = a.status === 204 ? [] : a.body;
      expect(list.filter((x: { status: string }) => x.status === 'RUNNING')).toHaveLength(c.runningCampaigns);
      if (c.runningCampaigns === 0) idle += 1;
      for (const x of list) {
        seen.add(x.status);
        if (x.error) errors += 1;
      }
    }
    expect([...seen].sort()).toEqual([...STATUSES].sort());
    expect(errors).toBeGreaterThan(0);
    expect(idle).toBeGreaterThan(0);
  });

  it('filters by ?status=A,B (any case), refuses an unknown status, and answers 204 when nothing matches', async () => {
    const all = (await call(sb, '/v1/campaign_list', { company: OLIVIA_ACTIVE })).body;
    const a = await call(sb, '/v1/campaign_list?status=running,PAUSED', { company: OLIVIA_ACTIVE });
    const wanted = all.filter((c: { status: string }) => c.status === 'RUNNING' || c.status === 'PAUSED');
    expect(a.status === 204 ? [] : a.body).toEqual(wanted);
    expectError(
      await call(sb, '/v1/campaign_list?status=LIVE', { company: OLIVIA_ACTIVE }),
      400,
      /LIVE/,
      'E_WRONG_PARAM',
    );
    const created = await call(sb, '/v2/agency/companies', { body: { companies: [{ name: uniqueName() }] } });
    const none = await call(sb, '/v1/campaign_list', { company: created.body.companies[0].id });
    expect([none.status, none.text]).toEqual([204, '']);
  });

  it('adds statistics for one campaign with ?id=N', async () => {
    const [first] = (await call(sb, '/v1/campaign_list', { company: OLIVIA_ACTIVE })).body;
    const a = await call(sb, `/v1/campaign_list?id=${first.id}`, { company: OLIVIA_ACTIVE });
    expect(a.body).toEqual([{ ...first, stats: expect.objectContaining({ sent: expect.any(Number) }) }]);
    expectError(await call(sb, '/v1/campaign_list?id=1', { company: OLIVIA_ACTIVE }), 404, /not found/);
  });
});
