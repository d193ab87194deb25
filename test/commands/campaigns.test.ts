/**
 * `campaigns [list]` against the sandbox: GET /v1/campaign_list for the key's own account or a client
 * (x-company-id), statuses checked locally and sent upper-case, a bare array or a 204 read as a list.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import type { Harness } from '../helpers/cli.js';
import {
  activeCompany,
  direct,
  expectUsageError,
  hqContext,
  lines,
  owner,
  sent,
  startCoreHarness,
  uniqueName,
} from '../helpers/core.js';

/** The program runs in this process (test/helpers/in-process.ts). */
const IN_PROCESS = { inProcess: true };

interface Campaign {
  id: number;
  name: string;
  status: string;
  created: string;
  from_email: string;
  per_day: number;
  error: string | null;
}

/** What the sandbox itself answers to each account (read before the tests, then forgotten by reset). */
const answers = new Map<number | undefined, Campaign[]>();
function campaignsOf(companyId?: number): Campaign[] {
  const list = answers.get(companyId);
  if (!list) throw new Error(`no direct answer for ${companyId}`);
  return list;
}

/** A seeded company with campaigns in several statuses and at least one error. */
function richCompany(h: Harness) {
  for (const company of h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true })) {
    const list = answers.get(company.id) ?? [];
    if (new Set(list.map((c) => c.status)).size >= 3 && list.some((c) => c.error)) return company;
  }
  throw new Error('the seeded sandbox has no company with varied campaigns');
}

describe('campaigns', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startCoreHarness({ seed: { companies: 40 } }, IN_PROCESS);
    // The truth, straight from the sandbox: each company's bare array.
    for (const company of h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true })) {
      const { status, body } = await direct(h.sandbox, '/v1/campaign_list', { company: company.id });
      answers.set(company.id, status === 204 ? [] : body);
    }
    answers.set(undefined, (await direct(h.sandbox, '/v1/campaign_list')).body);
  });
  afterAll(() => h.close());
  beforeEach(() => h.sandbox.reset());

  it('--json prints the bare array of a client as returned, read with x-company-id', async () => {
    const company = richCompany(h);
    const r = await h.run(['campaigns', '--company', String(company.id), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(campaignsOf(company.id));
    expect(sent(h.sandbox)).toEqual([
      expect.objectContaining({ method: 'GET', path: '/v1/campaign_list', query: {} }),
    ]);
    expect(sent(h.sandbox)[0]?.headers['x-company-id']).toBe(String(company.id));
  });

  it('`campaigns list` prints one TSV row per campaign: id, name, status, created, from email, per day, error', async () => {
    const company = richCompany(h);
    const r = await h.run(['campaigns', 'list', '--company', String(company.id)]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual(
      campaignsOf(company.id).map((c) =>
        [c.id, c.name, c.status, c.created, c.from_email, c.per_day, c.error ?? ''].join('\t'),
      ),
    );
  });

  it('--status is case-insensitive in, upper case on the wire, and may be repeated', async () => {
    const company = richCompany(h);
    const r = await h.run([
      'campaigns',
      '--company',
      String(company.id),
      '--status',
      'running,Paused',
      '--status',
      'completed',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(sent(h.sandbox)[0]?.query).toEqual({ status: 'RUNNING,PAUSED,COMPLETED' });
    const wanted = new Set(['RUNNING', 'PAUSED', 'COMPLETED']);
    expect(JSON.parse(r.stdout)).toEqual(campaignsOf(company.id).filter((c) => wanted.has(c.status)));
  });

  it('a company given by its exact name is resolved through the company list first', async () => {
    const company = richCompany(h);
    const r = await h.run(['campaigns', '--company', company.name, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(campaignsOf(company.id));
    const requests = sent(h.sandbox);
    expect(requests[0]?.path).toBe('/v2/agency/companies');
    expect(requests.at(-1)?.headers['x-company-id']).toBe(String(company.id));
  });

  it('without --company reads the own account, without x-company-id', async () => {
    const r = await h.run(['campaigns', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(campaignsOf());
    expect(sent(h.sandbox)[0]?.headers['x-company-id']).toBeUndefined();
  });

  it('an unknown status is a usage error listing the valid ones, and nothing is sent', async () => {
    const r = await h.run(['campaigns', '--status', 'running,active']);
    expectUsageError(r, h.sandbox, /"active"/);
    expect(r.stderr).toContain('RUNNING, DRAFT, EDITED, PAUSED, STOPPED, COMPLETED');
    expectUsageError(await h.run(['campaigns', '--status', '']), h.sandbox, /campaign status/);
    expectUsageError(await h.run(['campaigns', '--company', '0']), h.sandbox, /positive whole number/);
  });

  it('an unknown company name exits 4 after one listing, and no campaign read', async () => {
    const r = await h.run(['campaigns', '--company', 'No Such Client Ltd']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(sent(h.sandbox).length, 'the company list is read').toBeGreaterThan(0);
    expect(sent(h.sandbox).every((q) => q.path === '/v2/agency/companies')).toBe(true);
  });

  it("an inactive company exits 5 with the service's words", async () => {
    const inactive = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: false })[0];
    const r = await h.run(['campaigns', '--company', String(inactive?.id)]);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
  });

  it('a company without campaigns: an empty array, exit 0', async () => {
    const name = uniqueName('Empty Campaigns');
    const [created] = h.sandbox.store.createCompanies(hqContext(h.sandbox, owner(h.sandbox)), {
      companies: [{ name }],
    }).companies as { id: number }[];
    const json = await h.run(['campaigns', '--company', String(created?.id), '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([]);
    const piped = await h.run(['campaigns', '--company', String(created?.id)]);
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe('');
  });
});

describe('campaigns against a service that answers an empty list with 204', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startCoreHarness({ seed: { companies: 10 }, docsMode: true }, IN_PROCESS);
  });
  afterAll(() => h.close());

  it('reads 204 No Content as an empty list, and a filtered list too', async () => {
    const company = activeCompany(h.sandbox);
    const r = await h.run(['campaigns', '--company', String(company.id), '--status', 'edited', '--json']);
    const direct204 = await direct(h.sandbox, '/v1/campaign_list?status=EDITED', { company: company.id });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(direct204.status === 204 ? [] : direct204.body);

    const name = uniqueName('Nothing Yet');
    const [created] = h.sandbox.store.createCompanies(hqContext(h.sandbox, owner(h.sandbox)), {
      companies: [{ name }],
    }).companies as { id: number }[];
    h.sandbox.reset();
    const empty = await h.run(['campaigns', '--company', String(created?.id), '--json']);
    expect(h.sandbox.requests.map((q) => q.status)).toEqual([204]);
    expect(empty.code, empty.stderr).toBe(0);
    expect(JSON.parse(empty.stdout)).toEqual([]);
  });
});
