/** Which profile a run uses when one is named only in the environment, and the hint for a missing key. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/cli.js';
import { sent, startCoreHarness } from '../helpers/core.js';
import { runInProcess as runAgency } from '../helpers/in-process.js';

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

describe('profiles named in the environment', () => {
  it('an unknown AGENCY_PROFILE is fine when the environment gives both key and base URL', async () => {
    const r = await h.run(['me'], {
      env: { AGENCY_PROFILE: 'ci', AGENCY_API_KEY: h.sandbox.hqKey, AGENCY_BASE_URL: h.sandbox.baseUrl },
      allowCanary: 'stdout',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(sent(h.sandbox)).toHaveLength(1);
  });

  it('but is a typo (exit 2, nothing sent) when the profile would have had to supply the base URL', async () => {
    const r = await h.run(['me'], { env: { AGENCY_PROFILE: 'ci', AGENCY_API_KEY: h.sandbox.hqKey } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('No profile named "ci"');
    expect(sent(h.sandbox)).toHaveLength(0);
  });

  it('a missing key points at a profile that has one', async () => {
    const dir = join(tmp, 'two-profiles');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ current: 'default', profiles: { sandbox: { api_key: 'wpk_other_0123456789' } } }),
    );
    const r = await runAgency(['companies', 'list'], { configDir: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('agency profiles use sandbox');
  });
});
