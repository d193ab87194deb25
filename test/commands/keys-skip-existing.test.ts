/**
 * `keys create --skip-existing`: the keys your user created are read first; a company that has the
 * label gets no new key, and its existing key is printed as if created, so a re-run script still gets
 * it. Each user sees only their own keys, so another user's key with the label does not count.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CompanyRecord, UserRecord } from '../../src/sandbox/store.js';
import type { Harness } from '../helpers/cli.js';
import { activeCompany, hqContext, lines, owner, sent, startCoreHarness, teammate } from '../helpers/core.js';

const IN_PROCESS = { inProcess: true };
const keysPath = (id: number) => `/v2/agency/companies/${id}/api_keys`;

describe('keys create --skip-existing', () => {
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
    const first = await h.run(['keys', 'create', String(id), '--label', 'zapier', '--skip-existing']);
    expect(first.code, first.stderr).toBe(0);
    const key = first.stdout.trim();
    expect(key).toMatch(/\S{16,}/);
    expect(posts().map((q) => [q.path, q.body])).toEqual([[keysPath(id), { label: 'zapier' }]]);
    // The keys were read before the POST.
    expect(sent(h.sandbox)[0]?.method).toBe('GET');

    h.sandbox.reset();
    const again = await h.run(['keys', 'create', String(id), '--label', 'zapier', '--skip-existing']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(`${key}\n`);
    expect(again.stderr).toContain('already has your key "zapier"; printed it, created none.');
    expect(posts()).toEqual([]);
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

    const r = await h.run(['keys', 'create', ...ids.map(String), '--label', 'reporting', '--skip-existing']);
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
    const r = await h.run(['keys', 'create', String(shared.id), '--label', 'zapier', '--skip-existing']);
    expect(r.code, r.stderr).toBe(0);
    expect(posts()).toHaveLength(1);
    expect(h.sandbox.store.keysOf(shared.id, olivia.id).map((k) => k.key)).toContain(r.stdout.trim());
  });
});
