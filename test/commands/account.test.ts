/**
 * `me`, `mailboxes`, `webhooks`: the HQ account by default, a client company with --company
 * (x-company-id), and every x-company-id error of the specification as the user meets it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CompanyRecord } from '../../src/sandbox/store.js';
import { CANARY_KEY, type Harness, jsonError } from '../helpers/cli.js';
import {
  activeCompany,
  companyTomCannotSee,
  cutF1,
  direct,
  expectUsageError,
  foreignCompany,
  inactiveCompany,
  lines,
  sent,
  startCoreHarness,
  teammate,
} from '../helpers/core.js';

/** The program runs in this process (test/helpers/in-process.ts); spawn() still starts the binary. */
const IN_PROCESS = { inProcess: true };

let h: Harness;
let company: CompanyRecord;
beforeAll(async () => {
  h = await startCoreHarness({}, IN_PROCESS);
  company = activeCompany(h.sandbox);
});
afterAll(() => h.close());
beforeEach(() => h.sandbox.reset());

const COMMANDS: {
  command: string;
  path: string;
  json: (body: { webhooks: unknown }) => unknown;
  withCompany?: (id: number, items: unknown) => unknown;
}[] = [
  { command: 'me', path: '/v1/me', json: (body: unknown) => body },
  { command: 'mailboxes', path: '/v2/mailboxes', json: (body: unknown) => body },
  {
    command: 'webhooks',
    path: '/v1/webhooks',
    json: (body: { webhooks: unknown }) => body.webhooks,
    // With --company, each row says its company: the shape of several --company.
    withCompany: (id: number, items: unknown) => (items as object[]).map((w) => ({ company_id: id, ...w })),
  },
];

describe.each(COMMANDS)('$command', ({ command, path, json, withCompany }) => {
  it('without --company reads the HQ account: no x-company-id', async () => {
    const expected = json((await direct(h.sandbox, path)).body);
    h.sandbox.reset();

    const r = await h.run([command, '--json']);

    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected);
    const [q, ...rest] = sent(h.sandbox);
    expect(rest).toEqual([]);
    expect(q?.method).toBe('GET');
    expect(q?.path).toBe(path);
    expect(q?.headers['x-api-key']).toBe(CANARY_KEY);
    expect(q?.headers).not.toHaveProperty('x-company-id');
  });

  it("with --company sends x-company-id and prints that company's data", async () => {
    const expected = json((await direct(h.sandbox, path, { company: company.id })).body);
    const hq = json((await direct(h.sandbox, path)).body);
    expect(expected).not.toEqual(hq);
    h.sandbox.reset();

    const r = await h.run([command, '--company', String(company.id), '--json']);

    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(withCompany ? withCompany(company.id, expected) : expected);
    expect(sent(h.sandbox).map((q) => [q.path, q.headers['x-company-id']])).toEqual([
      [path, String(company.id)],
    ]);
  });

  it('an inactive company answers 409: exit 5, and the message says the company is inactive', async () => {
    const inactive = inactiveCompany(h.sandbox);
    const r = await h.run([command, '--company', String(inactive.id)]);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`[Cc]ompany ${inactive.id} is inactive`));
    expect(sent(h.sandbox).map((q) => [q.headers['x-company-id'], q.status])).toEqual([
      [String(inactive.id), 409],
    ]);
  });
});

describe('the rows printed when piped', () => {
  it('me prints "field<TAB>value" lines, nested fields dotted', async () => {
    const body = (await direct(h.sandbox, '/v1/me')).body;
    const r = await h.run(['me']);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toContain(`name\t${body.name}`);
    expect(lines(r.stdout)).toContain(`agency.name\t${body.agency.name}`);
  });

  it('mailboxes prints one row per mailbox, id first', async () => {
    const body = (await direct(h.sandbox, '/v2/mailboxes', { company: company.id })).body;
    const r = await h.run(['mailboxes', '--company', String(company.id)]);
    expect(cutF1(r.stdout)).toEqual(body.map((m: { id: number }) => String(m.id)));
    expect(lines(r.stdout)[0]?.split('\t').slice(0, 3)).toEqual([
      String(body[0].id),
      body[0].type,
      body[0].details.email,
    ]);
  });

  it('webhooks --company prints "company_id<TAB>event<TAB>target url" rows', async () => {
    const body = (await direct(h.sandbox, '/v1/webhooks', { company: company.id })).body;
    const r = await h.run(['webhooks', '--company', String(company.id)]);
    expect(lines(r.stdout)).toEqual(
      body.webhooks.map(
        (w: { event: string; target_url: string }) => `${company.id}\t${w.event}\t${w.target_url}`,
      ),
    );
  });
});

describe('x-company-id errors of the specification', () => {
  it("403 when the key is a client account's key: exit 3 with the HQ-key hint", async () => {
    const clientKey = h.sandbox.store.keysOf(company.id)[0]?.key as string;
    const other = activeCompany(h.sandbox, teammate(h.sandbox).id);

    const r = await h.run(['mailboxes', '--company', String(other.id)], {
      env: { AGENCY_API_KEY: clientKey },
    });

    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('403');
    expect(r.stderr).toMatch(/not the agency's HQ key/);
    expect(r.stderr).not.toContain(clientKey);
    expect(sent(h.sandbox).map((q) => [q.headers['x-api-key'], q.status])).toEqual([[clientKey, 403]]);
  });

  it('a client key without --company reads its own account', async () => {
    const clientKey = h.sandbox.store.keysOf(company.id)[0]?.key as string;
    const r = await h.run(['me', '--json'], { env: { AGENCY_API_KEY: clientKey } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual((await direct(h.sandbox, '/v1/me', { key: clientKey })).body);
    expect(sent(h.sandbox)[0]?.headers).not.toHaveProperty('x-company-id');
  });

  it('404 for a company of another agency: exit 4', async () => {
    const foreign = foreignCompany(h.sandbox);
    const r = await h.run(['webhooks', '--company', String(foreign.id), '--json']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    const { error } = jsonError(r.stderr);
    expect(error.status).toBe(404);
    expect(error.detail).toContain(String(foreign.id));
  });

  it('403 when the user has no access to the company (Tom): exit 3 with the access hint', async () => {
    const hidden = companyTomCannotSee(h.sandbox);
    const tom = teammate(h.sandbox);

    const r = await h.run(['me', '--company', String(hidden.id)], { env: { AGENCY_API_KEY: tom.hqKey } });

    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`HQ key.*no access to company ${hidden.id}`, 's'));
    expect(sent(h.sandbox).map((q) => [q.headers['x-api-key'], q.headers['x-company-id'], q.status])).toEqual(
      [[tom.hqKey, String(hidden.id), 403]],
    );
  });

  it('Tom may act for a company he owns', async () => {
    const tom = teammate(h.sandbox);
    const his = activeCompany(h.sandbox, tom.id);
    const r = await h.run(['webhooks', '--company', String(his.id)], { env: { AGENCY_API_KEY: tom.hqKey } });
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout).length).toBeGreaterThan(0);
  });

  it.each([['0'], ['000'], [''], ['  ']])(
    'the company id %j is refused locally (exit 2) before any request',
    async (id) => {
      const r = await h.run(['mailboxes', `--company=${id}`]);
      expectUsageError(r, h.sandbox, /company/i);
    },
  );

  it.each([['abc'], ['-5'], ['007x'], ['1.5'], ['1e3']])(
    'a value that is not only digits (%j) is a name: one listing, then exit 4 with no x-company-id sent',
    async (name) => {
      h.sandbox.reset();
      const r = await h.run(['me', '--company', name]);
      expect(r.code).toBe(4);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`No company named ${JSON.stringify(name)}`);
      const requests = sent(h.sandbox);
      expect(requests.length).toBeGreaterThan(0);
      expect(requests.every((q) => q.method === 'GET' && q.path === '/v2/agency/companies')).toBe(true);
    },
  );
});
