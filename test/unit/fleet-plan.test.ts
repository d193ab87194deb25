import { describe, expect, it } from 'vitest';
import { ApiError, ExitCode, NetworkError } from '../../src/errors.js';
import { type ApplyPorts, applyPlan, describeApplied, keysOutLine } from '../../src/fleet/apply.js';
import { sharedExitCode } from '../../src/fleet/failures.js';
import { makePlan, planChanges, planJson } from '../../src/fleet/plan.js';
import { parsePlanFile } from '../../src/fleet/plan-file.js';
import { describeBlocked, describeChange, planLines, planSummary } from '../../src/fleet/plan-lines.js';
import { CompanyDirectory } from '../../src/fleet/resolve.js';
import { render } from '../../src/terms.js';
import { FakeAgency } from './fleet-fake.js';

const HOOK = 'https://crm.example.com/hooks/woodpecker';

const FILE = `
defaults:
  keys: [zapier]
  webhooks:
    - { event: prospect_replied, url: ${HOOK} }
companies:
  - name: Acme Ltd
    keys: [reporting]
  - Blue Harbor Dental
  - Old Client
`;

function world() {
  const a = new FakeAgency();
  const acme = a.addCompany('Acme Ltd'); // 1001, has "zapier"
  a.keys.get(acme.id)?.push({ api_key: 'k-acme', label: 'zapier' });
  a.addCompany('Old Client', false); // 1002
  a.addCompany('Unmentioned Co'); // 1003
  return a;
}

const plan = (a: FakeAgency, text = FILE, allowSimilar = false) =>
  makePlan(
    parsePlanFile(text, 'agency.yaml'),
    new CompanyDirectory(a),
    { keys: a, webhooks: a, guests: a },
    { concurrency: 4, allowSimilar },
  );

/** Creation in chunks of 10, as bulk creation does it; every failure is a named row. */
function ports(a: FakeAgency): ApplyPorts {
  return {
    keys: a,
    webhooks: a,
    guests: a,
    async createCompanies(names) {
      const created = [];
      const failed = [];
      for (let i = 0; i < names.length; i += 10) {
        const chunk = names.slice(i, i + 10);
        try {
          created.push(...(await a.createCompanies(chunk)));
        } catch (error) {
          failed.push(...names.slice(i).map((name) => ({ name, error: error as ApiError })));
          break;
        }
      }
      return { created, failed };
    },
  };
}

describe('plan', () => {
  it('reads only, and lists the changes, what is in place, what is blocked and what is unmentioned', async () => {
    const a = world();
    const p = await plan(a);
    expect(a.posts()).toEqual([]);
    expect(planChanges(p).map(describeChange)).toEqual([
      '+ company "Blue Harbor Dental"',
      '+ key "reporting" for "Acme Ltd"',
      '+ key "zapier" for "Blue Harbor Dental"',
      '+ key "zapier" for "Old Client"',
      `+ webhook PROSPECT_REPLIED → ${HOOK} for "Acme Ltd"`,
      `+ webhook PROSPECT_REPLIED → ${HOOK} for "Blue Harbor Dental"`,
    ]);
    expect(p.blocked.map(describeBlocked)).toEqual([
      '! "Old Client" (id 1002) is inactive: webhooks cannot be read or changed',
    ]);
    // In place: Acme and Old Client exist, Acme's "zapier" key exists.
    expect(planJson(p)).toMatchObject({ unchanged: 3, unmentioned: 1 });
    expect(planJson(p).changes[1]).toEqual({
      type: 'key',
      company: 'Acme Ltd',
      company_id: 1001,
      label: 'reporting',
    });
    expect(planSummary(p)).toMatch(
      /^Plan: 6 to add \(1 company, 3 keys, 2 webhooks\); 3 in place; 1 blocked; 1 company/,
    );
    // Reads: one listing, keys of the existing companies, webhooks of the active one only (x-company-id).
    expect(a.calls.filter((c) => c.op === 'listCompanies')).toHaveLength(1);
    expect(a.calls.filter((c) => c.op === 'webhooks')).toEqual([{ op: 'webhooks', company: 1001 }]);
  });

  it('a near-miss name is never a match: a "!" line naming the existing company, no change', async () => {
    const a = world();
    const p = await plan(a, 'companies:\n  - name: acme ltd\n    keys: [zapier]\n');
    expect(planChanges(p)).toEqual([]);
    expect(planLines(p).map((line) => render(line))).toEqual([
      '! "acme ltd" looks like "Acme Ltd" (id 1001): not created (a company cannot be renamed or deleted); use the exact name, or --allow-similar',
    ]);
    expect(planJson(p).similar).toEqual([{ name: 'acme ltd', looks_like: [{ id: 1001, name: 'Acme Ltd' }] }]);
    expect(planSummary(p)).toMatch(/^No changes\. 0 in place; 1 blocked;/);
  });

  it('with allowSimilar a near-miss name is a new company, with a warning', async () => {
    const a = world();
    const p = await plan(a, 'companies: [acme ltd]\n', true);
    expect(planChanges(p)).toEqual([{ type: 'company', name: 'acme ltd' }]);
    expect(p.similar).toEqual([]);
    expect(p.warnings.join('\n')).toContain('looks like "Acme Ltd" (id 1001)');
  });

  it('the plan of an applied file is empty, and a second apply sends no POST', async () => {
    const a = world();
    const first = await applyPlan(await plan(a), ports(a), { concurrency: 4 });
    expect(first.failures.map((f) => f.exitCode)).toEqual([]);
    a.calls = [];
    const second = await plan(a);
    expect(planChanges(second)).toEqual([]);
    expect(planSummary(second)).toMatch(/^No changes\. 9 in place; 1 blocked; 1 company of the agency/); // Old Client stays blocked
    const again = await applyPlan(second, ports(a), { concurrency: 4 });
    expect(again.applied).toEqual([]);
    expect(a.posts()).toEqual([]);
    expect(planSummary(await plan(a, 'companies: [Acme Ltd]\n'))).toMatch(/^No changes\./);
  });
});

describe('apply', () => {
  it('creates companies, then keys (HQ), then webhooks (x-company-id), reporting every key', async () => {
    const a = world();
    const seen: string[] = [];
    const out = await applyPlan(await plan(a), ports(a), {
      concurrency: 4,
      onChange: (c) => {
        seen.push(describeApplied(c));
      },
    });
    expect(a.posts()).toEqual([
      { op: 'createCompanies', names: ['Blue Harbor Dental'] },
      { op: 'createKey', company: 1001, label: 'reporting' },
      { op: 'createKey', company: 1004, label: 'zapier' },
      { op: 'createKey', company: 1002, label: 'zapier' },
      { op: 'subscribe', company: 1001, event: 'prospect_replied', url: HOOK },
      { op: 'subscribe', company: 1004, event: 'prospect_replied', url: HOOK },
    ]);
    expect(seen[0]).toBe('+ company "Blue Harbor Dental" (id 1004)');
    expect(seen[1]).toBe('+ key "reporting" for "Acme Ltd": key-1');
    const key = out.applied.find((x) => x.type === 'key');
    expect(key && key.type === 'key' && keysOutLine(key)).toBe('1001\tAcme Ltd\treporting\tkey-1\n');
  });

  it('creates new companies in chunks of 10 in file order', async () => {
    const a = new FakeAgency();
    const names = Array.from({ length: 23 }, (_, i) => `Client ${String(i).padStart(2, '0')}`);
    await applyPlan(await plan(a, `companies:\n${names.map((n) => `  - ${n}\n`).join('')}`), ports(a), {
      concurrency: 4,
    });
    const creates = a.posts().map((c) => (c.op === 'createCompanies' ? c.names : []));
    expect(creates.map((c) => c.length)).toEqual([10, 10, 3]);
    expect(creates.flat()).toEqual(names);
  });

  it('a company that failed gets none of its keys or webhooks; the rest goes on', async () => {
    const a = world();
    a.faults.push({
      when: (c) => c.op === 'createCompanies',
      error: () => new ApiError('duplicate', { status: 400 }),
    });
    const out = await applyPlan(await plan(a), ports(a), { concurrency: 4 });
    const posts = a.posts();
    expect(posts.some((c) => 'company' in c && c.company === 1004)).toBe(false);
    expect(out.applied.filter((x) => x.result === 'skipped').map((x) => x.type)).toEqual(['key', 'webhook']);
    expect(out.applied.filter((x) => x.result === 'created' || x.result === 'subscribed')).toHaveLength(3);
    expect(sharedExitCode(out.failures.map((f) => f.exitCode))).toBe(ExitCode.failure);
  });

  it('goes on past a failed key and a failed webhook, with the shared exit code', async () => {
    const a = world();
    a.faults.push({
      when: (c) => c.op === 'createKey' && c.company === 1001,
      error: () => new ApiError('conflict', { status: 409 }),
    });
    a.faults.push({
      when: (c) => c.op === 'subscribe' && c.company === 1001,
      error: () => new ApiError('conflict', { status: 409 }),
    });
    const out = await applyPlan(await plan(a), ports(a), { concurrency: 4 });
    expect(out.applied.filter((x) => x.result === 'failed')).toHaveLength(2);
    expect(out.applied.filter((x) => x.result !== 'failed')).toHaveLength(4);
    expect(sharedExitCode(out.failures.map((f) => f.exitCode))).toBe(ExitCode.conflict);
  });

  it('an interrupted apply resumed by a second one creates nothing twice', async () => {
    const a = world();
    const controller = new AbortController();
    // The run is interrupted right after the first key arrives.
    const first = await applyPlan(await plan(a), ports(a), {
      concurrency: 4,
      signal: controller.signal,
      onChange: (c) => {
        if (c.type === 'key') controller.abort();
      },
    });
    expect(first.interrupted).toBe(true);
    const firstPosts = a.posts().length;
    expect(firstPosts).toBe(2);
    await applyPlan(await plan(a), ports(a), { concurrency: 4 });
    const all = a.posts();
    const keyed = all
      .filter((c) => c.op === 'createKey')
      .map((c) => c.op === 'createKey' && `${c.company} ${c.label}`);
    expect(new Set(keyed).size).toBe(keyed.length);
    expect(all.filter((c) => c.op === 'createCompanies')).toHaveLength(1);
    expect(planChanges(await plan(a))).toEqual([]);
  });

  it('a network failure on one account fails its rows only', async () => {
    const a = world();
    a.faults.push({
      when: (c) => c.op === 'subscribe' && c.company === 1004,
      error: () => new NetworkError('reset'),
    });
    const out = await applyPlan(await plan(a), ports(a), { concurrency: 4 });
    expect(out.applied.filter((x) => x.result === 'failed').map((x) => x.company_id)).toEqual([1004]);
    expect(sharedExitCode(out.failures.map((f) => f.exitCode))).toBe(ExitCode.failure);
  });
});
