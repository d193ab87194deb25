import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOREIGN_AGENCY_ID, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import {
  CANARY,
  call,
  clientKey,
  expectError,
  MISSING,
  OLIVIA_ACTIVE,
  OLIVIA_INACTIVE,
  TIMESTAMP,
  TOM_ACTIVE,
  TOM_INACTIVE,
  tomKey,
} from './helpers.js';

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
    expect((await call(sb, '/v2/mailboxes', { key: null })).body.title).toBe('Unauthorized');
    expect((await call(sb, '/v1/me', { key: null })).body.status.code).toBe('E_SESSION');
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

  it('answers v1 paths in the v1 envelope: {"status": {"status": "ERROR", "code", "msg"}}', async () => {
    const a = await call(sb, '/v1/me', { key: 'wpk_nope' });
    expect(a.body).toEqual({ status: { status: 'ERROR', code: 'E_SESSION', msg: 'Invalid api key' } });
    expectError(
      await call(sb, '/v1/me', { method: 'POST', body: {} }),
      405,
      /not allowed/,
      'E_URL_NOT_FOUND',
    );
    expectError(await call(sb, '/v1/nothing'), 404, /No endpoint/, 'E_URL_NOT_FOUND');
    expectError(await call(sb, '/v1/webhooks', { company: 'abc' }), 400, /must be a number/, 'E_WRONG_PARAM');
    expectError(await call(sb, '/v1/me', { company: OLIVIA_INACTIVE }), 409, /inactive/, 'E_WRONG_PARAM');
  });

  it('answers v1 paths in the v2 body with v1Dialect: false (the specification alone)', async () => {
    const plain = await startSandbox({ v1Dialect: false });
    try {
      const a = await call(plain, '/v1/me', { key: 'wpk_nope' });
      expect(a.body).toMatchObject({ title: 'Unauthorized', status: 401, detail: 'Invalid api key' });
      expectError(await call(plain, '/v1/me', { company: OLIVIA_INACTIVE }), 409, /inactive/);
    } finally {
      await plain.close();
    }
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
    const a = await call(sb, '/v2/mailboxes', { company: OLIVIA_INACTIVE });
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
