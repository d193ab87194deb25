/**
 * `keys create` (and the same with --skip-existing, still accepted): the keys your user created are read
 * first; a company that has the label gets no new key, and its existing key is printed as if created,
 * so a re-run script (`KEY=$(agency keys create 1042 --label zapier)`) still gets it. --new mints another
 * (rotation). Each user sees only their own keys, so another user's key with the label does not count.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CompanyRecord, UserRecord } from '../../src/sandbox/store.js';
import type { Harness } from '../helpers/cli.js';
import { activeCompany, hqContext, lines, owner, sent, startCoreHarness, teammate } from '../helpers/core.js';

const IN_PROCESS = { inProcess: true };
const keysPath = (id: number) => `/v2/agency/companies/${id}/api_keys`;

describe('keys create reuses the key your user has with the label', () => {
  let h: Harness;
  let olivia: UserRecord;
  let companies: CompanyRecord[];
  beforeAll(async () => {
    h = await startCoreHarness({ seed: { companies: 20 } }, IN_PROCESS);
    olivia = owner(h.sandbox);
    const tom = teammate(h.sandbox);
    companies = h.sandbox.store.companies(olivia.agencyId, { active: true }).slice(0, 3);
    // Tom's key labelled "zapier" is invisible to Olivia: it does not count as hers.
    const shared = activeCompany(h.sandbox, tom.id);
    h.sandbox.store.createKey(hqContext(h.sandbox, tom), String(shared.id), { label: 'zapier' });
  });
  afterAll(() => h.close());
  beforeEach(() => h.sandbox.reset());

  const posts = () => sent(h.sandbox).filter((q) => q.method === 'POST');

  it('one company: creates the first time, prints the same key the second time, sends no POST', async () => {
    const id = (companies[0] as CompanyRecord).id;
    const first = await h.run(['keys', 'create', String(id), '--label', 'zapier']);
    expect(first.code, first.stderr).toBe(0);
    const key = first.stdout.trim();
    expect(key).toMatch(/\S{16,}/);
    expect(posts().map((q) => [q.path, q.body])).toEqual([[keysPath(id), { label: 'zapier' }]]);
    // The keys were read before the POST.
    expect(sent(h.sandbox)[0]?.method).toBe('GET');

    for (const extra of [[], ['--skip-existing']]) {
      h.sandbox.reset();
      const again = await h.run(['keys', 'create', String(id), '--label', 'zapier', ...extra]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toBe(`${key}\n`);
      expect(again.stderr).toContain(
        'already has your key "zapier"; printed it, created none (--new creates another).',
      );
      expect(posts()).toEqual([]);
    }
    expect(h.sandbox.store.keysOf(id, olivia.id).filter((k) => k.label === 'zapier')).toHaveLength(1);

    const json = await h.run([
      'keys',
      'create',
      String(id),
      '--label',
      'zapier',
      '--skip-existing',
      '--json',
    ]);
    expect(JSON.parse(json.stdout)).toEqual({
      company_id: id,
      label: 'zapier',
      api_key: key,
      result: 'exists',
    });
  });

  it('many companies: rows as if created, the existing ones reported as exists; a re-run creates none', async () => {
    const ids = companies.map((c) => c.id);
    const [a, b, c] = ids as [number, number, number];
    await h.run(['keys', 'create', String(b), '--label', 'reporting']);
    const existing = h.sandbox.store.keysOf(b, olivia.id).find((k) => k.label === 'reporting')?.key;
    h.sandbox.reset();

    const r = await h.run(['keys', 'create', ...ids.map(String), '--label', 'reporting']);
    expect(r.code, r.stderr).toBe(0);
    const rows = lines(r.stdout).map((line) => line.split('\t'));
    expect(rows.map((row) => row[0])).toEqual(ids.map(String));
    expect(rows[1]).toEqual([String(b), existing]);
    expect(posts().map((q) => q.path)).toEqual([keysPath(a), keysPath(c)]);
    expect(r.stderr).toContain('Created 2 keys labelled "reporting"; 1 existed (printed, not created).');

    h.sandbox.reset();
    const again = await h.run(
      ['keys', 'create', '--file', '-', '--label', 'reporting', '--skip-existing', '--json'],
      { input: ids.join('\n') },
    );
    expect(again.code, again.stderr).toBe(0);
    const keys = JSON.parse(again.stdout) as { company_id: number; api_key: string; result: string }[];
    expect(keys.map((k) => [k.company_id, k.result])).toEqual(ids.map((id) => [id, 'exists']));
    expect(keys.map((k) => [k.company_id, k.api_key])).toEqual(rows.map(([id, key]) => [Number(id), key]));
    expect(posts()).toEqual([]);
  });

  it("another user's key with the label does not count: Olivia gets her own", async () => {
    const tom = teammate(h.sandbox);
    const shared = activeCompany(h.sandbox, tom.id);
    const r = await h.run(['keys', 'create', String(shared.id), '--label', 'zapier']);
    expect(r.code, r.stderr).toBe(0);
    expect(posts()).toHaveLength(1);
    expect(h.sandbox.store.keysOf(shared.id, olivia.id).map((k) => k.key)).toContain(r.stdout.trim());
  });

  it('--new creates another key with the label (rotation), printed alone; the next plain run prints one of them', async () => {
    const id = (companies[2] as CompanyRecord).id;
    const first = await h.run(['keys', 'create', String(id), '--label', 'rotate']);
    h.sandbox.reset();
    const second = await h.run(['keys', 'create', String(id), '--label', 'rotate', '--new']);
    expect(second.code, second.stderr).toBe(0);
    const mine = h.sandbox.store.keysOf(id, olivia.id).filter((k) => k.label === 'rotate');
    expect(mine.map((k) => k.key)).toEqual([first.stdout.trim(), second.stdout.trim()]);
    expect(second.stderr).toContain(`Created key "rotate" for company ${id}.`);
    expect(posts()).toHaveLength(1);
    const json = await h.run(['keys', 'create', String(id), '--label', 'rotate', '--new', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ company_id: id, label: 'rotate', result: 'created' });
    expect(h.sandbox.store.keysOf(id, olivia.id).filter((k) => k.label === 'rotate')).toHaveLength(3);
  });

  it('--new with --skip-existing is a usage error: exit 2, nothing sent', async () => {
    const id = (companies[0] as CompanyRecord).id;
    const r = await h.run(['keys', 'create', String(id), '--label', 'x', '--new', '--skip-existing']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--new and --skip-existing');
    expect(sent(h.sandbox)).toEqual([]);
  });
});
