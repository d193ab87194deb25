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
    it(`${args.join(' ')}: one listing that stops at the page holding the name, then the id`, async () => {
      const r = await h.run(args);
      expect(r.code, r.stderr).toBe(0);
      // Acme Ltd is on the first of two pages: names are unique, so the second is never asked for.
      const pages = listings().map((q) => q.query.page);
      expect(pages).toEqual(['1']);
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
    // The whole list, once: the look-alike is found in the same reading.
    expect(listings().map((q) => q.query.page)).toEqual(['1', '2']);
    expect(h.requests().every((q) => q.method === 'GET' && q.path === LIST)).toBe(true);
  });

  it('a name on a later page: the listing reads to that page', async () => {
    const last = h.sandbox.store.companies(1, { active: true }).at(-1);
    if (!last) throw new Error('no seeded company');
    const r = await h.run(['keys', 'list', last.name]);
    expect(r.code, r.stderr).toBe(0);
    expect(listings().map((q) => q.query.page)).toEqual(['1', '2']);
    expect(h.requests().some((q) => q.path === `${LIST}/${last.id}/api_keys`)).toBe(true);
  });

  it('a bad id exits 2 before any request', async () => {
    for (const args of [
      ['keys', 'list', '0'],
      ['me', '--company', '00'],
      ['companies', 'email-accounts', '000'],
    ]) {
      const r = await h.run(args);
      expect(r.code, args.join(' ')).toBe(2);
    }
    expect(h.requests()).toEqual([]);
  });

  it('an id beyond 2^53 is sent exactly as given, never rounded to a neighbour', async () => {
    const big = '99999999999999999999';
    const r = await h.run(['companies', 'email-accounts', big]);
    expect(r.code).toBe(4); // no such company in the sandbox: its 404
    expect(h.requests().map((q) => q.path)).toEqual([`${LIST}/${big}/email_accounts`]);
    h.sandbox.reset();
    const me = await h.run(['me', '--company', '9007199254740993']);
    expect(me.code).not.toBe(2);
    expect(h.requests()[0]?.headers['x-company-id']).toBe('9007199254740993');
  });
});

describe('one rule for which names exist (companies create)', () => {
  const posts = () => h.requests().filter((q) => q.method === 'POST');

  it('a name that only looks like an existing one is refused whole: exit 5, the company named, nothing sent', async () => {
    const r = await h.run(['companies', 'create', '--name', 'Brand New Client', '--name', 'acme ltd']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error: "acme ltd" looks like "Acme Ltd" (id 1001); nothing was created.\n');
    expect(r.stderr).toContain('--allow-similar');
    // One listing (every page), no POST.
    expect(listings().map((q) => q.query.page)).toEqual(['1', '2']);
    expect(posts()).toEqual([]);
    const json = await h.run(['--json', 'companies', 'create', '--name', 'ACME  LTD']);
    expect(json.code).toBe(5);
    expect(JSON.parse(json.stderr.trim().split('\n').at(-1) as string).error.message).toContain(
      '"ACME  LTD" looks like "Acme Ltd" (id 1001)',
    );
  });

  it('--allow-similar creates it, with the warning naming the existing company', async () => {
    const r = await h.run(['companies', 'create', '--name', 'acme ltd', '--allow-similar']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('looks like "Acme Ltd" (id 1001)');
    expect(posts()).toHaveLength(1);
    expect(r.stdout).toMatch(/^\d+\tacme ltd\t.*\tcreated\n$/);
  });

  it('--dry-run and the real run agree: the dry run says the real run would be refused, and why', async () => {
    const seeded = h.sandbox.store.companies().find((c) => c.id === 1002);
    const variant = seeded?.name.toUpperCase() as string;
    const dry = await h.run(['--json', 'companies', 'create', '--name', variant, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toEqual({
      dry_run: true,
      refused: true,
      requests: 0,
      to_create: [variant],
      existing: [],
      lookalikes: [{ name: variant, looks_like: [{ id: 1002, name: seeded?.name }] }],
    });
    expect(dry.stderr).toContain('the real run would be refused: 1 name looks like an existing company');
    const allowed = await h.run(['companies', 'create', '--name', variant, '--dry-run', '--allow-similar']);
    expect(allowed.stdout).toBe(`similar\t${variant}\t\n`);
    expect(allowed.stderr).toContain('Dry run: would create 1 in 1 request');
    expect(posts()).toEqual([]);
  });

  it('a name that exists exits 5 (a conflict), found by the listing, nothing sent', async () => {
    const r = await h.run(['companies', 'create', '--name', 'Acme Ltd', '--name', 'Brand New Client']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('\n  Acme Ltd (id 1001)\n');
    expect(r.stderr).toContain('hint: Use --skip-existing to create only the missing names.\n');
    expect(posts()).toEqual([]);
    expect(h.sandbox.store.companies().some((c) => c.name === 'Brand New Client')).toBe(false);
  });

  it('--skip-existing prints the existing companies too (result exists): a re-run gets every id from stdout', async () => {
    const args = ['companies', 'create', '--name', 'Acme Ltd', '--name', 'Loop Client', '--skip-existing'];
    const first = await h.run([...args, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const loop = h.sandbox.store.companies().find((c) => c.name === 'Loop Client');
    const owner = JSON.parse(first.stdout)[1].owner;
    expect(JSON.parse(first.stdout)).toEqual([
      { id: 1001, name: 'Acme Ltd', owner: expect.any(String), active: true, result: 'exists' },
      { id: loop?.id, name: 'Loop Client', owner, active: true, result: 'created' },
    ]);
    expect(posts()).toHaveLength(1);
    h.sandbox.reset();
    const again = await h.run([...args, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).map((c: { id: number; result: string }) => [c.id, c.result])).toEqual([
      [1001, 'exists'],
      [loop?.id, 'exists'],
    ]);
    expect(posts()).toEqual([]);
    // Piped: the same rows, the result last.
    const piped = await h.run(args);
    expect(piped.stdout.split('\n').map((l) => [l.split('\t')[0], l.split('\t').at(-1)])).toEqual([
      ['1001', 'exists'],
      [String(loop?.id), 'exists'],
      ['', ''],
    ]);
  });

  it('--skip-existing reports the exact match’s id, never a case variant’s', async () => {
    for (const name of ['Twin Co', 'twin co']) {
      const r = await h.run(['companies', 'create', '--name', name, '--allow-similar']);
      expect(r.code, r.stderr).toBe(0);
    }
    const ids = new Map(h.sandbox.store.companies().map((c) => [c.name, c.id]));
    h.sandbox.reset();
    const r = await h.run(['--json', 'companies', 'create', '--name', 'twin co', '--dry-run']);
    expect(JSON.parse(r.stdout).existing).toEqual([{ name: 'twin co', id: ids.get('twin co') }]);
    const skip = await h.run(['companies', 'create', '--name', 'twin co', '--skip-existing']);
    expect(skip.code, skip.stderr).toBe(0);
    expect(skip.stderr).toContain(`\n  twin co (id ${ids.get('twin co')})\n`);
    expect(skip.stdout).toContain(`${ids.get('twin co')}\ttwin co\t`);
    expect(skip.stderr + skip.stdout).not.toContain(`${ids.get('Twin Co')}`);
    expect(posts()).toEqual([]);
  });
});
