/** `companies view <company>`: one company's record, exactly as the API returns it. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, jsonError } from '../helpers/cli.js';
import { directAllPages, expectUsageError, sent, startCoreHarness } from '../helpers/core.js';

let h: Harness;
let records: { id: number; name: string }[];
beforeAll(async () => {
  h = await startCoreHarness({}, { inProcess: true });
  records = (await directAllPages(h.sandbox, '/v2/agency/companies')) as { id: number; name: string }[];
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => h.sandbox.reset());

describe('companies view', () => {
  it('--json prints the record of the last page exactly as the service lists it, by id and by name', async () => {
    const last = records.at(-1) as { id: number; name: string };
    for (const ref of [String(last.id), last.name]) {
      const r = await h.run(['companies', 'view', ref, '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(last);
    }
    expect(sent(h.sandbox).every((q) => q.method === 'GET' && q.path === '/v2/agency/companies')).toBe(true);
  });

  it('an id not in the agency: exit 4, nothing on stdout, the JSON error last on stderr', async () => {
    const missing = Math.max(...records.map((c) => c.id)) + 1000;
    const r = await h.run(['companies', 'view', String(missing), '--json']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(jsonError(r.stderr).error.message).toContain(String(missing));
    expect(sent(h.sandbox).length).toBeGreaterThan(0);
  });

  it('id 0 is a usage error before any request', async () => {
    expectUsageError(await h.run(['companies', 'view', '0']), h.sandbox);
  });
});
