/** Which profile a run uses when one is named only in the environment, and the hint for a missing key. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sent, sharedInProcessHarness } from '../helpers/core.js';
import { runInProcess as runAgency } from '../helpers/in-process.js';

const shared = sharedInProcessHarness();

describe('profiles named in the environment', () => {
  it('an unknown AGENCY_PROFILE is fine when the environment gives both key and base URL', async () => {
    const r = await shared.h.run(['me'], {
      env: {
        AGENCY_PROFILE: 'ci',
        AGENCY_API_KEY: shared.h.sandbox.hqKey,
        AGENCY_BASE_URL: shared.h.sandbox.baseUrl,
      },
      allowCanary: 'stdout',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(sent(shared.h.sandbox)).toHaveLength(1);
  });

  it('but is a typo (exit 2, nothing sent) when the profile would have had to supply the base URL', async () => {
    const r = await shared.h.run(['me'], {
      env: { AGENCY_PROFILE: 'ci', AGENCY_API_KEY: shared.h.sandbox.hqKey },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('No profile named "ci"');
    expect(sent(shared.h.sandbox)).toHaveLength(0);
  });

  it('a missing key points at a profile that has one', async () => {
    const dir = join(shared.tmp, 'two-profiles');
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
