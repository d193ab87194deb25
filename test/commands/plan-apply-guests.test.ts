/**
 * `guests:` in a plan file (the program in-process, against the sandbox): plan reads the company's
 * guests (role=guest) and shows `+ guest` and `~ guest … permissions`; apply invites (10 at most per
 * request, each with its permissions) and then sets the permissions that differ. A pending invitation
 * is invisible, so it is planned and sent again until the guest accepts; then apply says "No changes."
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import type { CompanyRecord } from '../../src/sandbox/store.js';
import { type Harness, startHarness } from '../helpers/cli.js';
import { lines, sent } from '../helpers/core.js';

const IN_PROCESS = { inProcess: true };

let h: Harness;
let scratch: string;
/** A seeded active company with a guest who may not see the mailboxes yet. */
let client: CompanyRecord;
let guest: { email: string };
beforeAll(async () => {
  h = await startHarness({ seed: { companies: 30 } }, IN_PROCESS);
  scratch = mkdtempSync(join(tmpdir(), 'agency-plan-guests-'));
  const { store } = h.sandbox;
  for (const company of store.companies(MAIN_AGENCY_ID, { active: true })) {
    const found = store.guestsOf(company).find((g) => g.accepted && g.permissions.length === 0);
    if (found) {
      client = company;
      guest = found;
      break;
    }
  }
  if (!client) throw new Error('no seeded company has a guest without permissions');
});
afterAll(async () => {
  await h.close();
  rmSync(scratch, { recursive: true, force: true });
});
beforeEach(() => h.sandbox.reset());

const NEW = 'Guest Plan Co';
const twelve = Array.from({ length: 12 }, (_, i) => `team${i}@${'new-client.example'}`);
const FILE = () => {
  const path = join(scratch, 'agency.yaml');
  writeFileSync(
    path,
    [
      'companies:',
      `  - name: ${JSON.stringify(client.name)}`,
      '    guests:',
      `      - { email: ${guest.email}, permissions: [mailboxes] }`,
      '      - { email: new.guest@client.example, name: New Guest, permissions: [] }',
      `  - name: ${NEW}`,
      '    guests:',
      ...twelve.map(
        (email, i) => `      - { email: ${email}${i === 0 ? ', permissions: [mailboxes]' : ''} }`,
      ),
      '',
    ].join('\n'),
  );
  return path;
};
const writes = () => sent(h.sandbox).filter((q) => q.method !== 'GET');

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
    expect(
      sent(h.sandbox).some(
        (q) => q.path.endsWith(`/companies/${client.id}/users`) && q.query.role === 'guest',
      ),
    ).toBe(true);
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
});
