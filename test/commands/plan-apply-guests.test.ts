/**
 * `guests:` in a plan file (the program in-process, against the sandbox): plan reads the company's
 * users (every role, one listing) and shows `+ guest` and `~ guest … permissions`, and a `!` line for
 * an address that is already a member of the company (never invited); apply invites (10 at most per
 * request, each with its permissions) and then sets the permissions that differ. A pending invitation
 * is invisible, so it is planned and sent again until the guest accepts; then apply says "No changes."
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { companyUsers } from '../../src/sandbox/resources/users.js';
import type { CompanyRecord } from '../../src/sandbox/store.js';
import { type Harness, startHarness } from '../helpers/cli.js';
import { lines, sent } from '../helpers/core.js';

const IN_PROCESS = { inProcess: true };

let h: Harness;
let scratch: string;
/** A seeded active company with a guest who may not see the mailboxes yet, and a team member. */
let client: CompanyRecord;
let guest: { email: string };
let member: { email: string; roles: string[] };
beforeAll(async () => {
  h = await startHarness({ seed: { companies: 30 } }, IN_PROCESS);
  scratch = mkdtempSync(join(tmpdir(), 'agency-plan-guests-'));
  const { store } = h.sandbox;
  for (const company of store.companies(MAIN_AGENCY_ID, { active: true })) {
    const found = store.guestsOf(company).find((g) => g.accepted && g.permissions.length === 0);
    const users = companyUsers(store, company);
    const teammate = users.find((u) => u.roles.includes('authorized_team_member'));
    // One page of users (not one of the crowded companies), so that one read is one request.
    if (found && teammate && users.length <= 20) {
      client = company;
      guest = found;
      member = teammate;
      break;
    }
  }
  if (!client) throw new Error('no seeded company has a guest without permissions and a team member');
});
afterAll(async () => {
  await h.close();
  rmSync(scratch, { recursive: true, force: true });
});
beforeEach(() => h.sandbox.reset());

const NEW = 'Guest Plan Co';
const twelve = Array.from({ length: 12 }, (_, i) => `team${i}@${'new-client.example'}`);
/** A plan file in the scratch directory, from its lines. */
const planFile = (name: string, yaml: string[]) => {
  const path = join(scratch, name);
  writeFileSync(path, `${yaml.join('\n')}\n`);
  return path;
};
const FILE = () =>
  planFile('agency.yaml', [
    'companies:',
    `  - name: ${JSON.stringify(client.name)}`,
    '    guests:',
    `      - { email: ${guest.email}, permissions: [mailboxes] }`,
    '      - { email: new.guest@client.example, name: New Guest, permissions: [] }',
    `  - name: ${NEW}`,
    '    guests:',
    ...twelve.map((email, i) => `      - { email: ${email}${i === 0 ? ', permissions: [mailboxes]' : ''} }`),
  ]);
const writes = () => sent(h.sandbox).filter((q) => q.method !== 'GET');
const usersListings = () =>
  sent(h.sandbox)
    .filter((q) => q.method === 'GET' && q.path.endsWith('/users'))
    .map((q) => ({ path: q.path, query: q.query }));

describe('guests in plan and apply', () => {
  it('plan shows the guests to invite and the permissions to change, and sends nothing', async () => {
    const r = await h.run(['plan', '-f', FILE()]);
    expect(r.code, r.stderr).toBe(0);
    const shown = lines(r.stdout);
    expect(shown).toContain(
      `~ guest ${guest.email} permissions [] → [mailboxes] for ${JSON.stringify(client.name)}`,
    );
    expect(shown).toContain(`+ guest new.guest@client.example for ${JSON.stringify(client.name)}`);
    expect(shown).toContain(`+ guest ${twelve[11]} for "${NEW}"`);
    expect(writes()).toEqual([]);
    // The company's users are read once, every role (no role filter): a member is told from a guest.
    expect(usersListings()).toEqual([
      { path: `/v2/agency/companies/${client.id}/users`, query: { page: '1' } },
    ]);
    const json = await h.run(['plan', '-f', FILE(), '--json']);
    const changes = JSON.parse(json.stdout).changes as { type: string }[];
    expect(changes.filter((c) => c.type === 'guest')).toHaveLength(13);
    expect(changes.filter((c) => c.type === 'guest-permissions')).toHaveLength(1);
  });

  it('apply invites in requests of at most 10 with permissions, then sets permissions; No changes. once accepted', async () => {
    const r = await h.run(['apply', '-f', FILE(), '--yes']);
    expect(r.code, r.stderr).toBe(0);
    const created = h.sandbox.store.findCompanyByName(NEW) as CompanyRecord;
    const invitations = writes().filter((q) => q.path.endsWith('/invite_guest'));
    expect(invitations.map((q) => [q.path, (q.body as { guests: unknown[] }).guests.length])).toEqual([
      [`/v2/agency/companies/${client.id}/invite_guest`, 1],
      [`/v2/agency/companies/${created.id}/invite_guest`, 10],
      [`/v2/agency/companies/${created.id}/invite_guest`, 2],
    ]);
    expect(invitations[0]?.body).toEqual({
      guests: [{ email: 'new.guest@client.example', name: 'New Guest', guest_permissions: [] }],
    });
    expect((invitations[1]?.body as { guests: unknown[] } | undefined)?.guests[0]).toEqual({
      email: twelve[0],
      guest_permissions: ['mailboxes'],
    });
    const puts = writes().filter((q) => q.method === 'PUT');
    expect(puts.map((q) => [q.path, q.body])).toEqual([
      [
        `/v2/agency/companies/${client.id}/guests/permissions`,
        { guests: [{ id: expect.any(Number), permissions: ['mailboxes'] }] },
      ],
    ]);
    // The company is created before its guests are invited.
    const order = writes().map((q) => q.path.split('/').at(-1));
    expect(order.indexOf('companies')).toBeLessThan(order.indexOf('invite_guest'));
    expect(lines(r.stdout)).toContain(
      `+ guest new.guest@client.example for ${JSON.stringify(client.name)} (invited)`,
    );

    // Pending invitations are invisible: planned and sent again (the service repeats them; nothing doubles).
    h.sandbox.reset();
    const pending = await h.run(['apply', '-f', FILE(), '--yes']);
    expect(pending.code, pending.stderr).toBe(0);
    expect(writes().filter((q) => q.method === 'PUT')).toEqual([]);
    expect(writes().filter((q) => q.path.endsWith('/invite_guest'))).toHaveLength(3);
    expect(h.sandbox.store.guestsOf(created).filter((g) => g.email === twelve[0])).toHaveLength(1);

    // Every guest accepts (the sandbox's control endpoint), and a second apply has nothing to do.
    const accepted = await fetch(`${h.sandbox.url}/_sandbox/guests/accept`, { method: 'POST', body: '{}' });
    expect(await accepted.json()).toEqual({ accepted: 13 });
    h.sandbox.reset();
    const clean = await h.run(['apply', '-f', FILE(), '--yes']);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stderr).toContain('No changes.');
    expect(clean.stdout).toBe('');
    expect(writes()).toEqual([]);
  });

  it('an address that is already a member of the company is a "!" line, never invited; apply sends nothing for it and a re-run changes nothing', async () => {
    const path = planFile('member.yaml', [
      'companies:',
      `  - name: ${JSON.stringify(client.name)}`,
      '    guests:',
      `      - { email: ${member.email.toUpperCase()}, permissions: [mailboxes] }`,
      '      - { email: fresh.guest@client.example }',
    ]);
    const company = `${JSON.stringify(client.name)} (id ${client.id})`;
    const notInvited = `! ${company} cannot invite ${member.email} as a guest: already a user with role authorized_team_member`;

    const plan = await h.run(['plan', '-f', path, '--exit-code']);
    expect(plan.code, plan.stderr).toBe(6);
    expect(lines(plan.stdout)).toEqual([
      `+ guest fresh.guest@client.example for ${JSON.stringify(client.name)}`,
      notInvited,
    ]);
    expect(plan.stderr).toMatch(
      /Plan: 1 to add \(0 companies, 0 keys, 0 webhooks, 1 guest\); 1 in place; 1 blocked;/,
    );
    expect(writes()).toEqual([]);
    expect(usersListings()).toHaveLength(1);
    const json = JSON.parse((await h.run(['plan', '-f', path, '--json'])).stdout);
    expect(json.changes.map((c: { email?: string }) => c.email)).toEqual(['fresh.guest@client.example']);
    expect(json.blocked).toEqual([
      {
        company: client.name,
        company_id: client.id,
        reason: notInvited.slice(`! ${company} `.length),
        email: member.email,
        roles: member.roles,
      },
    ]);

    // apply: the one invitation, without the member (the service would refuse the whole request: 409).
    h.sandbox.reset();
    const apply = await h.run(['apply', '-f', path, '--yes']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(lines(apply.stdout)).toEqual([
      `+ guest fresh.guest@client.example for ${JSON.stringify(client.name)} (invited)`,
    ]);
    expect(apply.stderr).toContain(notInvited);
    expect(writes().map((q) => [q.method, q.path, q.body])).toEqual([
      [
        'POST',
        `/v2/agency/companies/${client.id}/invite_guest`,
        { guests: [{ email: 'fresh.guest@client.example', guest_permissions: [] }] },
      ],
    ]);
    expect(usersListings()).toHaveLength(1);

    // Once the new guest accepted, a re-run has nothing to do: the member stays a "!" line, not a change.
    await fetch(`${h.sandbox.url}/_sandbox/guests/accept`, { method: 'POST', body: '{}' });
    h.sandbox.reset();
    const again = await h.run(['apply', '-f', path, '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain(notInvited);
    expect(again.stderr).toMatch(/No changes\. 2 in place; 1 blocked;/);
    expect(writes()).toEqual([]);
    const check = await h.run(['plan', '-f', path, '--exit-code']);
    expect(check.code, check.stderr).toBe(0);
    expect(lines(check.stdout)).toEqual([notInvited]);
  });

  it('an internationalised address is planned and sent in its ASCII form, with a note naming the line (fourth pass F7)', async () => {
    const file = planFile('idn.yaml', [
      'companies:',
      `  - name: ${JSON.stringify(client.name)}`,
      '    guests:',
      '      - { email: new.guest@bücher.example, name: New }',
    ]);
    const note = `new.guest@bücher.example (${file} line 4) is sent in its ASCII form, new.guest@xn--bcher-kva.example.`;
    const plan = await h.run(['plan', '-f', file]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(lines(plan.stdout)).toContain(
      `+ guest new.guest@xn--bcher-kva.example for ${JSON.stringify(client.name)}`,
    );
    expect(plan.stderr).toContain(note);
    const apply = await h.run(['apply', '-f', file, '--yes']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stderr).toContain(note);
  });
  it('a lost answer of an invitation: its rows are "unknown", never "failed", and a re-run sends it again', async () => {
    const emails = ['lost.one@client.example', 'lost.two@client.example'];
    const path = planFile('lost.yaml', [
      'companies:',
      `  - name: ${JSON.stringify(client.name)}`,
      '    guests:',
      ...emails.map((email) => `      - { email: ${email} }`),
    ]);
    // The service takes the invitations, then the connection drops before its answer.
    h.sandbox.addFault({
      method: 'POST',
      path: `/v2/agency/companies/${client.id}/invite_guest`,
      kind: 'reset-after',
    });
    const r = await h.run(['apply', '-f', path, '--yes', '--json']);
    expect(r.code).toBe(1);
    const rows = JSON.parse(r.stdout) as { email: string; result: string; error: { message: string } }[];
    expect(rows.map((row) => [row.email, row.result])).toEqual(emails.map((email) => [email, 'unknown']));
    expect(rows[0]?.error.message).toContain(
      'whether it was sent is unknown; running the same command again is safe',
    );
    expect(r.stderr).toContain(`unknown: guest ${emails[0]} for ${JSON.stringify(client.name)}`);
    expect(r.stderr).toContain(
      '2 of 2 changes have an unknown outcome (the answer was lost; running apply again is safe).',
    );
    expect(r.stderr).not.toMatch(/failed/);
    // Sent once: the tool never sends a write twice after a lost answer.
    expect(writes().filter((q) => q.path.endsWith('/invite_guest'))).toHaveLength(1);

    // Not remembered as pending: the next apply invites them again (the service repeats an invitation).
    h.sandbox.reset();
    const again = await h.run(['apply', '-f', path, '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(lines(again.stdout)).toEqual(
      emails.map((email) => `+ guest ${email} for ${JSON.stringify(client.name)} (invited)`),
    );
  });
  it('permissions: mailboxes as one word is a one-item list, as the CSV takes it; another word is exit 2 naming the line', async () => {
    const path = planFile('word.yaml', [
      'companies:',
      `  - name: ${JSON.stringify(client.name)}`,
      '    guests:',
      '      - { email: word.one@client.example, permissions: mailboxes }',
      '      - email: word.two@client.example',
      '        permissions: Mailboxes',
      '      - { email: word.three@client.example, permissions: none }',
    ]);
    const r = await h.run(['plan', '-f', path, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const changes = JSON.parse(r.stdout).changes as { email: string; permissions: string[] }[];
    expect(changes.map((c) => [c.email, c.permissions])).toEqual([
      ['word.one@client.example', ['mailboxes']],
      ['word.two@client.example', ['mailboxes']],
      ['word.three@client.example', []],
    ]);

    h.sandbox.reset();
    const bad = planFile('bad-word.yaml', [
      'companies:',
      `  - name: ${JSON.stringify(client.name)}`,
      '    guests:',
      '      - { email: word.one@client.example, permissions: everything }',
    ]);
    const refused = await h.run(['apply', '-f', bad, '--yes']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'bad-word.yaml line 4: "permissions" must be [mailboxes] or [] (or one word: mailboxes, none), not the value everything',
    );
    expect(sent(h.sandbox)).toEqual([]);
  });
});
