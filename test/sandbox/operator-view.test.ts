import { describe, expect, it } from 'vitest';
import { bannerData, type RequestLogEntry } from '../../src/sandbox/index.js';
import { call, sandboxesClosedAfterEach } from './helpers.js';

/** What the `agency sandbox` command shows its user: an empty agency, a log line per request, the banner. */
describe('the sandbox as a tool', () => {
  const start = sandboxesClosedAfterEach();

  it('starts an empty agency with companies: 0, which then works as any other', async () => {
    const sb = await start({ seed: { companies: 0 } });
    const list = await call(sb, '/v2/agency/companies');
    expect(list.body).toEqual({
      content: [],
      pagination_data: { total_elements: 0, total_pages: 0, current_page_number: 1, page_size: 50 },
    });
    const created = await call(sb, '/v2/agency/companies', {
      body: { companies: [{ name: 'First Client' }] },
    });
    expect(created.status).toBe(201);
    expect(
      (await call(sb, '/v2/agency/companies')).body.content.map((c: { name: string }) => c.name),
    ).toEqual(['First Client']);
    expect(bannerData(sb).companies).toEqual({ total: 1, active: 1, inactive: 0 });
  });

  it('reports each API request once it is over: method, path with query, status, ms, fault', async () => {
    const log: RequestLogEntry[] = [];
    const sb = await start({ onRequest: (entry) => log.push(entry), latencyMs: 20 });
    await call(sb, '/v2/agency/companies?page=2');
    await call(sb, '/v1/me', { key: 'wpk_nope' });
    sb.addFault({ kind: 'reset-after', path: '/v1/me' });
    await call(sb, '/v1/me').catch(() => undefined);
    await fetch(`${sb.url}/_sandbox/stats`);
    await new Promise((r) => setTimeout(r, 50)); // the dropped connection's close event
    expect(log.map((e) => [e.method, e.path, e.status, e.fault])).toEqual([
      ['GET', '/rest/v2/agency/companies?page=2', 200, undefined],
      ['GET', '/rest/v1/me', 401, undefined],
      ['GET', '/rest/v1/me', 0, 'reset-after'],
    ]);
    expect(log[0]?.ms).toBeGreaterThanOrEqual(19);
    // The account and its slot (the service's own work), for an account's timeline; none without one.
    expect(log.map((e) => e.account)).toEqual(['hq:1', '', 'hq:1']);
    const first = log[0] as RequestLogEntry;
    expect((first.servedTo ?? 0) - (first.servedFrom ?? 0)).toBeGreaterThanOrEqual(19);
    expect(first.servedFrom).toBeGreaterThanOrEqual(first.startedAt);
    expect(log[1]?.servedFrom).toBeUndefined();
    // A timeline: each request's arrival and end, in order.
    for (const [i, e] of log.entries()) {
      expect(e.endedAt - e.startedAt).toBeCloseTo(e.ms, 2);
      if (i > 0) expect(e.startedAt).toBeGreaterThanOrEqual(log[i - 1]?.endedAt as number);
    }
  });

  it('gives the banner its facts: URL, every HQ key with its user, the world, the settings', async () => {
    const sb = await start({ seed: { companies: 30 }, rttMs: 30, latencyMs: 20, docsMode: true });
    const banner = bannerData(sb);
    expect(banner).toMatchObject({
      baseUrl: sb.baseUrl,
      hqKey: sb.hqKey,
      users: [
        { name: 'Olivia Owner', role: 'admin', hqKey: sb.hqKey },
        { name: 'Tom Teammate', role: 'member', hqKey: sb.users[1]?.hqKey },
      ],
      settings: {
        latencyMs: 20,
        rttMs: 30,
        queueLimit: 6,
        queueTimeoutMs: 15_000,
        docsMode: true,
        v1Dialect: true,
      },
    });
    expect(banner.companies.total).toBe(30);
    expect(banner.companies.active + banner.companies.inactive).toBe(30);
    const rows = Object.fromEntries(banner.rows.map((r) => [r.label, r.value]));
    expect(rows['Base URL']).toBe(sb.baseUrl);
    expect(rows['HQ key, Olivia Owner (admin)']).toBe(sb.hqKey);
    expect(rows['Round trip']).toBe('30 ms');
    expect(rows.Mode).toMatch(/^docs/);
    expect(rows.State).toBe('in memory');
  });
});
