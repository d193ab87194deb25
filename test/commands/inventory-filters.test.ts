import { describe, expect, it } from 'vitest';
import { sent, sharedInProcessHarness } from '../helpers/core.js';

const shared = sharedInProcessHarness();

describe('inventory --inactive', () => {
  it('asks the service for the inactive companies only', async () => {
    const r = await shared.h.run(['inventory', '--inactive', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const lists = sent(shared.h.sandbox).filter((s) => s.path === '/v2/agency/companies');
    expect(lists.length).toBeGreaterThan(0);
    for (const list of lists) expect(list.query.active).toBe('false');
    const reports = JSON.parse(r.stdout) as { active: boolean }[];
    expect(reports.length).toBe(shared.h.sandbox.store.companies(1, { active: false }).length);
    expect(reports.every((report) => report.active === false)).toBe(true);
  });
});
