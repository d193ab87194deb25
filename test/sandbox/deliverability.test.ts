/**
 * GET /v2/agency/deliverability: per client the counters of the period and of the period of the same
 * length before it; 1-based pages of per_page (default 20, at most 50); clients with no activity left
 * out; the older paging names in docs mode; only the companies the caller's user can reach.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { CANARY, call, expectError, tomKey } from './helpers.js';

const FIELDS = ['emails_sent', 'delivered_emails', 'views', 'replies', 'bounces'];

describe('GET /v2/agency/deliverability', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ hqKey: CANARY });
  });
  afterAll(() => sb.close());

  const all = async (query = '') => {
    const items: Record<string, { current_period: number; previous_period: number }>[] = [];
    for (let page = 1; ; page++) {
      const a = await call(sb, `/v2/agency/deliverability?per_page=50&page=${page}${query}`);
      expect(a.status).toBe(200);
      items.push(...a.body.content);
      if (page >= a.body.pagination_data.total_pages) return items;
    }
  };

  it('pairs every counter as {current_period, previous_period}; pages of 20 by default, 50 at most', async () => {
    const first = await call(sb, '/v2/agency/deliverability');
    expect(first.body.content).toHaveLength(20);
    const items = await all();
    expect(first.body.pagination_data).toEqual({
      total_elements: items.length,
      total_pages: Math.ceil(items.length / 20),
      current_page_number: 1,
      page_size: 20,
    });
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(['id', 'name', ...FIELDS].sort());
      for (const field of FIELDS) {
        expect(Object.keys(item[field] ?? {}).sort()).toEqual(['current_period', 'previous_period']);
      }
    }
    expectError(await call(sb, '/v2/agency/deliverability?per_page=51'), 400, /per_page/);
    expectError(await call(sb, '/v2/agency/deliverability?from=2026-13-01'), 400, /YYYY-MM-DD/);
    expectError(await call(sb, '/v2/agency/deliverability?from=2026-05-02&to=2026-05-01'), 400, /after/);
  });

  it('leaves out inactive clients and some active ones without activity', async () => {
    const ids = new Set((await all()).map((item) => item.id as unknown as number));
    const companies = sb.store.companies(MAIN_AGENCY_ID);
    for (const c of companies.filter((c) => !c.active)) expect(ids.has(c.id)).toBe(false);
    const quiet = companies.filter((c) => c.active && !ids.has(c.id));
    expect(quiet.length).toBeGreaterThan(0);
    expect(ids.size).toBeGreaterThan(companies.length / 2);
  });

  it('seeds bounce rates at or above 2% and 5%, and reply rates that fell by half', async () => {
    const items = await all();
    const rate = (item: (typeof items)[number], top: string, bottom: string, period: string) =>
      ((item[top] as Record<string, number>)[period] ?? 0) /
      ((item[bottom] as Record<string, number>)[period] ?? 1);
    const bounce = items.map((i) => rate(i, 'bounces', 'emails_sent', 'current_period'));
    expect(bounce.some((r) => r >= 0.02 && r < 0.05)).toBe(true);
    expect(bounce.some((r) => r >= 0.05)).toBe(true);
    expect(bounce.some((r) => r < 0.02)).toBe(true);
    const halved = items.filter(
      (i) =>
        rate(i, 'replies', 'delivered_emails', 'current_period') <=
        rate(i, 'replies', 'delivered_emails', 'previous_period') / 2,
    );
    expect(halved.length).toBeGreaterThan(0);
  });

  it('counts over the period asked for: a week sends less than the default 30 days', async () => {
    const month = await call(sb, '/v2/agency/deliverability?per_page=1');
    const week = await call(sb, '/v2/agency/deliverability?per_page=1&from=2026-05-01&to=2026-05-07');
    expect(week.body.content[0].id).toBe(month.body.content[0].id);
    expect(week.body.content[0].emails_sent.current_period * 30).toBe(
      month.body.content[0].emails_sent.current_period * 7,
    );
  });

  it("a teammate's key sees only the clients the teammate can reach", async () => {
    const a = await call(sb, '/v2/agency/deliverability?per_page=50', { key: tomKey(sb) });
    for (const item of a.body.content) expect(sb.store.company(item.id)?.ownerId).toBe(2);
  });

  it('docs mode: the older paging names total_count and pages_count', async () => {
    const docs = await startSandbox({ docsMode: true });
    try {
      const a = await call(docs, '/v2/agency/deliverability?per_page=50&page=2');
      expect(Object.keys(a.body.pagination_data).sort()).toEqual([
        'current_page_number',
        'page_size',
        'pages_count',
        'total_count',
      ]);
      expect(a.body.pagination_data).toMatchObject({ current_page_number: 2, page_size: 50 });
    } finally {
      await docs.close();
    }
  });
});
