/** `keys list | create` against the sandbox. API keys are user-specific: each user sees only their own. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CompanyRecord, UserRecord } from '../../src/sandbox/store.js';
import { CANARY_KEY, type Harness, jsonError } from '../helpers/cli.js';
import {
  activeCompany,
  companyTomCannotSee,
  cutF1,
  expectUsageError,
  foreignCompany,
  hqContext,
  lines,
  owner,
  sent,
  startCoreHarness,
  teammate,
} from '../helpers/core.js';

/** The program runs in this process (test/helpers/in-process.ts); spawn() still starts the binary. */
const IN_PROCESS = { inProcess: true };

/** Requests in page order (pages asked for together may arrive in either order). */
const byPage = <Q extends { query: Record<string, string> }>(requests: Q[]) =>
  [...requests].sort((a, b) => Number(a.query.page) - Number(b.query.page));

let h: Harness;
let olivia: UserRecord;
let tom: UserRecord;
/** A company of Olivia's with more than two pages of her keys. */
let busy: CompanyRecord;
/** A company Tom owns, with keys of both Tom and Olivia. */
let shared: CompanyRecord;

const keysPath = (id: number) => `/v2/agency/companies/${id}/api_keys`;

beforeAll(async () => {
  h = await startCoreHarness({}, IN_PROCESS);
  olivia = owner(h.sandbox);
  tom = teammate(h.sandbox);
  busy = activeCompany(h.sandbox, olivia.id);
  const store = h.sandbox.store;
  for (let i = store.keysOf(busy.id, olivia.id).length; i < 105; i++) {
    store.createKey(hqContext(h.sandbox, olivia), String(busy.id), { label: `bulk ${i}` });
  }
  shared = activeCompany(h.sandbox, tom.id);
  store.createKey(hqContext(h.sandbox, olivia), String(shared.id), { label: 'olivia-only' });
  store.createKey(hqContext(h.sandbox, tom), String(shared.id), { label: 'tom-only' });
});
afterAll(() => h.close());
beforeEach(() => h.sandbox.reset());

const keyLines = (company: number, user: number) =>
  h.sandbox.store.keysOf(company, user).map((k) => `${k.key}\t${k.label}`);

describe('keys list', () => {
  it('fetches every page in order and prints "key<TAB>label" rows with whole keys when piped', async () => {
    const r = await h.run(['keys', 'list', String(busy.id)]);

    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual(keyLines(busy.id, olivia.id));
    expect(lines(r.stdout)).toHaveLength(105);
    const requests = sent(h.sandbox);
    expect(requests[0]?.query).toEqual({ page: '1' });
    expect(byPage(requests).map((q) => [q.method, q.path, q.query])).toEqual([
      ['GET', keysPath(busy.id), { page: '1' }],
      ['GET', keysPath(busy.id), { page: '2' }],
      ['GET', keysPath(busy.id), { page: '3' }],
    ]);
    for (const q of requests) {
      expect(q.headers['x-api-key']).toBe(CANARY_KEY);
      expect(q.headers['x-company-id']).toBeUndefined();
    }
  });

  it('--json prints the items of all pages as the service returns them', async () => {
    const r = await h.run(['keys', 'list', String(busy.id), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(
      h.sandbox.store.keysOf(busy.id, olivia.id).map((k) => ({ api_key: k.key, label: k.label })),
    );
  });

  it('--page N fetches one page; --limit N stops early', async () => {
    const page = await h.run(['keys', 'list', String(busy.id), '--page', '2']);
    expect(lines(page.stdout)).toEqual(keyLines(busy.id, olivia.id).slice(50, 100));
    expect(sent(h.sandbox).map((q) => q.query)).toEqual([{ page: '2' }]);

    h.sandbox.reset();
    const limited = await h.run(['keys', 'list', String(busy.id), '--limit', '2']);
    expect(lines(limited.stdout)).toEqual(keyLines(busy.id, olivia.id).slice(0, 2));
    expect(sent(h.sandbox).map((q) => q.query)).toEqual([{ page: '1' }]);
  });

  it("is per user: with Tom's key, Tom sees his keys and none of Olivia's", async () => {
    const r = await h.run(['keys', 'list', String(shared.id)], { env: { AGENCY_API_KEY: tom.hqKey } });

    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual(keyLines(shared.id, tom.id));
    expect(r.stdout).toContain('tom-only');
    for (const key of h.sandbox.store.keysOf(shared.id, olivia.id)) expect(r.stdout).not.toContain(key.key);
    expect(sent(h.sandbox)[0]?.headers['x-api-key']).toBe(tom.hqKey);

    const hers = await h.run(['keys', 'list', String(shared.id)]);
    expect(lines(hers.stdout)).toEqual(keyLines(shared.id, olivia.id));
    expect(hers.stdout).not.toContain('tom-only');
  });

  it('a company Tom has no access to answers 403: exit 3', async () => {
    const hidden = companyTomCannotSee(h.sandbox);
    const r = await h.run(['keys', 'list', String(hidden.id)], { env: { AGENCY_API_KEY: tom.hqKey } });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('403');
  });

  it('a company of another agency answers 404: exit 4', async () => {
    const r = await h.run(['keys', 'list', String(foreignCompany(h.sandbox).id)]);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
  });

  it.each(['0', '000'])('refuses the company id %s before sending anything', async (id) => {
    expectUsageError(await h.run(['keys', 'list', id]), h.sandbox);
  });

  it.each(['x1', '-1'])('takes %s as a name: unknown, exit 4 after one listing', async (name) => {
    const r = await h.run(['keys', 'list', name]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`No company named ${JSON.stringify(name)}`);
    expect(sent(h.sandbox).length, 'the company list is read').toBeGreaterThan(0);
    expect(sent(h.sandbox).every((q) => q.path === '/v2/agency/companies')).toBe(true);
  });
});

describe('keys create', () => {
  it('prints the new key alone on stdout, confirms on stderr, and the key exists for the company', async () => {
    const before = h.sandbox.store.keysOf(busy.id, olivia.id).length;

    const r = await h.run(['keys', 'create', String(busy.id), '--label', 'zapier']);

    expect(r.code, r.stderr).toBe(0);
    const after = h.sandbox.store.keysOf(busy.id, olivia.id);
    expect(after).toHaveLength(before + 1);
    const created = after[after.length - 1];
    expect(created?.label).toBe('zapier');
    expect(r.stdout).toBe(`${created?.key}\n`);
    expect(r.stderr).toContain('zapier');
    expect(r.stderr).toContain(String(busy.id));
    expect(r.stderr).not.toContain(created?.key as string);

    // The keys your user created are read first (none labelled zapier), then one POST.
    const requests = sent(h.sandbox);
    const q = requests.at(-1);
    expect(requests.slice(0, -1).map((r) => [r.method, r.path])).toEqual(
      requests.slice(0, -1).map(() => ['GET', keysPath(busy.id)]),
    );
    expect(requests.length).toBeGreaterThan(1);
    expect(q?.method).toBe('POST');
    expect(q?.path).toBe(keysPath(busy.id));
    expect(q?.body).toEqual({ label: 'zapier' });
    expect(q?.headers['content-type']).toMatch(/^application\/json\b/);
    expect(q?.headers['x-company-id']).toBeUndefined();
  });

  it('-q (before or after the command) drops the confirmation: the key on stdout, stderr empty', async () => {
    for (const args of [
      ['-q', 'keys', 'create', String(busy.id), '--label', 'quiet-before'],
      ['keys', 'create', String(busy.id), '--label', 'quiet-after', '--quiet'],
    ]) {
      const r = await h.run(args);
      expect(r.code, r.stderr).toBe(0);
      const latest = h.sandbox.store.keysOf(busy.id, olivia.id).at(-1);
      expect(latest?.label).toBe(args.find((a) => a.startsWith('quiet-')));
      expect(r.stdout).toBe(`${latest?.key}\n`);
      expect(r.stderr).toBe('');
    }
  });

  it('--json prints {"company_id","label","api_key","result"}', async () => {
    const r = await h.run(['keys', 'create', String(busy.id), '--label', 'reporting', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const printed = JSON.parse(r.stdout);
    const latest = h.sandbox.store.keysOf(busy.id, olivia.id).at(-1);
    expect(printed).toEqual({
      company_id: busy.id,
      label: 'reporting',
      api_key: latest?.key,
      result: 'created',
    });
    expect(Object.keys(printed)).toEqual(['company_id', 'label', 'api_key', 'result']);
  });

  it("a key created with Tom's key shows up in his list only", async () => {
    const r = await h.run(['keys', 'create', String(shared.id), '--label', 'tom-zap'], {
      env: { AGENCY_API_KEY: tom.hqKey },
    });
    expect(r.code, r.stderr).toBe(0);
    const key = r.stdout.trim();
    expect(h.sandbox.store.keysOf(shared.id, tom.id).map((k) => k.key)).toContain(key);
    const hers = await h.run(['keys', 'list', String(shared.id)]);
    expect(hers.stdout).not.toContain(key);
    const his = await h.run(['keys', 'list', String(shared.id)], { env: { AGENCY_API_KEY: tom.hqKey } });
    expect(cutF1(his.stdout)).toContain(key);
  });

  it('without --label is a usage error and sends nothing', async () => {
    expectUsageError(await h.run(['keys', 'create', String(busy.id)]), h.sandbox, /--label/);
  });

  it.each(['', '   '])('an empty label (%j) is a usage error and sends nothing', async (label) => {
    const before = h.sandbox.store.keysOf(busy.id).length;
    expectUsageError(await h.run(['keys', 'create', String(busy.id), '--label', label]), h.sandbox, /label/i);
    expect(h.sandbox.store.keysOf(busy.id)).toHaveLength(before);
  });

  it('for a company of another agency: exit 4, nothing on stdout, the JSON error names 404', async () => {
    const foreign = foreignCompany(h.sandbox);
    const before = h.sandbox.store.keysOf(foreign.id).length;
    const r = await h.run(['keys', 'create', String(foreign.id), '--label', 'x', '--json']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(jsonError(r.stderr).error.status).toBe(404);
    expect(h.sandbox.store.keysOf(foreign.id)).toHaveLength(before);
  });
});
