/**
 * `plan` and `apply` (the program in-process) against the sandbox: the plan reads only, apply sends
 * exactly what the plan shows (companies, then keys, then webhooks), writes every key to --keys-out,
 * refuses without --yes off a terminal, a second apply sends nothing, bad files name their line.
 * An apply killed or interrupted mid-way: test/e2e/apply-interrupted.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID, type RecordedRequest } from '../../src/sandbox/index.js';
import { type Harness, startHarness } from '../helpers/cli.js';
import { activeCompany, teammate } from '../helpers/core.js';

/** The program runs in this process (test/helpers/in-process.ts). */
const IN_PROCESS = { inProcess: true };

const HOOK = 'https://crm.example.com/hooks/woodpecker';
const COMPANIES = '/rest/v2/agency/companies';
const SUBSCRIBE = '/rest/v1/webhooks/subscribe';
// Seeded: 1001 "Acme Ltd" (active), 1007 "Blue Harbor Dental Ltd" (inactive).
const ACME = 1001;
const INACTIVE = 1007;

let h: Harness;
let scratch: string;
beforeAll(async () => {
  h = await startHarness({ seed: { companies: 12 } }, IN_PROCESS);
  scratch = mkdtempSync(join(tmpdir(), 'agency-plan-'));
});
afterAll(async () => {
  await h.close();
  rmSync(scratch, { recursive: true, force: true });
});
beforeEach(() => h.sandbox.reset());

let files = 0;
function file(text: string, ext = 'yaml'): string {
  const path = join(scratch, `agency-${++files}.${ext}`);
  writeFileSync(path, text);
  return path;
}

const posts = (): RecordedRequest[] => h.requests().filter((r) => r.method === 'POST');
const lines = (text: string) => text.split('\n').filter(Boolean);

/** The worked example: an existing company, a new one, and an inactive one. */
function example(newName: string, label = 'crm-sync'): string {
  return [
    'defaults:',
    `  keys: [${label}]`,
    '  webhooks:',
    `    - { event: prospect_replied, url: ${HOOK} }`,
    'companies:',
    '  - name: Acme Ltd',
    `    keys: [${label}-reporting]`,
    `  - ${newName}`,
    '  - Blue Harbor Dental Ltd',
    '',
  ].join('\n');
}

describe('plan', () => {
  it('reads only and prints the changes, the blocked company, and counts', async () => {
    const path = file(example('Plan Only Client'));
    const r = await h.run(['plan', '-f', path]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([
      '+ company "Plan Only Client"',
      '+ key "crm-sync" for "Acme Ltd"',
      '+ key "crm-sync-reporting" for "Acme Ltd"',
      '+ key "crm-sync" for "Plan Only Client"',
      '+ key "crm-sync" for "Blue Harbor Dental Ltd"',
      `+ webhook PROSPECT_REPLIED → ${HOOK} for "Acme Ltd"`,
      `+ webhook PROSPECT_REPLIED → ${HOOK} for "Plan Only Client"`,
      // The file lists webhooks for every company: the seeded ones it does not list are not its own.
      `? webhook PROSPECT_REPLIED → https://hooks.zapier.com/hooks/catch/${ACME}/prospect_replied/ for "Acme Ltd" is not in the file`,
      `? webhook CAMPAIGN_COMPLETED → https://crm.acmeltd.example/webhooks/woodpecker?event=campaign_completed for "Acme Ltd" is not in the file`,
      `! "Blue Harbor Dental Ltd" (id ${INACTIVE}) is inactive: webhooks cannot be read or changed`,
    ]);
    expect(posts()).toEqual([]);
    // Webhooks were read only for the active existing company, through its own account.
    const hookReads = h.requests().filter((q) => /\/webhooks$/.test(q.path));
    expect(hookReads.map((q) => q.headers['x-company-id'])).toEqual([String(ACME)]);

    const json = await h.run(['--json', 'plan', '-f', path]);
    expect(json.code, json.stderr).toBe(0);
    const parsed = JSON.parse(json.stdout);
    expect(Object.keys(parsed).sort()).toEqual([
      'blocked',
      'changes',
      'similar',
      'unchanged',
      'unmanaged',
      'unmentioned',
    ]);
    expect(parsed.unmanaged).toHaveLength(2);
    expect(parsed.changes).toHaveLength(7);
    expect(parsed.unchanged).toBe(2); // Acme Ltd and Blue Harbor Dental Ltd exist
    expect(parsed.unmentioned).toBe(10);
    expect(parsed.blocked).toEqual([
      {
        company: 'Blue Harbor Dental Ltd',
        company_id: INACTIVE,
        reason: 'is inactive: webhooks cannot be read or changed',
      },
    ]);

    const drift = await h.run(['plan', '-f', path, '--exit-code']);
    expect(drift.code).toBe(6);
    expect(drift.stdout).toBe(r.stdout);
  });

  it('a near-miss name is never a match: plan shows a "!" line naming the company; apply refuses the file (exit 5, nothing sent)', async () => {
    const path = file('companies:\n  - Brand New Plan Co\n  - name: acme ltd\n    keys: [zapier]\n');
    const r = await h.run(['plan', '-f', path]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([
      '+ company "Brand New Plan Co"',
      '! "acme ltd" looks like "Acme Ltd" (id 1001): not created (a company cannot be renamed or deleted); use the exact name, or --allow-similar',
    ]);
    const json = await h.run(['plan', '-f', path, '--json']);
    expect(JSON.parse(json.stdout).similar).toEqual([
      { name: 'acme ltd', looks_like: [{ id: ACME, name: 'Acme Ltd' }] },
    ]);
    h.sandbox.reset();
    const refused = await h.run(['apply', '-f', path, '--yes']);
    expect(refused.code).toBe(5);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      'error: "acme ltd" looks like "Acme Ltd" (id 1001); nothing was created.',
    );
    expect(refused.stderr).toContain('--allow-similar');
    expect(h.requests().filter((q) => q.method !== 'GET')).toEqual([]);
    // With --allow-similar the plan has it as a new company, with a warning.
    const allowed = await h.run(['plan', '-f', path, '--allow-similar']);
    expect(lines(allowed.stdout)).toEqual([
      '+ company "Brand New Plan Co"',
      '+ company "acme ltd"',
      '+ key "zapier" for "acme ltd"',
    ]);
    expect(allowed.stderr).toContain('looks like "Acme Ltd" (id 1001)');
  });

  it('reads a file from stdin, and JSON as well as YAML', async () => {
    const r = await h.run(['plan', '-f', '-'], { input: JSON.stringify({ companies: ['Acme Ltd'] }) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/No changes/);
  });

  it('bad files are usage errors naming the line, and nothing is sent', async () => {
    const cases: [string, RegExp][] = [
      ['companies:\n  - name: A\n    label: x\n', /line 3.*unknown field "label"/],
      ['companies:\n  - Acme\n  - 2024\n', /line 3.*as text/],
      ['companies:\n  - Same Name\n  - same  name\n', /Duplicate company name.*line 2.*line 3/],
      [
        'companies:\n  - name: A\n    webhooks:\n      - {event: prospect_replied, url: "ftp://x"}\n',
        /line 4/,
      ],
      [
        'companies:\n  - name: A\n    webhooks:\n      - {event: "bad event", url: "https://x.example"}\n',
        /line 4/,
      ],
      ['companies: [A\n', /line \d/],
    ];
    for (const [text, message] of cases) {
      for (const command of ['plan', 'apply']) {
        const r = await h.run([command, '-f', file(text), ...(command === 'apply' ? ['--yes'] : [])]);
        expect(r.code, `${command}: ${text}\n${r.stderr}`).toBe(2);
        expect(r.stderr).toMatch(message);
        expect(r.stdout).toBe('');
      }
    }
    expect(h.requests()).toEqual([]);
    const missing = await h.run(['plan', '-f', join(scratch, 'nope.yaml')]);
    expect(missing.code).toBe(2);
  });
});

describe('apply', () => {
  it('creates companies, then keys, then webhooks; keys to stdout and --keys-out; a second apply sends nothing', async () => {
    const path = file(example('Applied Client', 'sync'));
    const keysOut = join(scratch, 'keys.tsv');
    const r = await h.run(['apply', '-f', path, '--yes', '--keys-out', keysOut], { allowCanary: undefined });
    expect(r.code, r.stderr).toBe(0);

    const sent = posts();
    expect(sent.map((p) => p.path.replace(/\/\d+\//, '/N/'))).toEqual([
      COMPANIES,
      `${COMPANIES}/N/api_keys`,
      `${COMPANIES}/N/api_keys`,
      `${COMPANIES}/N/api_keys`,
      `${COMPANIES}/N/api_keys`,
      SUBSCRIBE,
      SUBSCRIBE,
    ]);
    expect(sent[0]?.body).toEqual({ companies: [{ name: 'Applied Client' }] });
    const created = h.sandbox.store.companies(MAIN_AGENCY_ID).find((c) => c.name === 'Applied Client');
    expect(created).toBeDefined();
    const newId = String(created?.id);
    expect(sent.slice(1, 5).map((p) => [p.path.split('/')[5], p.body])).toEqual([
      [String(ACME), { label: 'sync' }],
      [String(ACME), { label: 'sync-reporting' }],
      [newId, { label: 'sync' }],
      [String(INACTIVE), { label: 'sync' }],
    ]);
    // Agency endpoints never carry x-company-id; webhooks go to each client account through it.
    expect(sent.slice(0, 5).every((p) => p.headers['x-company-id'] === undefined)).toBe(true);
    // Client accounts are worked on side by side: compare without their order.
    const hooks = sent.slice(5).map((p) => JSON.stringify([p.headers['x-company-id'], p.body]));
    expect(hooks.sort()).toEqual(
      [
        [String(ACME), { target_url: HOOK, event: 'prospect_replied' }],
        [newId, { target_url: HOOK, event: 'prospect_replied' }],
      ]
        .map((x) => JSON.stringify(x))
        .sort(),
    );

    const out = lines(r.stdout);
    expect(out[0]).toBe(`+ company "Applied Client" (id ${newId})`);
    expect(out).toHaveLength(7);
    const keyLines = out.filter((l) => l.startsWith('+ key'));
    expect(keyLines).toHaveLength(4);
    const file4 = readFileSync(keysOut, 'utf8');
    expect(statSync(keysOut).mode & 0o777).toBe(0o600);
    const keyRows = lines(file4).map((l) => l.split('\t'));
    expect(keyRows.map((row) => row.slice(0, 3))).toEqual([
      [String(ACME), 'Acme Ltd', 'sync'],
      [String(ACME), 'Acme Ltd', 'sync-reporting'],
      [newId, 'Applied Client', 'sync'],
      [String(INACTIVE), 'Blue Harbor Dental Ltd', 'sync'],
    ]);
    // Each key is printed whole on stdout too, and is the key the service holds.
    for (const [id, , label, key] of keyRows) {
      expect(keyLines.some((l) => l.endsWith(key as string))).toBe(true);
      expect(h.sandbox.store.keysOf(Number(id)).some((k) => k.label === label && k.key === key)).toBe(true);
    }
    expect(r.stderr).toMatch(/inactive/);

    h.sandbox.reset();
    const again = await h.run(['apply', '-f', path, '--yes', '--keys-out', keysOut]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/No changes\./);
    expect(posts()).toEqual([]);
    expect(readFileSync(keysOut, 'utf8')).toBe(file4);

    const plan = await h.run(['--json', 'plan', '-f', path, '--exit-code']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout).changes).toEqual([]);
  });

  it('without a terminal, --yes is required: exit 2 and no request at all', async () => {
    const r = await h.run(['apply', '-f', file('companies: [Never Created]\n')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--yes/);
    expect(h.requests()).toEqual([]);
  });

  it('--json prints the changes made as an array', async () => {
    const r = await h.run(
      ['--json', 'apply', '-f', file('companies:\n  - name: Json Client\n    keys: [k]\n'), '--yes'],
      {
        allowCanary: undefined,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const applied = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(applied.map((a) => [a.type, a.result])).toEqual([
      ['company', 'created'],
      ['key', 'created'],
    ]);
    expect(typeof applied[1]?.api_key).toBe('string');
    expect(applied[1]?.company_id).toBe(applied[0]?.company_id);
  });

  it('a company that could not be created gets none of its keys or webhooks; the rest goes on', async () => {
    h.sandbox.addFault({ method: 'POST', path: '/v2/agency/companies', kind: 'status', status: 400 });
    const path = file(
      [
        'defaults:',
        '  keys: [fail-test]',
        `  webhooks: [{event: prospect_bounced, url: ${HOOK}/fail}]`,
        'companies: [Doomed Client, Acme Ltd]',
        '',
      ].join('\n'),
    );
    const r = await h.run(['apply', '-f', path, '--yes']);
    expect(r.code).not.toBe(0);
    // A failure line reads as one: no "warning:" in front of it.
    expect(r.stderr).toMatch(/^✗ failed: company "Doomed Client"/m);
    expect(r.stderr).not.toContain('warning: ✗');
    const sent = posts();
    expect(sent.filter((p) => p.path === COMPANIES)).toHaveLength(1);
    // Only Acme's key and webhook were sent.
    expect(
      sent.slice(1).map((p) => p.path.includes(`/${ACME}/`) || p.headers['x-company-id'] === String(ACME)),
    ).toEqual([true, true]);
    expect(lines(r.stdout)).toHaveLength(2);
    // --json: the failed and skipped changes are in the array too, each with its result and reason.
    h.sandbox.addFault({ method: 'POST', path: '/v2/agency/companies', kind: 'status', status: 400 });
    const json = await h.run(['--json', 'apply', '-f', path, '--yes']);
    expect(json.code).not.toBe(0);
    const entries = JSON.parse(json.stdout) as {
      type: string;
      result: string;
      error?: { message: string };
    }[];
    expect(entries.map((e) => [e.type, e.result])).toEqual([
      ['company', 'failed'],
      ['key', 'skipped'],
      ['webhook', 'skipped'],
    ]);
    expect(entries[0]?.error?.message).toBeTruthy();
    expect(entries[1]?.error?.message).toBeTruthy();
  });
});

describe('apply at scale', () => {
  let big: Harness;
  beforeAll(async () => {
    big = await startHarness({ seed: { companies: 3 }, latencyMs: 15, queueLimit: 6 }, IN_PROCESS);
  });
  afterAll(async () => {
    await big.close();
  });

  // 12 companies: two create requests (10 and 2), 24 keys on the one HQ account, and three times as many
  // client accounts as apply works on at once (4): every queue is under pressure, as with more.
  it('12 companies × 2 labels × 2 webhooks in one apply: no 429, each account within its limit', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `Scale Client ${String(i + 1).padStart(2, '0')}`);
    const path = file(
      [
        'defaults:',
        '  keys: [zapier, reporting]',
        '  webhooks:',
        `    - {event: prospect_replied, url: ${HOOK}/scale}`,
        `    - {event: prospect_bounced, url: ${HOOK}/scale}`,
        'companies:',
        ...names.map((n) => `  - ${n}`),
        '',
      ].join('\n'),
    );
    const r = await big.run(['apply', '-f', path, '--yes'], { timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    const stats = big.sandbox.stats();
    expect(stats.rejected429).toBe(0);
    expect(Math.max(...Object.values(stats.maxConcurrentByAccount))).toBeLessThanOrEqual(1);
    const sent = big.requests().filter((q) => q.method === 'POST');
    expect(
      sent
        .filter((p) => p.path === COMPANIES)
        .map((p) => (p.body as { companies: unknown[] }).companies.length),
    ).toEqual([10, 2]);
    expect(sent.filter((p) => p.path.endsWith('/api_keys'))).toHaveLength(24);
    expect(sent.filter((p) => p.path === SUBSCRIBE)).toHaveLength(24);
    expect(big.requests().every((q) => q.status !== 429)).toBe(true);

    big.sandbox.reset();
    const plan = await big.run(['plan', '-f', path, '--exit-code'], { timeoutMs: 120_000 });
    expect(plan.code, plan.stdout).toBe(0);
    // The plan's 12 key-list reads on the HQ account are asked for ahead (up to the default depth of
    // 3 in the account's queue), never beyond it, and meet no 429.
    const planStats = big.sandbox.stats();
    expect(planStats.rejected429).toBe(0);
    const hq = Object.entries(planStats.maxQueuedByAccount).find(([account]) => account.startsWith('hq:'));
    expect(hq?.[1]).toBeGreaterThanOrEqual(2);
    expect(hq?.[1]).toBeLessThanOrEqual(3);
  }, 180_000);
});

describe('whose keys a plan compares with', () => {
  it('plan names the user of the key (key lists are per user); without keys in the file it says nothing', async () => {
    const withKeys = file('companies:\n  - name: Acme Ltd\n    keys: [reporting]\n');
    const mine = await h.run(['plan', '-f', withKeys]);
    expect(mine.code, mine.stderr).toBe(0);
    const owner = h.sandbox.store.user(1);
    expect(mine.stderr.replace(/\s+/g, ' ')).toContain(
      `Keys compared with those ${owner?.name} (${owner?.email}) created (each user sees only their own).`,
    );
    // A teammate's key: the same file is compared with the teammate's keys, and the plan says so.
    const tom = teammate(h.sandbox);
    const visible = activeCompany(h.sandbox, tom.id);
    const theirFile = file(`companies:\n  - name: ${JSON.stringify(visible.name)}\n    keys: [reporting]\n`);
    const theirs = await h.run(['plan', '-f', theirFile], { env: { AGENCY_API_KEY: tom.hqKey } });
    expect(theirs.code, theirs.stderr).toBe(0);
    expect(theirs.stderr.replace(/\s+/g, ' ')).toContain(
      `Keys compared with those ${tom.name} (${tom.email}) created`,
    );
    const noKeys = await h.run(['plan', '-f', file('companies: [Acme Ltd]\n')]);
    expect(noKeys.stderr).not.toContain('Keys compared');
  });
});
