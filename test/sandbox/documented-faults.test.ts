import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { call, expectError, OLIVIA_ACTIVE, uniqueName } from './helpers.js';

/** Faults that make the sandbox answer as the service's docs and integrations show it can. */
describe('faults of the documented service', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());
  beforeEach(() => sb.reset());
  const created = (name: string) => sb.store.findCompanyByName(name) !== undefined;
  const create = (name: string) => call(sb, '/v2/agency/companies', { body: { companies: [{ name }] } });

  it("'status' with a detail: add-on refusals and a bad key in the service's words", async () => {
    sb.addFault({ kind: 'status', status: 403, detail: 'No Agency addon', path: '/v2/agency/companies' });
    expectError(await call(sb, '/v2/agency/companies'), 403, 'No Agency addon');
    sb.addFault({ kind: 'status', status: 401, detail: 'No API addon', path: '/v1/me' });
    expectError(await call(sb, '/v1/me'), 401, 'No API addon', 'E_SESSION');
    sb.addFault({ kind: 'status', status: 403, detail: 'Upgrade your plan', dialect: 'v2', path: '/v1/me' });
    const v2OnV1 = await call(sb, '/v1/me');
    expect(v2OnV1.body).toMatchObject({ title: 'Forbidden', status: 403, detail: 'Upgrade your plan' });
    sb.addFault({ kind: 'status', status: 401, detail: 'Invalid api key' });
    expectError(await call(sb, '/v2/mailboxes'), 401, 'Invalid api key');
  });

  it("'status' in the v1 dialect with a code: E_TOO_MANY_REQUESTS answered as 409, and nothing processed", async () => {
    sb.addFault({ kind: 'status', status: 409, dialect: 'v1', code: 'E_TOO_MANY_REQUESTS', method: 'POST' });
    const name = uniqueName();
    const a = await create(name);
    expect(a.status).toBe(409);
    expect(a.body).toEqual({
      status: {
        status: 'ERROR',
        code: 'E_TOO_MANY_REQUESTS',
        msg: 'The service answered 409 (sandbox fault)',
      },
    });
    expect(created(name)).toBe(false);
  });

  it("'status' in the code dialect answers {code, message, details}", async () => {
    sb.addFault({
      kind: 'status',
      status: 400,
      dialect: 'code',
      code: 'VALIDATION_ERROR',
      detail: 'Bad page',
    });
    const a = await call(sb, '/v2/agency/companies');
    expect(a.status).toBe(400);
    expect(a.body).toEqual({ code: 'VALIDATION_ERROR', message: 'Bad page', details: [] });
  });

  it("'status-after' processes the request, then answers the error (the create happened)", async () => {
    sb.addFault({ kind: 'status-after', method: 'POST', path: '/v2/agency/companies' });
    const name = uniqueName();
    expectError(await create(name), 500);
    expect(created(name)).toBe(true);
    expect(sb.stats().createdCompanies).toBe(1);
  });

  it("'empty' answers 204 (or the status asked) with no body, processing nothing", async () => {
    sb.addFault({ kind: 'empty', path: '/v2/mailboxes' });
    const a = await call(sb, '/v2/mailboxes');
    expect([a.status, a.text, a.headers.get('content-length')]).toEqual([204, '', null]);
    sb.addFault({ kind: 'empty', status: 200, method: 'POST' });
    const name = uniqueName();
    const b = await create(name);
    expect([b.status, b.text, b.headers.get('content-length')]).toEqual([200, '', '0']);
    expect(created(name)).toBe(false);
  });

  it("'empty-after' processes the request, then answers with no body", async () => {
    sb.addFault({ kind: 'empty-after', status: 200, method: 'POST' });
    const name = uniqueName();
    const a = await create(name);
    expect([a.status, a.text]).toEqual([200, '']);
    expect(created(name)).toBe(true);
  });

  it("'repeat-page' answers the previous page's items again (same account and path)", async () => {
    const page1 = await call(sb, '/v2/agency/companies?page=1');
    sb.addFault({ kind: 'repeat-page', path: '/v2/agency/companies', times: 2 });
    const page2 = await call(sb, '/v2/agency/companies?page=2');
    const page3 = await call(sb, '/v2/agency/companies?page=3');
    expect(page2.body).toEqual(page1.body);
    expect(page3.body).toEqual(page1.body);
    expect(sb.requests.map((r) => r.fault)).toEqual([undefined, 'repeat-page', 'repeat-page']);
    const real = await call(sb, '/v2/agency/companies?page=2');
    expect(real.body.content[0].id).toBe(page1.body.content.at(-1).id + 1);
    // A first page has nothing before it: answered as it is.
    const keysPath = `/v2/agency/companies/${OLIVIA_ACTIVE}/api_keys`;
    sb.addFault({ kind: 'repeat-page', path: keysPath });
    expect((await call(sb, keysPath)).body.content.length).toBeGreaterThan(0);
  });

  it('validates the new fields through the control API', async () => {
    const post = (body: unknown) =>
      fetch(`${sb.url}/_sandbox/faults`, { method: 'POST', body: JSON.stringify(body) });
    expect((await post({ kind: 'status', dialect: 'v3' })).status).toBe(400);
    expect((await post({ kind: 'status', detail: 5 })).status).toBe(400);
    const ok = await post({
      kind: 'status',
      status: 403,
      detail: 'No API addon',
      dialect: 'v1',
      code: 'E_SESSION',
    });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { faults: unknown[] }).faults[0]).toMatchObject({
      detail: 'No API addon',
      dialect: 'v1',
      code: 'E_SESSION',
    });
  });

  it("'v1-nothing' and 'deep': the v1 OK envelope without data, and JSON nested deeper than any answer", async () => {
    sb.addFault({ kind: 'v1-nothing', path: '/v1/campaign_list', detail: 'No campaigns found' });
    const nothing = await call(sb, '/v1/campaign_list');
    expect(nothing.status).toBe(200);
    expect(nothing.body).toEqual({ status: { status: 'OK' }, message: 'No campaigns found' });
    sb.addFault({ kind: 'deep', path: '/v1/me', size: 1000 });
    const deep = await call(sb, '/v1/me');
    expect(deep.status).toBe(200);
    let depth = 0;
    for (let node = deep.body as { a?: unknown }; typeof node === 'object'; node = node.a as { a?: unknown })
      depth++;
    expect(depth).toBe(1000);
  });
});
