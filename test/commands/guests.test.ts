/**
 * `guests invite` and `guests permissions` against the sandbox (the program in-process): the users read
 * first (guests are already-guest, members already-user), at most 10 per invitation, addresses checked
 * locally, a re-run that sends nothing once the guests accepted, emails resolved among the guests,
 * unknown guests exit 4.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { acceptInvitations } from '../../src/sandbox/resources/guests.js';
import type { Harness } from '../helpers/cli.js';
import { expectUsageError, lines, type SentRequest, sent, startCoreHarness } from '../helpers/core.js';

const IN_PROCESS = { inProcess: true };

let h: Harness;
let scratch: string;
/** A company created for the tests: no seeded guests. */
let company: number;
beforeAll(async () => {
  h = await startCoreHarness({ seed: { companies: 4 } }, IN_PROCESS);
  scratch = mkdtempSync(join(tmpdir(), 'agency-guests-'));
  const made = await h.run(['companies', 'create', '--name', 'Guest House Ltd', '--json']);
  company = (JSON.parse(made.stdout) as { id: number }[])[0]?.id as number;
});
afterAll(async () => {
  await h.close();
  rmSync(scratch, { recursive: true, force: true });
});
beforeEach(() => h.sandbox.reset());

const invitePath = (id: number) => `/v2/agency/companies/${id}/invite_guest`;
const invitations = (): SentRequest[] => sent(h.sandbox).filter((q) => q.path === invitePath(company));
const guestsOf = async (id: number) => {
  const r = await h.run(['companies', 'users', String(id), '--role', 'guest', '--json']);
  return JSON.parse(r.stdout) as { id: number; email: string; name: string; guest_permissions: string[] }[];
};

describe('guests invite', () => {
  it('reads the guests first, invites with the flags; a re-run re-invites the pending one, then nothing once accepted', async () => {
    const r = await h.run([
      'guests',
      'invite',
      String(company),
      '--email',
      'Ann@Client.example',
      '--name',
      'Ann Lee',
      '--mailboxes',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual(['ann@client.example\tinvited']);
    const requests = sent(h.sandbox);
    expect(requests.map((q) => [q.method, q.path, q.query.role])).toEqual([
      ['GET', `/v2/agency/companies/${company}/users`, undefined],
      ['POST', invitePath(company), undefined],
    ]);
    expect(requests[1]?.body).toEqual({
      guests: [{ email: 'ann@client.example', name: 'Ann Lee', guest_permissions: ['mailboxes'] }],
    });

    // Pending: not visible, so invited again (the service repeats the original; nothing is duplicated).
    h.sandbox.reset();
    const pending = await h.run(['guests', 'invite', String(company), '--email', 'ann@client.example']);
    expect(lines(pending.stdout)).toEqual(['ann@client.example\tinvited']);
    expect(invitations()).toHaveLength(1);
    // The operator is told that the client got the invitation again (new-user finding 17).
    expect(pending.stderr).toContain(
      `Company ${company}: invited 1 (sent again to anyone whose invitation was still pending: the API cannot list those).`,
    );

    acceptInvitations(h.sandbox.store, { companyId: company });
    h.sandbox.reset();
    const again = await h.run([
      'guests',
      'invite',
      String(company),
      '--email',
      'ann@client.example',
      '--json',
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual([{ email: 'ann@client.example', result: 'already-guest' }]);
    expect(invitations()).toEqual([]);
    const guests = await guestsOf(company);
    expect(guests.filter((g) => g.email === 'ann@client.example')).toEqual([
      expect.objectContaining({ name: 'Ann Lee', guest_permissions: ['mailboxes'] }),
    ]);
  });

  it('an address that is already a user of the company (not a guest) is already-user with its roles: nothing sent for it, exit 0', async () => {
    const users = JSON.parse((await h.run(['companies', 'users', '1001', '--json'])).stdout) as {
      email: string;
      roles: string[];
    }[];
    const member = users.find((u) => !u.roles.includes('guest'));
    const guest = users.find((u) => u.roles.includes('guest'));
    if (!member || !guest) throw new Error('the seeded company 1001 has a member and a guest');
    h.sandbox.reset();
    const args = ['guests', 'invite', '1001', '--email', member.email.toUpperCase(), '--email', guest.email];
    const r = await h.run([...args, '--email', 'new.guest@acme-client.example']);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([
      `${member.email}\talready-user`,
      `${guest.email}\talready-guest`,
      'new.guest@acme-client.example\tinvited',
    ]);
    const posts = sent(h.sandbox).filter((q) => q.method === 'POST');
    expect(posts.map((q) => q.body)).toEqual([
      { guests: [{ email: 'new.guest@acme-client.example', guest_permissions: [] }] },
    ]);
    expect(r.stderr).toContain(
      `1 already a guest; 1 already a user, not invited as a guest (${member.email}: ${member.roles.join(', ')}).`,
    );

    const json = await h.run([...args, '--json', '--dry-run']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([
      { email: member.email, result: 'already-user', roles: member.roles },
      { email: guest.email, result: 'already-guest' },
    ]);
  });

  it('an address at an internationalised domain is invited at its ASCII form, said on stderr', async () => {
    const file = join(scratch, 'idn.csv');
    writeFileSync(file, 'email,name,permissions\nbob@bücher.example,Bob,\n');
    const r = await h.run(['guests', 'invite', String(company), '--file', file, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual(['bob@xn--bcher-kva.example\twould-invite']);
    expect(r.stderr).toContain(
      `bob@bücher.example (${file} line 2) is sent in its ASCII form, bob@xn--bcher-kva.example.`,
    );
    const sentOne = await h.run(['guests', 'invite', String(company), '--email', 'Anna@Bücher.example']);
    expect(sentOne.code, sentOne.stderr).toBe(0);
    expect(sentOne.stderr).toContain('anna@bücher.example (--email #1) is sent in its ASCII form');
    expect(invitations().map((q) => q.body)).toEqual([
      { guests: [{ email: 'anna@xn--bcher-kva.example', guest_permissions: [] }] },
    ]);
  });

  it('--file CSV: 23 guests go in invitations of 10, 10 and 3, each with its permissions', async () => {
    const rows = Array.from(
      { length: 23 },
      (_, i) => `g${i}@csv.example,"Guest, No. ${i}",${i % 2 ? 'mailboxes' : ''}`,
    );
    const file = join(scratch, 'guests.csv');
    writeFileSync(file, `email,name,permissions\r\n${rows.join('\r\n')}\r\n`);
    const r = await h.run(['guests', 'invite', String(company), '--file', file]);
    expect(r.code, r.stderr).toBe(0);
    const posts = invitations();
    expect(posts.map((q) => (q.body as { guests: unknown[] }).guests.length)).toEqual([10, 10, 3]);
    const all = posts.flatMap(
      (q) => (q.body as { guests: { email: string; name: string; guest_permissions: string[] }[] }).guests,
    );
    expect(all[1]).toEqual({
      email: 'g1@csv.example',
      name: 'Guest, No. 1',
      guest_permissions: ['mailboxes'],
    });
    expect(all[2]).toEqual({ email: 'g2@csv.example', name: 'Guest, No. 2', guest_permissions: [] });
    expect(lines(r.stdout)).toHaveLength(23);
    expect(r.stderr).toContain(`Company ${company}: invited 23 (sent again to anyone whose`);
  });

  it('a lost answer: the rows say the outcome is unknown and that running it again is safe, never "invited 0"', async () => {
    const file = join(scratch, 'lost.csv');
    const emails = Array.from({ length: 10 }, (_, i) => `lost${i}@answers.example`);
    writeFileSync(file, `email,name,permissions\n${emails.map((e) => `${e},,`).join('\n')}\n`);
    // The service takes the invitations, then the connection drops before its answer.
    h.sandbox.addFault({ method: 'POST', path: invitePath(company), kind: 'reset-after' });
    const r = await h.run(['guests', 'invite', String(company), '--file', file]);
    expect(r.code).toBe(1);
    const rows = lines(r.stdout).map((line) => line.split('\t'));
    expect(rows.map((row) => row.slice(0, 2))).toEqual(emails.map((e) => [e, 'unknown']));
    expect(rows[0]?.[2]).toContain('running the same command again is safe');
    expect(r.stderr).not.toContain('invited 0');
    expect(r.stderr).not.toContain('not invited');
    expect(r.stderr).toContain('10 unknown (the answer was lost; running the same command again is safe)');
    expect(r.stderr).toContain('whether the 10 invitations were sent is unknown');
    expect(invitations()).toHaveLength(1); // never sent twice by the tool itself

    // Running it again is safe: the same invitations are sent once more, invited.
    h.sandbox.reset();
    const again = await h.run(['guests', 'invite', String(company), '--file', file]);
    expect(again.code, again.stderr).toBe(0);
    expect(lines(again.stdout)).toEqual(emails.map((e) => `${e}\tinvited`));
  });

  it('--dry-run sends no invitation', async () => {
    const r = await h.run(['guests', 'invite', String(company), '--email', 'dry@run.example', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual(['dry@run.example\twould-invite']);
    expect(sent(h.sandbox).every((q) => q.method === 'GET')).toBe(true);
  });

  it('bad addresses, a bad CSV, or one address twice: exit 2 naming them, nothing sent', async () => {
    const bad = await h.run([
      'guests',
      'invite',
      String(company),
      '--email',
      'ok@fine.example',
      '--email',
      'nope',
    ]);
    expectUsageError(bad, h.sandbox, /"nope" \(--email #2\) is not an e-mail address/);
    const file = join(scratch, 'bad.csv');
    writeFileSync(file, 'email,name,permissions\nx@y.example,X,prospects\n');
    expectUsageError(
      await h.run(['guests', 'invite', String(company), '--file', file]),
      h.sandbox,
      /line 2: permissions must be mailboxes or empty/,
    );
    writeFileSync(file, 'mail,name\nx@y.example,X\n');
    expectUsageError(await h.run(['guests', 'invite', String(company), '--file', file]), h.sandbox, /header/);
    expectUsageError(
      await h.run(['guests', 'invite', String(company), '--email', 'a@b.example', '--email', 'A@b.example']),
      h.sandbox,
      /a@b.example is given twice/,
    );
    expectUsageError(await h.run(['guests', 'invite', String(company)]), h.sandbox, /--email/);
  });
});

describe('guests permissions', () => {
  it('resolves emails among the guests, sends one PUT for those that differ; a re-run sends nothing', async () => {
    await h.run([
      'guests',
      'invite',
      String(company),
      '--email',
      'p1@perm.example',
      '--email',
      'p2@perm.example',
    ]);
    acceptInvitations(h.sandbox.store, { companyId: company });
    const ids = (await guestsOf(company)).filter((g) => g.email.endsWith('@perm.example')).map((g) => g.id);
    h.sandbox.reset();
    const r = await h.run([
      'guests',
      'permissions',
      String(company),
      '--guest',
      'P1@perm.example',
      '--guest',
      String(ids[1]),
      '--mailboxes',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([
      `${ids[0]}\tp1@perm.example\tmailboxes\tset`,
      `${ids[1]}\tp2@perm.example\tmailboxes\tset`,
    ]);
    const puts = sent(h.sandbox).filter((q) => q.method === 'PUT');
    expect(puts.map((q) => [q.path, q.body, q.status])).toEqual([
      [
        `/v2/agency/companies/${company}/guests/permissions`,
        { guests: ids.map((id) => ({ id, permissions: ['mailboxes'] })) },
        200,
      ],
    ]);
    expect(
      (await guestsOf(company)).filter((g) => ids.includes(g.id)).map((g) => g.guest_permissions),
    ).toEqual([['mailboxes'], ['mailboxes']]);

    h.sandbox.reset();
    const again = await h.run([
      'guests',
      'permissions',
      String(company),
      '--guest',
      'p1@perm.example',
      '--mailboxes',
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(lines(again.stdout)).toEqual([`${ids[0]}\tp1@perm.example\tmailboxes\tunchanged`]);
    // One guest is "1 guest", never "1 guests".
    expect(again.stderr).toContain(`Set mailboxes for 0 of 1 guest of company ${company}.`);
    expect(sent(h.sandbox).filter((q) => q.method === 'PUT')).toEqual([]);

    const none = await h.run([
      'guests',
      'permissions',
      String(company),
      '--guest',
      'p1@perm.example',
      '--none',
    ]);
    expect(lines(none.stdout)).toEqual([`${ids[0]}\tp1@perm.example\t\tset`]);
  });

  it('an unknown guest (or one still pending) is exit 4 with no PUT', async () => {
    await h.run(['guests', 'invite', String(company), '--email', 'pending@perm.example']);
    h.sandbox.reset();
    const r = await h.run([
      'guests',
      'permissions',
      String(company),
      '--guest',
      'pending@perm.example',
      '--none',
    ]);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('No guest "pending@perm.example"');
    expect(sent(h.sandbox).filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('an address at an internationalised domain is found in its ASCII form, said on stderr', async () => {
    await h.run(['guests', 'invite', String(company), '--email', 'perm@xn--bcher-kva.example']);
    acceptInvitations(h.sandbox.store, { companyId: company });
    h.sandbox.reset();
    const r = await h.run([
      'guests',
      'permissions',
      String(company),
      '--guest',
      'perm@bücher.example',
      '--none',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('perm@xn--bcher-kva.example');
    expect(r.stderr).toContain(
      'perm@bücher.example (--guest #1) is sent in its ASCII form, perm@xn--bcher-kva.example.',
    );
  });

  it('bad input is exit 2 with nothing sent', async () => {
    expectUsageError(
      await h.run(['guests', 'permissions', String(company), '--guest', 'x@y.example']),
      h.sandbox,
      /--mailboxes or --none/,
    );
    expectUsageError(
      await h.run(['guests', 'permissions', String(company), '--guest', 'not-an-address', '--none']),
      h.sandbox,
      /not an e-mail address/,
    );
    expectUsageError(
      await h.run([
        'guests',
        'permissions',
        String(company),
        '--guest',
        'x@y.example',
        '--none',
        '--mailboxes',
      ]),
      h.sandbox,
    );
  });
});
