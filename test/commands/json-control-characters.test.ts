/** --json output carries server text with control characters escaped: the same value, inert on a terminal. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/cli.js';
import { direct, startCoreHarness } from '../helpers/core.js';

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

describe('--json and terminal control characters', () => {
  it('escapes C1 controls (a lone CSI) so that the JSON is the same value but inert', async () => {
    const name = `Evil\u009b2J Co ${Date.now()}`;
    const created = await direct(h.sandbox, '/v2/agency/companies', { body: { companies: [{ name }] } });
    expect(created.status).toBe(201);
    h.sandbox.reset();
    const r = await h.run(['companies', 'list', '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\u009b');
    expect(r.stdout).toContain('\\u009b');
    expect((JSON.parse(r.stdout) as { name: string }[]).some((c) => c.name === name)).toBe(true);
  });
});
