/**
 * `companies list | create | email-accounts` against the sandbox: what the user sees (stdout, stderr,
 * exit code) and what the service received.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { CANARY_KEY, type Harness, jsonError } from '../helpers/cli.js';
import {
  activeCompany,
  cutF1,
  direct,
  directAllPages,
  expectUsageError,
  foreignCompany,
  lines,
  owner,
  sent,
  startCoreHarness,
  uniqueName,
} from '../helpers/core.js';
import { runOnTerminal } from '../helpers/terminal-run.js';

/** The program runs in this process (test/helpers/in-process.ts); spawn() still starts the binary. */
const IN_PROCESS = { inProcess: true };

/** Requests in page order (pages asked for together may arrive in either order). */
const byPage = <Q extends { query: Record<string, string> }>(requests: Q[]) =>
  [...requests].sort((a, b) => Number(a.query.page) - Number(b.query.page));

const COMPANIES = '/v2/agency/companies';

let h: Harness;
let tmp: string;
beforeAll(async () => {
  // A queue of 2: a fourth request in flight on the HQ account (beyond the depth of 3: 1 processing +
  // 2 waiting) would be refused with 429 (and counted), so the limit is checked without a clock.
  h = await startCoreHarness({ queueLimit: 2, latencyMs: 5 }, IN_PROCESS);
  tmp = mkdtempSync(join(tmpdir(), 'agency-companies-'));
});
afterAll(async () => {
  await h.close();
  rmSync(tmp, { recursive: true, force: true });
});
beforeEach(() => h.sandbox.reset());

const storeIds = (filter: { active?: boolean } = {}) =>
  h.sandbox.store.companies(MAIN_AGENCY_ID, filter).map((c) => String(c.id));
const companyCount = () => h.sandbox.store.companies(MAIN_AGENCY_ID).length;
const posts = () => sent(h.sandbox).filter((q) => q.method !== 'GET');

describe('companies list', () => {
  it('fetches every page, at most 3 in flight, and prints one TSV row per company in page order', async () => {
    expect(companyCount()).toBeGreaterThan(100); // three pages of 50

    const r = await h.run(['companies', 'list']);

    expect(r.code, r.stderr).toBe(0);
    expect(cutF1(r.stdout)).toEqual(storeIds());
    const requests = sent(h.sandbox);
    // Pages 2 and 3 are asked for together after page 1: they may arrive in either order.
    expect(requests[0]?.query).toEqual({ page: '1' });
    expect(byPage(requests).map((q) => [q.method, q.path, q.query])).toEqual([
      ['GET', COMPANIES, { page: '1' }],
      ['GET', COMPANIES, { page: '2' }],
      ['GET', COMPANIES, { page: '3' }],
    ]);
    expect(h.sandbox.stats().rejected429).toBe(0);
    for (const q of requests) {
      expect(q.headers['x-api-key']).toBe(CANARY_KEY);
      expect(q.headers['x-company-id']).toBeUndefined();
    }
  });

  it('prints the columns id, name, owner, active, campaigns, email slots, linkedin slots without a header', async () => {
    const r = await h.run(['companies', 'list', '--limit', '1']);
    const [item] = (await direct(h.sandbox, `${COMPANIES}?page=1`)).body.content;
    expect(r.stdout).toBe(
      `${[item.id, item.name, item.owner, item.active, item.running_campaigns, item.email_slots, item.linkedin_slots].join('\t')}\n`,
    );
  });

  it('--columns given again adds to the list: --columns id --columns name is --columns id,name', async () => {
    const once = await h.run(['companies', 'list', '--limit', '2', '--columns', 'id,name']);
    expect(once.code, once.stderr).toBe(0);
    expect(once.stdout.split('\n')[0]?.split('\t')).toHaveLength(2);
    const twice = await h.run(['companies', 'list', '--limit', '2', '--columns', 'id', '--columns', 'name']);
    expect(twice.code, twice.stderr).toBe(0);
    expect(twice.stdout).toBe(once.stdout);
    const json = await h.run([
      'companies',
      'list',
      '--limit',
      '1',
      '--json',
      '--columns',
      'name',
      '--columns',
      'id',
    ]);
    expect(Object.keys((JSON.parse(json.stdout) as object[])[0] ?? {})).toEqual(['name', 'id']);
  });

  it('--json prints one array equal to the items of all pages as the service returns them', async () => {
    const expected = await directAllPages(h.sandbox, COMPANIES);
    h.sandbox.reset();

    const r = await h.run(['companies', 'list', '--json']);

    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected);
    expect(expected.length).toBe(companyCount());
    expect(
      sent(h.sandbox)
        .map((q) => q.query.page)
        .sort(),
    ).toEqual(['1', '2', '3']);
  });

  it('--active sends active=true and lists only active companies', async () => {
    const r = await h.run(['companies', 'list', '--active']);
    expect(r.code, r.stderr).toBe(0);
    expect(cutF1(r.stdout)).toEqual(storeIds({ active: true }));
    const requests = sent(h.sandbox);
    expect(requests.length).toBeGreaterThan(0);
    for (const q of requests) expect(q.query.active).toBe('true');
  });

  it('--inactive sends active=false and lists only inactive companies', async () => {
    const r = await h.run(['companies', 'list', '--inactive']);
    expect(r.code, r.stderr).toBe(0);
    const inactive = storeIds({ active: false });
    expect(inactive.length).toBeGreaterThan(0);
    expect(cutF1(r.stdout)).toEqual(inactive);
    const requests = sent(h.sandbox);
    expect(requests.map((q) => q.query.page)).toEqual(requests.map((_q, i) => String(i + 1)));
    for (const q of requests) expect(q.query.active).toBe('false');
  });

  it('--active with --inactive is a usage error and sends nothing', async () => {
    const r = await h.run(['companies', 'list', '--active', '--inactive']);
    expectUsageError(r, h.sandbox, /--active.*--inactive|--inactive.*--active/);
  });

  it('--page N fetches exactly that page', async () => {
    const r = await h.run(['companies', 'list', '--page', '2']);
    expect(r.code, r.stderr).toBe(0);
    expect(cutF1(r.stdout)).toEqual(storeIds().slice(50, 100));
    expect(sent(h.sandbox).map((q) => q.query)).toEqual([{ page: '2' }]);
  });

  it('--limit N stops early and asks for no further page', async () => {
    const one = await h.run(['companies', 'list', '--limit', '3']);
    expect(one.code, one.stderr).toBe(0);
    expect(cutF1(one.stdout)).toEqual(storeIds().slice(0, 3));
    expect(sent(h.sandbox).map((q) => q.query.page)).toEqual(['1']);

    h.sandbox.reset();
    const two = await h.run(['companies', 'list', '--limit', '60']);
    expect(cutF1(two.stdout)).toEqual(storeIds().slice(0, 60));
    expect(sent(h.sandbox).map((q) => q.query.page)).toEqual(['1', '2']);
  });

  it('on a terminal, --columns all at 80 columns keeps each owner whole and wraps a long name instead', async () => {
    const args = ['companies', 'list', '--limit', '6', '--columns', 'all'];
    const r = await runOnTerminal(h, args, { columns: 80, env: { NO_COLOR: '1' } });
    expect(r.code, r.stderr).toBe(0);
    const companies = JSON.parse((await h.run([...args, '--json'])).stdout) as {
      id: number;
      owner: string;
    }[];
    const printed = r.stdout.trimEnd().split('\n');
    expect(Math.max(...printed.map((line) => line.length))).toBeLessThanOrEqual(80);
    for (const { id, owner } of companies) {
      // On its row's first line: beside names laid out whole, every owner had taken two lines.
      expect(
        printed.find((line) => line.startsWith(`${id} `)),
        r.stdout,
      ).toContain(`  ${owner}  `);
    }
    // Two header lines (EMAIL / SLOTS), a line a row, a second line for the longest names only.
    expect(printed.length).toBeLessThan(2 + 2 * companies.length);
  });

  it.each([
    ['--page', '0'],
    ['--page', 'two'],
    ['--limit', '-1'],
    ['--limit', '1.5'],
  ])('%s %s is refused locally', async (option, value) => {
    const r = await h.run(['companies', 'list', option, value]);
    expectUsageError(r, h.sandbox, new RegExp(option));
  });
});

describe('companies create', () => {
  it('reads the company list once, sends the names as {"companies":[{"name":...}]} with a JSON content type, and prints the created rows', async () => {
    const a = uniqueName('Harbor Lights');
    const b = uniqueName('Quiet Pine');
    const before = companyCount();

    const r = await h.run(['companies', 'create', '--name', a, '--name', b]);

    expect(r.code, r.stderr).toBe(0);
    const reads = sent(h.sandbox).filter((q) => q.method === 'GET');
    // One listing (every page) before the POST, whatever the number of names.
    expect(byPage(reads).map((q) => [q.path, q.query.page])).toEqual([
      [COMPANIES, '1'],
      [COMPANIES, '2'],
      [COMPANIES, '3'],
    ]);
    const [post, ...rest] = sent(h.sandbox).filter((q) => q.method !== 'GET');
    expect(rest).toEqual([]);
    expect(post?.method).toBe('POST');
    expect(post?.path).toBe(COMPANIES);
    expect(post?.headers['content-type']).toMatch(/^application\/json\b/);
    expect(post?.body).toEqual({ companies: [{ name: a }, { name: b }] });
    expect(companyCount()).toBe(before + 2);
    const ca = h.sandbox.store.findCompanyByName(a);
    const cb = h.sandbox.store.findCompanyByName(b);
    const who = owner(h.sandbox).name;
    expect(lines(r.stdout)).toEqual([
      `${ca?.id}\t${a}\t${who}\ttrue\tcreated`,
      `${cb?.id}\t${b}\t${who}\ttrue\tcreated`,
    ]);
  });

  it('reads names from repeated --name and a file, skipping blank and # lines and trimming whitespace', async () => {
    const [a, b, c] = [uniqueName('Alder'), uniqueName('Birch'), uniqueName('Cedar')];
    const file = join(tmp, 'names.txt');
    writeFileSync(file, `# clients for May\n\n   ${b}  \n\t\n#${uniqueName('Commented')}\n${c}\r\n`);

    const r = await h.run(['companies', 'create', '--name', `  ${a}`, '--file', file]);

    expect(r.code, r.stderr).toBe(0);
    expect(posts().map((q) => q.body)).toEqual([{ companies: [{ name: a }, { name: b }, { name: c }] }]);
    expect(cutF1(r.stdout)).toHaveLength(3);
  });

  it('reads names from stdin with --file -', async () => {
    const [a, b] = [uniqueName('Stdin One'), uniqueName('Stdin Two')];
    const r = await h.run(['companies', 'create', '--file', '-'], { input: `${a}\n\n# skip me\n${b}\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(posts().map((q) => q.body)).toEqual([{ companies: [{ name: a }, { name: b }] }]);
    expect(h.sandbox.store.findCompanyByName(b)).toBeDefined();
  });

  it.each([
    ['an empty --name', ['--name', 'Fine Name Ltd', '--name', '']],
    ['a blank --name', ['--name', '   ', '--name', 'Fine Name Ltd']],
    ['no name at all', []],
  ])('refuses %s before sending anything', async (_what, args) => {
    const before = companyCount();
    const r = await h.run(['companies', 'create', ...args]);
    expectUsageError(r, h.sandbox);
    expect(companyCount()).toBe(before);
  });

  it('reports every duplicate (also differing only in case or spacing) and sends nothing', async () => {
    const base1 = uniqueName('Dup Alpha');
    const base2 = uniqueName('Dup Beta');
    const file = join(tmp, 'dups.txt');
    writeFileSync(file, `${base2.toUpperCase()}\n`);
    const before = companyCount();

    const r = await h.run([
      'companies',
      'create',
      '--name',
      base1,
      '--name',
      base1.toLowerCase(),
      '--name',
      base2.replace(' ', '   '),
      '--name',
      uniqueName('Unique'),
      '--file',
      file,
    ]);

    expectUsageError(r, h.sandbox);
    expect(companyCount()).toBe(before);
    // Both groups are named, each with every copy.
    expect(r.stderr).toContain(base1);
    expect(r.stderr).toContain(base1.toLowerCase());
    expect(r.stderr).toContain(base2.replace(' ', '   '));
    expect(r.stderr).toContain(base2.toUpperCase());
    expect(r.stderr.match(/duplicate/gi)?.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses a name that exists, found by the listing: exit 5, the company named, nothing sent', async () => {
    const existing = h.sandbox.store.companies(MAIN_AGENCY_ID)[0];
    const fresh = uniqueName('Never Made');
    const before = companyCount();

    const r = await h.run(['companies', 'create', '--name', fresh, '--name', existing?.name as string]);

    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `1 of the names already exists; nothing was created:\n  ${existing?.name} (id ${existing?.id})`,
    );
    expect(r.stderr).toContain('hint: Use --skip-existing to create only the missing names.');
    expect(companyCount()).toBe(before);
    expect(posts()).toEqual([]);
  });

  it('with --json reports the clash as a JSON error (status null: found locally), exit 5', async () => {
    const existing = h.sandbox.store.companies(MAIN_AGENCY_ID)[1]?.name as string;
    const r = await h.run(['companies', 'create', '--name', existing, '--json']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    const { error } = jsonError(r.stderr);
    expect(error.status).toBeNull();
    expect(error.message).toContain(existing);
  });

  it('a POST the service refuses after the listing (a name taken meanwhile): exit 1, nothing created', async () => {
    const fresh = uniqueName('Raced');
    const taken = uniqueName('Taken Meanwhile');
    h.sandbox.addFault({ method: 'POST', path: COMPANIES, kind: 'status', status: 400, times: 1 });
    const r = await h.run(['companies', 'create', '--name', fresh, '--name', taken]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(posts()).toHaveLength(1);
    expect(h.sandbox.store.findCompanyByName(fresh)).toBeUndefined();
  });

  it('--json prints the array of created companies', async () => {
    const [a, b] = [uniqueName('Json One'), uniqueName('Json Two')];
    const r = await h.run(['companies', 'create', '--name', a, '--name', b, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const created = JSON.parse(r.stdout);
    const who = owner(h.sandbox).name;
    expect(created).toEqual([
      { id: h.sandbox.store.findCompanyByName(a)?.id, name: a, owner: who, active: true, result: 'created' },
      { id: h.sandbox.store.findCompanyByName(b)?.id, name: b, owner: who, active: true, result: 'created' },
    ]);
    expect(typeof created[0].id).toBe('number');
  });
});

describe('companies email-accounts', () => {
  it('calls the agency endpoint with the HQ key and no x-company-id', async () => {
    const company = activeCompany(h.sandbox);
    const expected = (await direct(h.sandbox, `${COMPANIES}/${company.id}/email_accounts`)).body.content;
    expect(expected.length).toBeGreaterThan(0);
    h.sandbox.reset();

    const r = await h.run(['companies', 'email-accounts', String(company.id)]);

    expect(r.code, r.stderr).toBe(0);
    expect(cutF1(r.stdout)).toEqual(expected.map((a: { id: number }) => String(a.id)));
    const [q, ...rest] = sent(h.sandbox);
    expect(rest).toEqual([]);
    expect(q?.method).toBe('GET');
    expect(q?.path).toBe(`${COMPANIES}/${company.id}/email_accounts`);
    expect(q?.headers['x-api-key']).toBe(CANARY_KEY);
    expect(q?.headers['x-company-id']).toBeUndefined();

    const json = await h.run(['companies', 'email-accounts', String(company.id), '--json']);
    expect(JSON.parse(json.stdout)).toEqual(expected);
  });

  it('a company of another agency answers 404: exit 4, nothing on stdout', async () => {
    const foreign = foreignCompany(h.sandbox);
    const r = await h.run(['companies', 'email-accounts', String(foreign.id)]);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('404');
    expect(r.stderr).toContain(String(foreign.id));
    expect(sent(h.sandbox).map((q) => q.status)).toEqual([404]);
  });

  it.each(['0', '00', ''])('refuses the company id %j before sending anything', async (id) => {
    const r = await h.run(['companies', 'email-accounts', id]);
    expectUsageError(r, h.sandbox);
  });

  it.each(['abc', '-3', '12.5'])('takes %s as a name: unknown, exit 4 after one listing', async (name) => {
    const r = await h.run(['companies', 'email-accounts', name]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`No company named ${JSON.stringify(name)}`);
    expect(sent(h.sandbox).length, 'the company list is read').toBeGreaterThan(0);
    expect(sent(h.sandbox).every((q) => q.path === '/v2/agency/companies')).toBe(true);
  });
});
