import { describe, expect, it } from 'vitest';
import { sent, sharedInProcessHarness } from '../helpers/core.js';

// 14 companies, two of them inactive: --inactive audits every company it is given, five requests each.
const shared = sharedInProcessHarness({ seed: { companies: 14 } });

describe('inventory --inactive', () => {
  it('asks the service for the inactive companies only', async () => {
    const r = await shared.h.run(['inventory', '--inactive', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const lists = sent(shared.h.sandbox).filter((s) => s.path === '/v2/agency/companies');
    expect(lists.length).toBeGreaterThan(0);
    for (const list of lists) expect(list.query.active).toBe('false');
    const reports = JSON.parse(r.stdout) as { active: boolean }[];
    expect(reports.length).toBeGreaterThan(1);
    expect(reports.length).toBe(shared.h.sandbox.store.companies(1, { active: false }).length);
    expect(reports.every((report) => report.active === false)).toBe(true);
  });
});
