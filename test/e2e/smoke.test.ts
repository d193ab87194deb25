import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANARY_KEY, type Harness, startHarness } from '../helpers/cli.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('smoke', () => {
  it('lists companies as TSV when piped, with the headers of the contract', async () => {
    const r = await h.run(['companies', 'list']);
    expect(r.code).toBe(0);
    const rows = r.stdout.trim().split('\n');
    expect(rows.length).toBe(h.sandbox.store.companies(1).length);
    expect(rows[0]?.split('\t')[0]).toMatch(/^\d+$/);
    const req = h.requests()[0];
    expect(req?.headers['x-api-key']).toBe(CANARY_KEY);
    expect(req?.headers['user-agent']).toMatch(/^agency-cli\/\d+\.\d+\.\d+/);
    expect(req?.headers.accept).toBe('application/json');
    expect(req?.headers['x-company-id']).toBeUndefined();
    expect(r.stderr).not.toContain(CANARY_KEY);
  });
});
