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

  it('GET /v2/mailboxes is a bare array of SMTP entries, each with its paired IMAP entry', async () => {
    const hq = await call(sb, '/v2/mailboxes');
    expect(hq.body.map((m: { type: string }) => m.type)).toEqual(['SMTP', 'IMAP']);
    const errors = new Set<unknown>();
    const inSlot = new Set<unknown>();
    const freezes = new Set<string>();
    for (let id = 1001; id <= 1060; id++) {
      if (!sb.store.company(id)?.active) continue;
      const a = await call(sb, '/v2/mailboxes', { company: id });
      expect(Array.isArray(a.body)).toBe(true);
      const smtp = a.body.filter((m: { type: string }) => m.type === 'SMTP');
      const imap = a.body.filter((m: { type: string }) => m.type === 'IMAP');
      expect(smtp.length).toBeGreaterThan(0);
      expect(imap).toHaveLength(smtp.length);
      expect(smtp).toHaveLength(sb.store.company(id)?.emailSlots as number);
      for (const m of smtp) {
        expect(m).toEqual({
          id: expect.any(Number),
          type: 'SMTP',
          details: {
            email: expect.stringContaining('@'),
            provider: expect.stringMatching(/^(Google|Other)$/),
            login: m.details.email,
            server: expect.stringMatching(/^smtp\./),
            port: expect.any(Number),
            from_name: expect.any(String),
            error: m.details.error === null ? null : expect.any(String),
            imap_id: expect.any(Number),
            daily_limit: expect.any(Number),
            sent_today: expect.any(Number),
            warmup_data: { status: expect.stringMatching(/^(RUNNING|PAUSED|STOPPED|NOT_STARTED)$/) },
            in_slot: expect.any(Boolean),
            freeze_account: m.details.freeze_account,
            frequency_from: expect.any(Number),
            frequency_to: expect.any(Number),
          },
        });
        inSlot.add(m.details.in_slot);
        freezes.add(JSON.stringify(m.details.freeze_account));
        const pair = imap.find((i: { id: number }) => i.id === m.details.imap_id);
        expect(pair.details).toMatchObject({
          email: m.details.email,
          provider: m.details.provider,
          port: 993,
        });
        expect(pair.details.server).toMatch(/^imap\./);
        errors.add(m.details.error);
      }
    }
    const [first] = (await call(sb, '/v2/mailboxes', { company: OLIVIA_ACTIVE })).body;
    expect((await call(sb, `/v2/mailboxes/${first.id}`, { company: OLIVIA_ACTIVE })).body).toEqual(first);
    expectError(await call(sb, `/v2/mailboxes/${first.id}`, { company: TOM_ACTIVE }), 404, /not found/);
    expectError(await call(sb, '/v2/mailboxes/abc'), 404);
    // Every form of `error` the docs show: none, empty, a warning, a failure.
    expect(errors).toContain(null);
    expect(errors).toContain('');
    expect(errors).toContain('Connected conditionally.');
    expect([...errors].some((e) => typeof e === 'string' && /failed/.test(e))).toBe(true);
    // Mailboxes outside the company's slots, and every form of freeze_account the docs show.
    expect(inSlot).toEqual(new Set([true, false]));
    expect(freezes).toContain('[]');
    expect(freezes).toContain('""');
    expect([...freezes].some((f) => /^\[\{"from":"\d{4}-\d\d-\d\d","to":/.test(f))).toBe(true);
  });

  it('GET /v1/webhooks answers {webhooks: [{target_url, event}]}, and 204 with no body when empty', async () => {
    const hq = await call(sb, '/v1/webhooks');
    expect(hq.body.webhooks.length).toBeGreaterThan(0);
    const events = new Set<string>();
    let empty = 0;
    for (let id = 1001; id <= 1020; id++) {
      if (!sb.store.company(id)?.active) continue;
      const a = await call(sb, '/v1/webhooks', { company: id });
      if (a.status === 204) {
        expect(a.text).toBe('');
        empty += 1;
        continue;
      }
      expect(Object.keys(a.body)).toEqual(['webhooks']);
      expect(a.body.webhooks.length).toBeGreaterThan(0);
      for (const w of a.body.webhooks) {
        expect(Object.keys(w).sort()).toEqual(['event', 'target_url']);
        expect(w.event).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
        expect(() => new URL(w.target_url)).not.toThrow();
        events.add(w.event);
      }
    }
    expect(events.has('PROSPECT_REPLIED')).toBe(true);
    expect(empty).toBeGreaterThan(0);
    // The specification's path only: /v2/webhooks is the docs' (see docs mode).
    expectError(await call(sb, '/v2/webhooks'), 404);
  });

  it('GET .../email_accounts answers {content} without pagination_data', async () => {
    const a = await call(sb, `/v2/agency/companies/${OLIVIA_ACTIVE}/email_accounts`);
    expect(a.status).toBe(200);
    expect(Object.keys(a.body)).toEqual(['content']);
    expect(a.body.content.length).toBeGreaterThan(0);
    const smtp = a.body.content.filter((e: { type: string }) => e.type === 'SMTP');
    const imap = a.body.content.filter((e: { type: string }) => e.type === 'IMAP');
    expect(smtp.length + imap.length).toBe(a.body.content.length);
    expect(imap).toHaveLength(smtp.length);
    for (const e of a.body.content) expect(Object.keys(e).sort()).toEqual(['details', 'id', 'type']);
    for (const e of smtp) {
      expect(Object.keys(e.details).sort()).toEqual([
        'email',
        'error',
        'from_name',
        'imap_id',
        'provider',
        'running_campaigns',
      ]);
      const pair = imap.find((i: { id: number }) => i.id === e.details.imap_id);
      // An IMAP entry's details are only {email, provider, error}.
      expect(Object.keys(pair.details).sort()).toEqual(['email', 'error', 'provider']);
      expect(pair.details.email).toBe(e.details.email);
      expect(['Google', 'Other']).toContain(e.details.provider);
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
    expect((await call(sb, '/v1/webhooks', { company: id })).status).toBe(204);
    // With v1Dialect: false (the specification alone), an empty list is a list.
    const plain = await startSandbox({ v1Dialect: false });
    try {
      const b = await call(plain, '/v2/agency/companies', { body: { companies: [{ name: uniqueName() }] } });
      const empty = await call(plain, '/v1/webhooks', { company: b.body.companies[0].id });
      expect([empty.status, empty.body]).toEqual([200, { webhooks: [] }]);
    } finally {
      await plain.close();
    }
    expect((await call(sb, `/v2/agency/companies/${id}/email_accounts`)).body).toEqual({ content: [] });
  });
});

describe('docs mode', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ docsMode: true });
  });
  afterAll(() => sb.close());

  it('serves webhooks only under GET /v2/webhooks; GET /v1/webhooks is 404 in the v1 envelope', async () => {
    expectError(await call(sb, '/v1/webhooks'), 404, /No endpoint/, 'E_URL_NOT_FOUND');
    const hq = await call(sb, '/v2/webhooks');
    expect(hq.status).toBe(200);
    expect(hq.body.webhooks.length).toBeGreaterThan(0);
    const created = await call(sb, '/v2/agency/companies', { body: { companies: [{ name: uniqueName() }] } });
    const empty = await call(sb, '/v2/webhooks', { company: created.body.companies[0].id });
    expect(empty.body).toEqual({ message: "You haven't subscribed to any webhooks." });
  });
});
