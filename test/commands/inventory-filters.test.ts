/** `inventory --inactive` asks the service for the inactive companies only. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/cli.js';
import { sent, startCoreHarness } from '../helpers/core.js';

let h: Harness;
let tmp: string;
beforeAll(async () => {
  // The program runs in this process (test/helpers/in-process.ts).
  h = await startCoreHarness({}, { inProcess: true });
  tmp = mkdtempSync(join(tmpdir(), 'agency-commands-'));
});
afterAll(async () => {
  await h.close();
  rmSync(tmp, { recursive: true, force: true });
});
beforeEach(() => h.sandbox.reset());

describe('inventory --inactive', () => {
  it('asks the service for the inactive companies only', async () => {
    const r = await h.run(['inventory', '--inactive', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const lists = sent(h.sandbox).filter((s) => s.path === '/v2/agency/companies');
    expect(lists.length).toBeGreaterThan(0);
    for (const list of lists) expect(list.query.active).toBe('false');
    const reports = JSON.parse(r.stdout) as { active: boolean }[];
    expect(reports.length).toBe(h.sandbox.store.companies(1, { active: false }).length);
    expect(reports.every((report) => report.active === false)).toBe(true);
  });
});
