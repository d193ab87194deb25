/**
 * The rest of the agency surface the sandbox serves: users by role, guest invitations (the documented
 * repeat behaviour, 10 at most, all or none), guest permissions, the blacklist's DELETE and
 * email_filter, and the 4,100-character limit of a request URL.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { testDir } from '../helpers/temp-dir.js';
import { call, expectError, OLIVIA_ACTIVE } from './helpers.js';

const users = (sb: Sandbox, company: number, role?: string) =>
  call(sb, `/v2/agency/companies/${company}/users${role ? `?role=${role}` : ''}`);
const invite = (sb: Sandbox, company: number, guests: unknown[]) =>
  call(sb, `/v2/agency/companies/${company}/invite_guest`, { body: { guests } });

describe('users by role and guests', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ seed: { companies: 30 } });
  });
  afterAll(() => sb.close());
  beforeEach(() => sb.reset());

  it('role= keeps the users holding that role; an unknown role is 400', async () => {
    const all = (await users(sb, OLIVIA_ACTIVE)).body.content;
    for (const role of ['admin', 'owner', 'authorized_team_member', 'guest']) {
      const a = await users(sb, OLIVIA_ACTIVE, role);
      expect(a.status).toBe(200);
      expect(a.body.content).toEqual(all.filter((u: { roles: string[] }) => u.roles.includes(role)));
      expect(a.body.pagination_data.total_elements).toBe(a.body.content.length);
    }
    expectError(await users(sb, OLIVIA_ACTIVE, 'superuser'), 400, /role must be one of/);
  });

  it('guests carry guest_permissions [] or ["mailboxes"]; others null', async () => {
    const all = (await users(sb, OLIVIA_ACTIVE)).body.content;
    for (const u of all) {
      if (u.roles.includes('guest')) expect([[], ['mailboxes']]).toContainEqual(u.guest_permissions);
      else expect(u.guest_permissions).toBeNull();
    }
  });

  it('an invitation is pending (not a user) until accepted; repeats give the original back', async () => {
    const first = await invite(sb, OLIVIA_ACTIVE, [
      { name: 'Ann Client', email: 'Ann@Client.example', guest_permissions: ['mailboxes'] },
    ]);
    expect(first.status).toBe(201);
    const [sent] = first.body.guests;
    expect(sent).toMatchObject({ email: 'ann@client.example', status: 'invited' });
    const emails = async () =>
      (await users(sb, OLIVIA_ACTIVE, 'guest')).body.content.map((u: { email: string }) => u.email);
    expect(await emails()).not.toContain('ann@client.example');

    // Pending: the original invitation again; the new name and permissions are ignored.
    const again = await invite(sb, OLIVIA_ACTIVE, [
      { name: 'Other Name', email: 'ann@client.example', guest_permissions: [] },
    ]);
    expect(again.status).toBe(201);
    expect(again.body.guests).toEqual([{ id: sent.id, email: 'ann@client.example', status: 'pending' }]);

    const accepted = await call(sb, '/_sandbox/guests/accept', {
      body: { company_id: OLIVIA_ACTIVE, email: 'ann@client.example' },
    });
    expect(accepted.body).toEqual({ accepted: 1 });
    const guests = (await users(sb, OLIVIA_ACTIVE, 'guest')).body.content;
    expect(guests).toContainEqual({
      id: sent.id,
      name: 'Ann Client',
      email: 'ann@client.example',
      roles: ['guest'],
      guest_permissions: ['mailboxes'],
    });

    // Accepted: the original id back, no error, nothing duplicated.
    const third = await invite(sb, OLIVIA_ACTIVE, [{ email: 'ann@client.example' }]);
    expect(third.status).toBe(201);
    expect(third.body.guests).toEqual([{ id: sent.id, email: 'ann@client.example', status: 'accepted' }]);
    expect((await emails()).filter((e: string) => e === 'ann@client.example')).toHaveLength(1);
    expect(sb.stats().guestInvitations).toBe(3);
  });

  it('at most 10 guests a request, and a bad item refuses the whole request', async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => ({
      email: `g${i}@many.example`,
      guest_permissions: [],
    }));
    expectError(await invite(sb, OLIVIA_ACTIVE, eleven), 400, /At most 10 guests/);
    expectError(
      await invite(sb, OLIVIA_ACTIVE, [{ email: 'ok@fine.example' }, { email: 'not-an-address' }]),
      400,
      /guests\[1\]\.email/,
    );
    expectError(
      await invite(sb, OLIVIA_ACTIVE, [{ email: 'ok@fine.example', guest_permissions: ['prospects'] }]),
      400,
    );
    await call(sb, '/_sandbox/guests/accept', { body: {} });
    const emails = (await users(sb, OLIVIA_ACTIVE, 'guest')).body.content.map(
      (u: { email: string }) => u.email,
    );
    expect(emails).not.toContain('ok@fine.example');
    expect(emails.filter((e: string) => e.endsWith('@many.example'))).toEqual([]);
    expect(sb.stats().guestInvitations).toBe(0);
    const ten = await invite(sb, OLIVIA_ACTIVE, eleven.slice(0, 10));
    expect(ten.status).toBe(201);
    expect(ten.body.guests).toHaveLength(10);
  });

  it('PUT guests/permissions: 200 with no body; an unknown id is 404 and nothing changes', async () => {
    await invite(sb, OLIVIA_ACTIVE, [{ email: 'perm@client.example', guest_permissions: [] }]);
    await call(sb, '/_sandbox/guests/accept', { body: { company_id: OLIVIA_ACTIVE } });
    const guest = (await users(sb, OLIVIA_ACTIVE, 'guest')).body.content.find(
      (u: { email: string }) => u.email === 'perm@client.example',
    );
    const path = `/v2/agency/companies/${OLIVIA_ACTIVE}/guests/permissions`;
    const put = await call(sb, path, {
      method: 'PUT',
      body: { guests: [{ id: guest.id, permissions: ['mailboxes'] }] },
    });
    expect([put.status, put.text]).toEqual([200, '']);
    const after = (await users(sb, OLIVIA_ACTIVE, 'guest')).body.content.find(
      (u: { id: number }) => u.id === guest.id,
    );
    expect(after.guest_permissions).toEqual(['mailboxes']);
    const bad = await call(sb, path, {
      method: 'PUT',
      body: {
        guests: [
          { id: guest.id, permissions: [] },
          { id: 42, permissions: [] },
        ],
      },
    });
    expectError(bad, 404, /Guest 42 not found/);
    const still = (await users(sb, OLIVIA_ACTIVE, 'guest')).body.content.find(
      (u: { id: number }) => u.id === guest.id,
    );
    expect(still.guest_permissions).toEqual(['mailboxes']);
  });
});

describe('blacklist DELETE and email_filter', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ seed: { companies: 3 } });
  });
  afterAll(() => sb.close());
  beforeEach(() => sb.reset());

  it('DELETE removes the listed values (200, no body); others are ignored', async () => {
    await call(sb, '/v2/agency/blacklist/domains', { body: { domains: ['gone.example', 'stays.example'] } });
    const del = await call(sb, '/v2/agency/blacklist/domains', {
      method: 'DELETE',
      body: { domains: ['Gone.example', 'never-listed.example'] },
    });
    expect([del.status, del.text]).toEqual([200, '']);
    expect(sb.stats().blacklistRemoved).toBe(1);
    const list = (await call(sb, '/v2/agency/blacklist/domains?per_page=1000')).body.domains;
    expect(list).toContain('stays.example');
    expect(list).not.toContain('gone.example');
    const tooMany = Array.from({ length: 501 }, (_, i) => `d${i}.example`);
    expectError(
      await call(sb, '/v2/agency/blacklist/domains', { method: 'DELETE', body: { domains: tooMany } }),
      400,
    );
  });

  it('email_filter answers only the listed values among those asked, total = found', async () => {
    const listed = (await call(sb, '/v2/agency/blacklist/emails?per_page=3')).body.emails;
    const a = await call(
      sb,
      `/v2/agency/blacklist/emails?email_filter=${listed[0]},nobody@nowhere.example,${listed[2].toUpperCase()}&per_page=1000`,
    );
    expect(a.body).toEqual({ emails: [listed[0], listed[2]], total: 2 });
  });

  it('a request URL longer than 4,100 characters is refused with 414', async () => {
    const prefix = `${sb.baseUrl}/v2/agency/blacklist/emails?email_filter=`;
    const fill = (n: number) => 'a'.repeat(n - prefix.length);
    const fits = await call(sb, `/v2/agency/blacklist/emails?email_filter=${fill(4100)}`);
    expect(fits.status).toBe(200);
    expect(sb.requests.at(-1)?.url).toHaveLength(4100);
    expectError(await call(sb, `/v2/agency/blacklist/emails?email_filter=${fill(4101)}`), 414);
  });
});

describe('guests in the state file', () => {
  it('a pending invitation stays pending across a restart; accepted and permissions too', async () => {
    const statePath = join(testDir('agency-guests-state-'), 'state.json');
    const first = await startSandbox({ statePath, seed: { companies: 3 } });
    await invite(first, OLIVIA_ACTIVE, [{ email: 'kept@state.example', guest_permissions: ['mailboxes'] }]);
    await invite(first, OLIVIA_ACTIVE, [{ email: 'later@state.example' }]);
    await call(first, '/_sandbox/guests/accept', { body: { email: 'kept@state.example' } });
    await first.close();

    const second = await startSandbox({ statePath });
    try {
      const guests = (await users(second, OLIVIA_ACTIVE, 'guest')).body.content;
      expect(guests.find((g: { email: string }) => g.email === 'kept@state.example')).toMatchObject({
        guest_permissions: ['mailboxes'],
      });
      expect(guests.map((g: { email: string }) => g.email)).not.toContain('later@state.example');
      const again = await invite(second, OLIVIA_ACTIVE, [{ email: 'later@state.example' }]);
      expect(again.body.guests[0].status).toBe('pending');
    } finally {
      await second.close();
    }
  });
});
