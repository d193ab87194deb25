/** `api <path>`: raw calls with the profile's key, for endpoints the tool has no command for. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import type { CompanyRecord } from '../../src/sandbox/store.js';
import { CANARY_KEY, type Harness, ROOT } from '../helpers/cli.js';
import {
  activeCompany,
  direct,
  directAllPages,
  expectUsageError,
  foreignCompany,
  owner,
  sent,
  startCoreHarness,
} from '../helpers/core.js';

/** The program runs in this process (test/helpers/in-process.ts); spawn() still starts the binary. */
const IN_PROCESS = { inProcess: true };

const { version: VERSION } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

let h: Harness;
let tmp: string;
let company: CompanyRecord;
beforeAll(async () => {
  h = await startCoreHarness({}, IN_PROCESS);
  tmp = mkdtempSync(join(tmpdir(), 'agency-api-'));
  company = activeCompany(h.sandbox);
});
afterAll(async () => {
  await h.close();
  rmSync(tmp, { recursive: true, force: true });
});
beforeEach(() => h.sandbox.reset());

const keysPath = () => `/v2/agency/companies/${company.id}/api_keys`;
const latestKey = () => h.sandbox.store.keysOf(company.id, owner(h.sandbox).id).at(-1);

describe('api', () => {
  it('GETs by default and prints the response body as JSON', async () => {
    const expected = (await direct(h.sandbox, '/v1/me')).body;
    h.sandbox.reset();

    const r = await h.run(['api', '/v1/me']);

    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected);
    const [q, ...rest] = sent(h.sandbox);
    expect(rest).toEqual([]);
    expect(q?.method).toBe('GET');
    expect(q?.path).toBe('/v1/me');
    expect(q?.body).toBeUndefined();
    expect(q?.headers['x-api-key']).toBe(CANARY_KEY);
    expect(q?.headers.accept).toBe('application/json');
    expect(q?.headers['user-agent']).toBe(`agency-cli/${VERSION}`);
    expect(q?.headers['x-company-id']).toBeUndefined();
  });

  it('-X POST --data sends the JSON body with a JSON content type', async () => {
    const r = await h.run(['api', keysPath(), '-X', 'POST', '--data', '{"label":"raw-inline"}']);

    expect(r.code, r.stderr).toBe(0);
    expect(latestKey()?.label).toBe('raw-inline');
    expect(JSON.parse(r.stdout)).toEqual({ api_key: latestKey()?.key });
    const [q] = sent(h.sandbox);
    expect(q?.method).toBe('POST');
    expect(q?.body).toEqual({ label: 'raw-inline' });
    expect(q?.headers['content-type']).toMatch(/^application\/json\b/);
  });

  it('--data @file reads the body from a file, and --data alone means POST', async () => {
    const file = join(tmp, 'body.json');
    writeFileSync(file, '{ "label": "raw-file" }\n');
    const r = await h.run(['api', keysPath(), '--data', `@${file}`]);
    expect(r.code, r.stderr).toBe(0);
    expect(sent(h.sandbox).map((q) => [q.method, q.body])).toEqual([['POST', { label: 'raw-file' }]]);
    expect(latestKey()?.label).toBe('raw-file');
  });

  it('--data - reads the body from stdin', async () => {
    const r = await h.run(['api', keysPath(), '-X', 'POST', '--data', '-'], {
      input: '{"label":"raw-stdin"}',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(sent(h.sandbox).map((q) => q.body)).toEqual([{ label: 'raw-stdin' }]);
    expect(latestKey()?.label).toBe('raw-stdin');
  });

  it('invalid JSON is refused before anything is sent, whatever its source', async () => {
    const file = join(tmp, 'bad.json');
    writeFileSync(file, '{"label": ');
    const before = h.sandbox.store.keysOf(company.id).length;

    expectUsageError(
      await h.run(['api', keysPath(), '-X', 'POST', '--data', '{label:x}']),
      h.sandbox,
      /JSON/,
    );
    expectUsageError(await h.run(['api', keysPath(), '--data', `@${file}`]), h.sandbox, /JSON/);
    expectUsageError(await h.run(['api', keysPath(), '--data', '-'], { input: 'nope' }), h.sandbox, /JSON/);
    expectUsageError(await h.run(['api', keysPath(), '--data', `@${join(tmp, 'missing.json')}`]), h.sandbox);
    expect(h.sandbox.store.keysOf(company.id)).toHaveLength(before);
  });

  it("--paginate follows page and merges every page's content into one array", async () => {
    const expected = await directAllPages(h.sandbox, '/v2/agency/companies');
    h.sandbox.reset();

    const r = await h.run(['api', '/v2/agency/companies', '--paginate']);

    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected);
    expect(expected.length).toBe(h.sandbox.store.companies(MAIN_AGENCY_ID).length);
    expect(
      sent(h.sandbox)
        .map((q) => q.query.page)
        .sort(),
    ).toEqual(['1', '2', '3']);
  });

  it('--paginate keeps the query of the path on every page', async () => {
    const r = await h.run(['api', '/v2/agency/companies?active=false', '--paginate']);
    expect(r.code, r.stderr).toBe(0);
    const ids = JSON.parse(r.stdout).map((c: { id: number }) => c.id);
    expect(ids).toEqual(h.sandbox.store.companies(MAIN_AGENCY_ID, { active: false }).map((c) => c.id));
    for (const q of sent(h.sandbox)) expect(q.query.active).toBe('false');
  });

  it('--company sends x-company-id', async () => {
    const expected = (await direct(h.sandbox, '/v2/mailboxes', { company: company.id })).body;
    h.sandbox.reset();
    const r = await h.run(['api', '/v2/mailboxes', '--company', String(company.id)]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected);
    expect(sent(h.sandbox).map((q) => q.headers['x-company-id'])).toEqual([String(company.id)]);
  });

  it('passes the query string of the path through', async () => {
    const r = await h.run(['api', '/v2/agency/companies?active=false&page=2']);
    expect(r.code, r.stderr).toBe(0);
    expect(sent(h.sandbox).map((q) => [q.path, q.query])).toEqual([
      ['/v2/agency/companies', { active: 'false', page: '2' }],
    ]);
    expect(JSON.parse(r.stdout).pagination_data.current_page_number).toBe(2);
  });

  it.each(['http://evil.example/x', 'https://evil.example/rest/v1/me', '//evil.example/x'])(
    'refuses the absolute URL %s (the key would go to another host), sending nothing',
    async (url) => {
      expectUsageError(await h.run(['api', url]), h.sandbox, /path/i);
    },
  );

  it('an API error exits with its code and prints nothing on stdout', async () => {
    const r = await h.run(['api', `/v2/agency/companies/${foreignCompany(h.sandbox).id}/api_keys`]);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('404');
  });

  it("a path that repeats the base URL's /rest is sent as typed (as gh api does), and the 404 says what to give", async () => {
    const r = await h.run(['api', '/rest/v1/me']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(sent(h.sandbox).map((q) => [q.method, q.path, q.status])).toEqual([['GET', '/rest/v1/me', 404]]);
    expect(r.stderr.replace(/\s+/g, ' ')).toContain(
      `hint: The base URL ${h.sandbox.baseUrl} already ends in /rest: give the path after it, /v1/me.`,
    );
    // A 404 of another path says nothing of the kind.
    const other = await h.run(['api', '/v1/nosuch']);
    expect(other.code).toBe(4);
    expect(other.stderr).not.toContain('already ends in');
  });
});
