/**
 * `bounce_shield: N` in plan files (defaults and per company): `plan` shows one `~ bounce shield` line
 * per RUNNING or PAUSED campaign whose applied threshold differs, `apply` sets them (PUT), and a second
 * apply says "No changes." and sends nothing. A value outside 1–99 names its line (exit 2).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { campaignsOf } from '../../src/sandbox/resources/campaigns.js';
import { unsupportedCampaign } from '../../src/sandbox/seed/campaigns.js';
import { accountOfCompany } from '../../src/sandbox/types.js';
import { clientContext } from '../helpers/campaigns.js';
import { type Harness, startHarness } from '../helpers/cli.js';
import { expectUsageError, lines } from '../helpers/core.js';
import { testDir } from '../helpers/temp-dir.js';

let h: Harness;
let dir: string;
beforeEach(async () => {
  h = await startHarness({ seed: { companies: 26 } }, { inProcess: true });
  dir = testDir('plan-shield-');
});
afterEach(() => h.close());

const puts = () => h.requests().filter((q) => q.method === 'PUT');

/** Two active clients whose RUNNING and PAUSED campaigns the v2 API all accepts, with some of them. */
function twoClients() {
  const found = [];
  for (const company of h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true })) {
    const all = campaignsOf(clientContext(h.sandbox, company.id));
    const planned = all.filter((c) => c.status === 'RUNNING' || c.status === 'PAUSED');
    if (planned.length > 0 && !all.some((c) => unsupportedCampaign(c.id)))
      found.push({ company, planned, all });
    if (found.length === 2) return found as [(typeof found)[0], (typeof found)[0]];
  }
  throw new Error('too few plain clients');
}

describe('bounce_shield in plan files', () => {
  it('plan shows each differing campaign, apply sets them, a second apply says No changes', async () => {
    const [a, b] = twoClients();
    // One of a's campaigns has 3 already: not a change.
    const [kept] = a.planned;
    h.sandbox.store.updateCampaign(accountOfCompany(a.company.id), kept?.id as number, { threshold: 3 });
    const file = join(dir, 'agency.yaml');
    writeFileSync(
      file,
      `defaults:\n  bounce_shield: 3\ncompanies:\n  - ${a.company.name}\n  - name: ${b.company.name}\n    bounce_shield: 4\n`,
    );
    const plan = await h.run(['plan', '-f', file, '--exit-code']);
    expect(plan.code, plan.stderr).toBe(6);
    const expected = [
      ...a.planned.filter((c) => c !== kept).map((c) => [a.company.name, c, 3] as const),
      ...b.planned.map((c) => [b.company.name, c, 4] as const),
    ].map(
      ([name, c, to]) =>
        `~ bounce shield 2% → ${to}% for campaign ${JSON.stringify(c.name)} (${c.id}) of ${JSON.stringify(name)}`,
    );
    expect(lines(plan.stdout)).toEqual(expected);
    expect(plan.stderr).toMatch(/Plan: \d+ to add or change \(.*thresholds?\)/);
    expect(puts()).toEqual([]);

    h.sandbox.reset();
    // One account at a time: its lines come in the plan's order.
    const apply = await h.run(['apply', '-f', file, '--yes', '--concurrency', '1']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(lines(apply.stdout)).toEqual(expected);
    expect(puts().map((q) => q.body)).toEqual(
      expected.map((line) => ({ bounce_rate_threshold: Number(/→ (\d+)%/.exec(line)?.[1]) })),
    );

    h.sandbox.reset();
    const again = await h.run(['apply', '-f', file, '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('No changes.');
    expect(puts()).toEqual([]);
  });

  it.each([['0'], ['100'], ['"3"'], ['2.5']])(
    'bounce_shield: %s is refused naming its line, nothing sent',
    async (value) => {
      const file = join(dir, 'bad.yaml');
      writeFileSync(file, `companies:\n  - name: Acme Ltd\n    bounce_shield: ${value}\n`);
      expectUsageError(
        await h.run(['plan', '-f', file]),
        h.sandbox,
        /line 3.*"bounce_shield" must be a whole percent from 1 to 99/,
      );
    },
  );
});
