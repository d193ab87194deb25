import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import {
  call,
  clientKey,
  expectError,
  OLIVIA_ACTIVE,
  OLIVIA_INACTIVE,
  TOM_ACTIVE,
  tomKey,
  uniqueName,
} from './helpers.js';

const HOOK = 'https://crm.example.com/hooks/woodpecker';

describe('webhook subscribe and unsubscribe', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());
  beforeEach(() => sb.reset());

  /** A company created for one test: no webhooks yet, so every test starts from nothing. */
  async function freshCompany(): Promise<number> {
    const a = await call(sb, '/v2/agency/companies', { body: { companies: [{ name: uniqueName() }] } });
    return a.body.companies[0].id;
  }
  const listOf = async (company: number) => {
    const a = await call(sb, '/v1/webhooks', { company });
    return a.status === 204 ? [] : a.body.webhooks;
  };
  const sub = (company: number | undefined, event: string, url = HOOK, key?: string) =>
    call(sb, '/v1/webhooks/subscribe', { company, key, body: { target_url: url, event } });
  const unsub = (company: number | undefined, event: string, url = HOOK) =>
    call(sb, '/v1/webhooks/unsubscribe', { company, body: { target_url: url, event } });

  it('subscribes with a lower-case event: 201 {target_url, event, message}, listed upper-case', async () => {
    const id = await freshCompany();
    const a = await sub(id, 'prospect_replied');
    expect(a.status).toBe(201);
    expect(a.body).toEqual({ target_url: HOOK, event: 'prospect_replied', message: 'Subscribed.' });
    expect(await listOf(id)).toEqual([{ target_url: HOOK, event: 'PROSPECT_REPLIED' }]);
    expect(sb.stats().webhooksSubscribed).toBe(1);
    expect(sb.requests.at(-2)?.headers['x-company-id']).toBe(String(id));
  });

  it('refuses the same pair again (any case) with 409 E_WRONG_PARAM "Event defined for this url."', async () => {
    const id = await freshCompany();
    expect((await sub(id, 'email_opened')).status).toBe(201);
    expectError(await sub(id, 'EMAIL_OPENED'), 409, 'Event defined for this url.', 'E_WRONG_PARAM');
    expect(await listOf(id)).toHaveLength(1);
  });

  it('allows 3 URLs per event per account and refuses a 4th with 409; other events and accounts are separate', async () => {
    const id = await freshCompany();
    for (let n = 1; n <= 3; n++) expect((await sub(id, 'link_clicked', `${HOOK}/${n}`)).status).toBe(201);
    const fourth = await sub(id, 'link_clicked', `${HOOK}/4`);
    expectError(fourth, 409, /at most 3/, 'E_WRONG_PARAM');
    expect((await sub(id, 'prospect_bounced', `${HOOK}/4`)).status).toBe(201);
    const other = await freshCompany();
    expect((await sub(other, 'link_clicked', `${HOOK}/4`)).status).toBe(201);
    expect(await listOf(id)).toHaveLength(4);
  });

  it('unsubscribes a present pair (200) and answers 404 E_WRONG_PARAM for an absent one', async () => {
    const id = await freshCompany();
    await sub(id, 'prospect_replied');
    await sub(id, 'prospect_replied', `${HOOK}/2`);
    const a = await unsub(id, 'PROSPECT_REPLIED');
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ target_url: HOOK, event: 'PROSPECT_REPLIED', message: 'Unsubscribed.' });
    expect(await listOf(id)).toEqual([{ target_url: `${HOOK}/2`, event: 'PROSPECT_REPLIED' }]);
    expectError(await unsub(id, 'prospect_replied'), 404, 'Event not defined for this url.', 'E_WRONG_PARAM');
    expect(sb.stats()).toMatchObject({ webhooksSubscribed: 2, webhooksUnsubscribed: 1 });
  });

  it('changes the account the key acts on: own account, x-company-id, or a client key', async () => {
    const before = await listOf(TOM_ACTIVE);
    expect((await sub(TOM_ACTIVE, 'prospect_interested', HOOK, tomKey(sb))).status).toBe(201);
    const viaClientKey = await call(sb, '/v1/webhooks', { key: clientKey(sb, TOM_ACTIVE) });
    expect(viaClientKey.body.webhooks).toEqual([
      ...before,
      { target_url: HOOK, event: 'PROSPECT_INTERESTED' },
    ]);
    const hq = await call(sb, '/v1/webhooks');
    expect((await sub(undefined, 'campaign_completed')).status).toBe(201);
    expect((await call(sb, '/v1/webhooks')).body.webhooks).toHaveLength(hq.body.webhooks.length + 1);
    expect(sb.requests.filter((r) => r.account === 'hq:1').length).toBeGreaterThan(0);
  });

  it('applies the x-company-id rules (inactive 409, no access 403) and checks the body', async () => {
    expectError(await sub(OLIVIA_INACTIVE, 'prospect_replied'), 409, /inactive/);
    expectError(await sub(OLIVIA_ACTIVE, 'prospect_replied', HOOK, tomKey(sb)), 403);
    const id = await freshCompany();
    for (const [event, url] of [
      ['prospect replied', HOOK],
      ['', HOOK],
      ['prospect_replied', 'ftp://example.com/x'],
      ['prospect_replied', 'not a url'],
    ] as const) {
      expectError(await sub(id, event, url), 400, undefined, 'E_WRONG_PARAM');
    }
    const raw = await call(sb, '/v1/webhooks/subscribe', { company: id, raw: 'nope' });
    expectError(raw, 400);
    expect(await listOf(id)).toEqual([]);
    expect(sb.stats().webhooksSubscribed).toBe(0);
  });

  it('keeps subscriptions across a restart with --state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-hooks-'));
    try {
      const statePath = join(dir, 'state.json');
      const first = await startSandbox({ statePath });
      await call(first, '/v1/webhooks/subscribe', {
        company: OLIVIA_ACTIVE,
        body: { target_url: HOOK, event: 'task_created' },
      });
      const listed = (await call(first, '/v1/webhooks', { company: OLIVIA_ACTIVE })).body;
      await first.close();
      const second = await startSandbox({ statePath });
      expect((await call(second, '/v1/webhooks', { company: OLIVIA_ACTIVE })).body).toEqual(listed);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
