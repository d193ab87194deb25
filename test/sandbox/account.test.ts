import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOREIGN_AGENCY_ID, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
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
