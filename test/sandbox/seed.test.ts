import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOREIGN_AGENCY_ID, MAIN_AGENCY_ID, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { CANARY, call, OLIVIA_ACTIVE, OLIVIA_INACTIVE, TOM_INACTIVE, tomKey } from './helpers.js';

describe('seeded world', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ hqKey: CANARY });
  });
  afterAll(() => sb.close());

  it('has an owner and a teammate with HQ keys, the canary as the owner key', () => {
    expect(sb.hqKey).toBe(CANARY);
    expect(sb.users.map((u) => [u.name, u.email])).toEqual([
      ['Olivia Owner', 'olivia@northwind.example'],
      ['Tom Teammate', 'tom@northwind.example'],
    ]);
    expect(sb.users[0]?.hqKey).toBe(CANARY);
    expect(tomKey(sb)).toMatch(/^wpk_hq_[0-9a-f]{32}$/);
    expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sb.baseUrl).toBe(`${sb.url}/rest`);
  });

  it('seeds 120 uniquely named companies from id 1001, ~15% inactive, mixed owners', () => {
    const companies = sb.store.companies(MAIN_AGENCY_ID);
    expect(companies).toHaveLength(120);
    expect(companies[0]).toMatchObject({ id: 1001, name: 'Acme Ltd', active: true, ownerId: 1 });
    expect(companies[1]).toMatchObject({ id: 1002, name: 'Blue Harbor Dental', ownerId: 2 });
    expect(new Set(companies.map((c) => c.name)).size).toBe(120);
    const inactive = companies.filter((c) => !c.active);
    expect(inactive.length / 120).toBeGreaterThan(0.1);
    expect(inactive.length / 120).toBeLessThan(0.2);
    expect(sb.store.company(OLIVIA_INACTIVE)).toMatchObject({ active: false, ownerId: 1 });
    expect(sb.store.company(TOM_INACTIVE)).toMatchObject({ active: false, ownerId: 2 });
    expect(sb.store.accessibleCompanies(2).every((c) => c.ownerId === 2)).toBe(true);
    expect(sb.store.accessibleCompanies(1)).toHaveLength(120);
    for (const c of companies) expect(sb.store.keyCount(c.id)).toBeGreaterThanOrEqual(1);
  });

  it('has a foreign agency with its own companies, one inactive', () => {
    const foreign = sb.store.companies(FOREIGN_AGENCY_ID);
    expect(foreign.length).toBeGreaterThan(1);
    expect(foreign.some((c) => !c.active)).toBe(true);
    expect(sb.store.foreignAgency.name).not.toBe(sb.store.mainAgency.name);
  });

  it('starts a 10,000-company world quickly and serves its last page', async () => {
    const t0 = performance.now();
    const big = await startSandbox({ seed: { companies: 10_000 } });
    const elapsed = performance.now() - t0;
    try {
      expect(elapsed).toBeLessThan(5000); // a sanity bound (derived data, no per-company work), not a speed test
      const last = await call(big, '/v2/agency/companies?page=200');
      expect(last.body.content).toHaveLength(50);
      expect(last.body.pagination_data).toEqual({
        total_elements: 10_000,
        total_pages: 200,
        current_page_number: 200,
        page_size: 50,
      });
      expect(new Set(big.store.companies(MAIN_AGENCY_ID).map((c) => c.name)).size).toBe(10_000);
    } finally {
      await big.close();
    }
  });

  it('is the same world on every start (everything but the keys)', async () => {
    const other = await startSandbox();
    const mine = await startSandbox();
    try {
      const paths = [
        '/v2/agency/companies?page=2',
        `/v2/agency/companies/${OLIVIA_ACTIVE}/email_accounts`,
        `/v2/agency/companies/${OLIVIA_ACTIVE}/users`,
        '/v2/agency/blacklist/domains?page=1',
        '/v2/agency/blacklist/emails?page=2',
      ];
      for (const path of paths) expect((await call(mine, path)).body).toEqual((await call(other, path)).body);
      for (const path of ['/v2/mailboxes', '/v1/webhooks', '/v1/campaign_list']) {
        const a = await call(mine, path, { company: OLIVIA_ACTIVE });
        expect(a.body).toEqual((await call(other, path, { company: OLIVIA_ACTIVE })).body);
      }
    } finally {
      await Promise.all([other.close(), mine.close()]);
    }
  });

  it('with a key seed, makes the same keys on every start, also for keys created later', async () => {
    const start = () => startSandbox({ seed: { companies: 3, keySeed: 'docs' } });
    const [a, b, random] = await Promise.all([start(), start(), startSandbox({ seed: { companies: 3 } })]);
    try {
      const keys = async (sb: Sandbox) => {
        const created = await call(sb, `/v2/agency/companies/${OLIVIA_ACTIVE}/api_keys`, {
          body: { label: 'zapier' },
        });
        const listed = await call(sb, `/v2/agency/companies/${OLIVIA_ACTIVE}/api_keys`);
        return { hq: sb.users.map((u) => u.hqKey), created: created.body, listed: listed.body };
      };
      const first = await keys(a);
      expect(first.created).toEqual({ api_key: expect.stringMatching(/^wpk_[0-9a-f]{32}$/) });
      expect(await keys(b)).toEqual(first);
      expect((await keys(random)).hq).not.toEqual(first.hq);
    } finally {
      await Promise.all([a.close(), b.close(), random.close()]);
    }
  });
});
