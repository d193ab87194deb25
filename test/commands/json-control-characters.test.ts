import { describe, expect, it } from 'vitest';
import { direct, sharedInProcessHarness } from '../helpers/core.js';

const shared = sharedInProcessHarness();

describe('--json and terminal control characters', () => {
  it('escapes C1 controls (a lone CSI) so that the JSON is the same value but inert', async () => {
    const name = `Evil\u009b2J Co ${Date.now()}`;
    const created = await direct(shared.h.sandbox, '/v2/agency/companies', {
      body: { companies: [{ name }] },
    });
    expect(created.status).toBe(201);
    shared.h.sandbox.reset();
    const r = await shared.h.run(['companies', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\u009b');
    expect(r.stdout).toContain('\\u009b');
    expect((JSON.parse(r.stdout) as { name: string }[]).some((c) => c.name === name)).toBe(true);
  });
});
