/** `companies users <company>`: every page of GET /v2/agency/companies/{cid}/users, with the HQ key. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import type { Harness } from '../helpers/cli.js';
import {
  directAllPages,
  expectUsageError,
  foreignCompany,
  lines,
  sent,
  startCoreHarness,
} from '../helpers/core.js';

/** The program runs in this process (test/helpers/in-process.ts). */
const IN_PROCESS = { inProcess: true };

interface User {
  id: number;
  name: string;
  email: string;
  roles: string[];
}

describe('companies users', () => {
  let h: Harness;
  /** A company with more than one page of users, and every user of it as the sandbox lists them. */
  let crowd: { id: number; name: string; users: User[] };
  beforeAll(async () => {
    h = await startCoreHarness({ seed: { companies: 60 } }, IN_PROCESS);
    for (const company of h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true })) {
      const users = (await directAllPages(h.sandbox, `/v2/agency/companies/${company.id}/users`)) as User[];
      if (users.length > 50) {
        crowd = { id: company.id, name: company.name, users };
        break;
      }
    }
    if (!crowd) throw new Error('the seeded sandbox has no company with two pages of users');
  });
  afterAll(() => h.close());
  beforeEach(() => h.sandbox.reset());

  it('--json prints the users of every page as the service returns them', async () => {
    const r = await h.run(['companies', 'users', String(crowd.id), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(crowd.users);
    const requests = sent(h.sandbox);
    expect(requests.map((q) => [q.method, q.path, q.query.page])).toEqual([
      ['GET', `/v2/agency/companies/${crowd.id}/users`, '1'],
      ['GET', `/v2/agency/companies/${crowd.id}/users`, '2'],
    ]);
    // An agency endpoint: the HQ key alone.
    expect(requests.every((q) => q.headers['x-company-id'] === undefined)).toBe(true);
  });

  it('piped: one row per user, id, name, email and the roles comma-joined', async () => {
    const r = await h.run(['companies', 'users', String(crowd.id)]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual(
      crowd.users.map((u) => [u.id, u.name, u.email, u.roles.join(',')].join('\t')),
    );
    expect(crowd.users.some((u) => u.roles.includes('guest'))).toBe(true);
  });

  it('takes the exact company name', async () => {
    const r = await h.run(['companies', 'users', crowd.name, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(crowd.users);
  });

  it('bad input is refused before any request; a company outside the agency exits 4', async () => {
    expectUsageError(await h.run(['companies', 'users', '0']), h.sandbox, /positive whole number/);
    expectUsageError(await h.run(['companies', 'users']), h.sandbox, /company/);
    const foreign = await h.run(['companies', 'users', String(foreignCompany(h.sandbox).id)]);
    expect(foreign.code).toBe(4);
    expect(foreign.stdout).toBe('');
  });

  it("--role sends the service's filter on every page and prints what it answers", async () => {
    const r = await h.run([
      'companies',
      'users',
      String(crowd.id),
      '--role',
      'authorized_team_member',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const members = crowd.users.filter((u) => u.roles.includes('authorized_team_member'));
    expect(members.length).toBeGreaterThan(50);
    expect(JSON.parse(r.stdout)).toEqual(members);
    expect(sent(h.sandbox).map((q) => [q.query.page, q.query.role])).toEqual([
      ['1', 'authorized_team_member'],
      ['2', 'authorized_team_member'],
    ]);
  });

  it('--role guest of a company without guests: nothing on stdout, exit 0', async () => {
    const made = await h.run(['companies', 'create', '--name', 'No Guests Ltd', '--json']);
    const [company] = JSON.parse(made.stdout) as { id: number }[];
    h.sandbox.reset();
    const r = await h.run(['companies', 'users', String(company?.id), '--role', 'guest']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(sent(h.sandbox).map((q) => q.query.role)).toEqual(['guest']);
  });

  it("--role in any case is the role; an unknown one is exit 2 in the tool's words, with a near miss named (fourth pass F4)", async () => {
    const upper = await h.run(['companies', 'users', String(crowd.id), '--role', 'GUEST']);
    expect(upper.code, upper.stderr).toBe(0);
    expect(sent(h.sandbox).map((q) => q.query.role)).toEqual(['guest']);
    h.sandbox.reset();
    const r = await h.run(['companies', 'users', String(crowd.id), '--role', 'gest']);
    expectUsageError(r, h.sandbox, /admin, owner, authorized_team_member, guest/);
    expect(r.stderr).toContain(
      'Unknown value "gest" for --role; valid: admin, owner, authorized_team_member, guest (any case). Did you mean guest?',
    );
    expect(r.stderr).not.toContain('Allowed choices');
    const far = await h.run(['companies', 'users', String(crowd.id), '--role', 'boss']);
    expectUsageError(far, h.sandbox, /valid: admin, owner/);
    expect(far.stderr).not.toContain('Did you mean');
  });
});
