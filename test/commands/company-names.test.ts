/**
 * `<company>` accepts an exact company name wherever an id is accepted, resolved through one listing
 * per run; an unknown name exits 4 and suggests case/spacing variants; a bad id exits 2 before any
 * request.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../helpers/cli.js';

/** The program runs in this process (test/helpers/in-process.ts). */
const IN_PROCESS = { inProcess: true };

const ACME = '1001'; // "Acme Ltd"
const LIST = '/rest/v2/agency/companies';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seed: { companies: 60 } }, IN_PROCESS);
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => h.sandbox.reset());

const listings = () => h.requests().filter((r) => r.method === 'GET' && r.path === LIST);

describe('<company> by exact name', () => {
  const commands: [
    string[],
    (id: string) => (r: { path: string; headers: Record<string, string> }) => boolean,
  ][] = [
    [['keys', 'list', 'Acme Ltd'], (id) => (r) => r.path === `${LIST}/${id}/api_keys`],
    [['companies', 'email-accounts', 'Acme Ltd'], (id) => (r) => r.path === `${LIST}/${id}/email_accounts`],
    [
      ['me', '--company', 'Acme Ltd'],
      (id) => (r) => r.path === '/rest/v1/me' && r.headers['x-company-id'] === id,
    ],
    [
      ['mailboxes', '--company', 'Acme Ltd'],
      (id) => (r) => r.path === '/rest/v2/mailboxes' && r.headers['x-company-id'] === id,
    ],
    [
      ['webhooks', '--company', 'Acme Ltd'],
      (id) => (r) => /\/webhooks$/.test(r.path) && r.headers['x-company-id'] === id,
    ],
    [
      ['api', '/v1/me', '--company', 'Acme Ltd'],
      (id) => (r) => r.path === '/rest/v1/me' && r.headers['x-company-id'] === id,
    ],
  ];

  for (const [args, matches] of commands) {
    it(`${args.join(' ')}: one listing (all pages), then the id`, async () => {
      const r = await h.run(args);
      expect(r.code, r.stderr).toBe(0);
      const pages = listings().map((q) => q.query.page);
      expect(pages).toEqual(['1', '2']);
      expect(h.requests().some(matches(ACME))).toBe(true);
      h.sandbox.reset();
      // The same command with the id reads no listing.
      const byId = await h.run(args.map((a) => (a === 'Acme Ltd' ? ACME : a)));
      expect(byId.code, byId.stderr).toBe(0);
      expect(listings()).toEqual([]);
      expect(byId.stdout).toBe(r.stdout);
    });
  }

  it('keys create takes a name; the key goes to that company', async () => {
    const r = await h.run(['keys', 'create', 'Acme Ltd', '--label', 'by-name'], { allowCanary: undefined });
    expect(r.code, r.stderr).toBe(0);
    const post = h.requests().find((q) => q.method === 'POST');
    expect(post?.path).toBe(`${LIST}/${ACME}/api_keys`);
  });

  it('an unknown name exits 4, suggests the case/spacing variant, and sends nothing else', async () => {
    const r = await h.run(['keys', 'create', 'acme  LTD', '--label', 'x']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('"acme  LTD"');
    expect(r.stderr).toContain('"Acme Ltd" (id 1001)');
    expect(r.stdout).toBe('');
    expect(h.requests().length, 'the company list is read').toBeGreaterThan(0);
    expect(h.requests().every((q) => q.method === 'GET' && q.path === LIST)).toBe(true);
  });

  it('a bad id exits 2 before any request', async () => {
    for (const args of [
      ['keys', 'list', '0'],
      ['me', '--company', '00'],
      ['companies', 'email-accounts', '99999999999999999999'],
    ]) {
      const r = await h.run(args);
      expect(r.code, args.join(' ')).toBe(2);
    }
    expect(h.requests()).toEqual([]);
  });
});

describe('one rule for which names exist (companies create)', () => {
  it('--dry-run and the real run agree: a case variant of an existing name is new, with a warning', async () => {
    const made = await h.run(['companies', 'create', '--name', 'Casefold Co']);
    expect(made.code, made.stderr).toBe(0);
    h.sandbox.reset();
    const dry = await h.run(['--json', 'companies', 'create', '--name', 'casefold  co', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ to_create: ['casefold  co'], existing: [] });
    expect(dry.stderr).toMatch(/looks like "Casefold Co" \(id \d+\)/);
    expect(h.requests().filter((q) => q.method === 'POST')).toEqual([]);
  });

  it('a small create with an existing name: the service refuses it, and the hint names --skip-existing', async () => {
    const r = await h.run(['companies', 'create', '--name', 'Acme Ltd', '--name', 'Brand New Client']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: .*"Acme Ltd" already exists/m);
    expect(r.stderr).toContain('hint: Use --skip-existing to create only the missing names.\n');
    // ≤ 10 names: no listing first; the one POST the service refused created nothing.
    expect(listings()).toEqual([]);
    expect(h.requests().filter((q) => q.method === 'POST')).toHaveLength(1);
    expect(h.sandbox.store.companies().some((c) => c.name === 'Brand New Client')).toBe(false);
  });

  it('--skip-existing reports the exact match’s id, never a case variant’s', async () => {
    for (const name of ['Twin Co', 'twin co']) {
      const r = await h.run(['companies', 'create', '--name', name]);
      expect(r.code, r.stderr).toBe(0);
    }
    const ids = new Map(h.sandbox.store.companies().map((c) => [c.name, c.id]));
    h.sandbox.reset();
    const r = await h.run(['--json', 'companies', 'create', '--name', 'twin co', '--dry-run']);
    expect(JSON.parse(r.stdout).existing).toEqual([{ name: 'twin co', id: ids.get('twin co') }]);
    const skip = await h.run(['companies', 'create', '--name', 'twin co', '--skip-existing']);
    expect(skip.code, skip.stderr).toBe(0);
    expect(skip.stderr).toContain(`\n  twin co (id ${ids.get('twin co')})\n`);
    expect(skip.stderr).not.toContain(`(id ${ids.get('Twin Co')})`);
    expect(h.requests().filter((q) => q.method === 'POST')).toEqual([]);
  });
});
