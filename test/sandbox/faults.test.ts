import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { call, expectError, OLIVIA_ACTIVE, uniqueName } from './helpers.js';

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
