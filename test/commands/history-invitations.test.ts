/**
 * Pending guest invitations remembered (the program in-process, against the sandbox, with the history
 * on): apply records each invitation it sent; plan then shows the guest as "invited on <date>, not yet
 * accepted", not a change, so a nightly `plan --exit-code` after a successful apply exits 0; apply
 * sends it again only with --resend-invitations; once the guest accepts, nothing is said at all.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { type Harness, startHarness } from '../helpers/cli.js';
import { lines, sent } from '../helpers/core.js';
import { testDir } from '../helpers/temp-dir.js';

/** Each test runs the program several times: room for a machine shared with other work. */
const SLOW = 120_000;

describe('pending invitations remembered', () => {
  let h: Harness;
  beforeAll(async () => {
    // 3 companies: one company of the file is enough.
    h = await startHarness({ seed: { companies: 3 } }, { inProcess: true });
  }, SLOW);
  afterAll(() => h.close());

  it(
    'plan --exit-code exits 0 after apply invited a guest; apply resends only with --resend-invitations',
    async () => {
      const dir = testDir('agency-invitations-');
      const on = { env: { AGENCY_NO_HISTORY: undefined, AGENCY_STATE_DIR: join(dir, 'state') } };
      const company = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true })[0];
      if (!company) throw new Error('no active company');
      const file = join(dir, 'agency.yaml');
      const email = 'new.guest@client.example';
      writeFileSync(
        file,
        `companies:\n  - name: ${JSON.stringify(company.name)}\n    guests:\n      - { email: ${email}, permissions: [mailboxes] }\n`,
      );
      const invites = () => sent(h.sandbox).filter((q) => q.path.endsWith('/invite_guest'));

      const before = await h.run(['plan', '-f', file, '--exit-code'], on);
      expect(before.code).toBe(6);
      expect(lines(before.stdout)).toEqual([`+ guest ${email} for ${JSON.stringify(company.name)}`]);

      const applied = await h.run(['apply', '-f', file, '--yes'], on);
      expect(applied.code).toBe(0);
      expect(invites()).toHaveLength(1);

      // The nightly check: the invitation is pending (invisible to the API), and that is not drift.
      const day = new Date().toISOString().slice(0, 10);
      const nightly = await h.run(['plan', '-f', file, '--exit-code'], on);
      expect(nightly.code).toBe(0);
      expect(lines(nightly.stdout)).toEqual([
        `= guest ${email} for ${JSON.stringify(company.name)} invited on ${day}, not yet accepted`,
      ]);
      expect(nightly.stderr).toMatch(/No changes\./);
      expect(nightly.stderr).toMatch(/1 guest invitation sent earlier is not yet accepted/);
      const json = JSON.parse((await h.run(['plan', '-f', file, '--json'], on)).stdout);
      expect(json.changes).toEqual([]);
      expect(json.pending_invitations).toEqual([
        {
          company: company.name,
          company_id: company.id,
          email,
          invited_at: expect.stringMatching(new RegExp(`^${day}T`)),
        },
      ]);

      // A second apply sends nothing; --resend-invitations sends it again.
      h.sandbox.reset();
      const again = await h.run(['apply', '-f', file, '--yes'], on);
      expect(again.code).toBe(0);
      expect(again.stderr).toMatch(/No changes\./);
      expect(invites()).toEqual([]);
      const resent = await h.run(['apply', '-f', file, '--yes', '--resend-invitations'], on);
      expect(resent.code).toBe(0);
      expect(invites()).toHaveLength(1);

      // Without the history nothing is remembered: the guest is a change again.
      const forgetful = await h.run(['plan', '-f', file, '--exit-code', '--no-history'], on);
      expect(forgetful.code).toBe(6);

      // Accepted: the guest is a user now, nothing to say.
      await fetch(`${h.sandbox.url}/_sandbox/guests/accept`, { method: 'POST', body: '{}' });
      const accepted = await h.run(['plan', '-f', file, '--exit-code'], on);
      expect(accepted.code).toBe(0);
      expect(accepted.stdout).toBe('');
    },
    SLOW,
  );
});
