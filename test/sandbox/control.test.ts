import { Agent, get as httpGet } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { call, OLIVIA_ACTIVE, OLIVIA_INACTIVE, TOM_ACTIVE, uniqueName } from './helpers.js';

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
      maxQueuedByAccount: { 'hq:1': 1 },
      requestsByAccount: { 'hq:1': 1 },
      rejected429: 0,
      rejected429ByAccount: {},
      servedMsByAccount: { 'hq:1': expect.any(Number) },
      createdCompanies: 0,
      createdKeys: 0,
      webhooksSubscribed: 0,
      webhooksUnsubscribed: 0,
      blacklistAdded: 0,
      blacklistRemoved: 0,
      guestInvitations: 0,
      guestPermissionChanges: 0,
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
