import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { call, expectError, OLIVIA_ACTIVE, tomKey } from './helpers.js';

describe('agency blacklist', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());
  beforeEach(() => sb.reset());

  it('pages a few hundred seeded values, 0-based, 100 per page by default', async () => {
    for (const kind of ['domains', 'emails']) {
      const first = await call(sb, `/v2/agency/blacklist/${kind}`);
      expect(first.status).toBe(200);
      expect(Object.keys(first.body).sort()).toEqual([kind, 'total'].sort());
      expect(first.body.total).toBeGreaterThan(200);
      expect(first.body[kind]).toHaveLength(100);
      const page0 = await call(sb, `/v2/agency/blacklist/${kind}?page=0&per_page=100`);
      expect(page0.body).toEqual(first.body);
      const pages = Math.ceil(first.body.total / 100);
      const all: string[] = [];
      for (let page = 0; page < pages; page++) {
        all.push(...(await call(sb, `/v2/agency/blacklist/${kind}?page=${page}`)).body[kind]);
      }
      expect(all).toHaveLength(first.body.total);
      expect(new Set(all).size).toBe(all.length);
      for (const v of all) expect(v).toBe(v.toLowerCase());
      expect(all.every((v) => (kind === 'emails' ? v.includes('@') : !v.includes('@')))).toBe(true);
      const past = await call(sb, `/v2/agency/blacklist/${kind}?page=${pages}`);
      expect(past.body).toEqual({ [kind]: [], total: first.body.total });
      const big = await call(sb, `/v2/agency/blacklist/${kind}?per_page=1000`);
      expect(big.body[kind]).toEqual(all);
    }
  });

  it('refuses page and per_page out of range with 400', async () => {
    for (const query of ['page=-1', 'page=x', 'per_page=0', 'per_page=1001', 'per_page=1.5']) {
      expectError(await call(sb, `/v2/agency/blacklist/domains?${query}`), 400);
    }
    expectError(await call(sb, '/v2/agency/blacklist/phones'), 404);
  });

  it('adds values with 201 and no body, lower-cased, each once; listed at the end', async () => {
    const before = (await call(sb, '/v2/agency/blacklist/domains?per_page=1000')).body;
    const a = await call(sb, '/v2/agency/blacklist/domains', {
      body: { domains: ['Spam-Corp.example', 'spam-corp.example', before.domains[0], 'new-one.example'] },
    });
    expect([a.status, a.text]).toEqual([201, '']);
    const after = (await call(sb, '/v2/agency/blacklist/domains?per_page=1000')).body;
    expect(after.total).toBe(before.total + 2);
    expect(after.domains.slice(-2)).toEqual(['spam-corp.example', 'new-one.example']);
    expect(sb.stats().blacklistAdded).toBe(2);
    const e = await call(sb, '/v2/agency/blacklist/emails', { body: { emails: ['Jane@Example.com'] } });
    expect(e.status).toBe(201);
    const emails = (await call(sb, '/v2/agency/blacklist/emails?per_page=1000')).body.emails;
    expect(emails.at(-1)).toBe('jane@example.com');
  });

  it('takes at most 500 values per request and refuses bad ones, adding nothing', async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `bulk${i}.example`);
    const total = async () => (await call(sb, '/v2/agency/blacklist/domains')).body.total;
    const start = await total();
    expectError(await call(sb, '/v2/agency/blacklist/domains', { body: { domains: many(501) } }), 400, /500/);
    expectError(await call(sb, '/v2/agency/blacklist/domains', { body: { domains: [] } }), 400);
    expectError(await call(sb, '/v2/agency/blacklist/domains', { body: { emails: ['a@b.com'] } }), 400);
    expectError(
      await call(sb, '/v2/agency/blacklist/domains', { body: { domains: ['ok.example', 'not a domain'] } }),
      400,
      /not a domain/,
    );
    expectError(await call(sb, '/v2/agency/blacklist/emails', { body: { emails: ['nobody'] } }), 400);
    expect(await total()).toBe(start);
    expect((await call(sb, '/v2/agency/blacklist/domains', { body: { domains: many(500) } })).status).toBe(
      201,
    );
    expect(await total()).toBe(start + 500);
  });

  it('is an agency endpoint: HQ key only, no x-company-id; every HQ user sees the same list', async () => {
    expectError(await call(sb, '/v2/agency/blacklist/domains', { company: OLIVIA_ACTIVE }), 403);
    const olivia = await call(sb, '/v2/agency/blacklist/domains');
    const tom = await call(sb, '/v2/agency/blacklist/domains', { key: tomKey(sb) });
    expect(tom.body).toEqual(olivia.body);
  });
});
