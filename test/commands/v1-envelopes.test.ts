/**
 * v1 answers read by meaning (contract, "Errors and exit codes"), for every v1 read, through the
 * sandbox's faults: an ERROR envelope in a 200 is an error (never data, never an empty list);
 * E_SESSION → 3, E_URL_NOT_FOUND / E_RECORD_NOT_FOUND → 4, E_TOO_MANY_REQUESTS → a 429 (retried); an OK
 * envelope without data is an empty list.
 */
import { describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { jsonError } from '../helpers/cli.js';
import { direct, sent, sharedInProcessHarness } from '../helpers/core.js';

const shared = sharedInProcessHarness();
const h = () => shared.h;
const companyId = () => h().sandbox.store.companies(MAIN_AGENCY_ID, { active: true })[0]?.id as number;

/** A v1 error envelope `{"status": {"status": "ERROR", "code", "msg"}}` carried by `status`. */
function v1Error(path: string, status: number, code: string, times = 1) {
  h().sandbox.addFault({
    kind: 'status',
    status,
    dialect: 'v1',
    code,
    detail: `${code} from the service`,
    path,
    times,
  });
}

describe('a v1 ERROR envelope in a 200 is an error', () => {
  it.each([
    ['me', ['me'], '/v1/me'],
    ['webhooks', ['webhooks', '--company', 'COMPANY'], '/v1/webhooks'],
    ['campaigns', ['campaigns', '--company', 'COMPANY'], '/v1/campaign_list'],
  ])('%s: E_SESSION in a 200 → exit 3, stdout empty', async (_name, args, path) => {
    v1Error(path, 200, 'E_SESSION');
    const r = await h().run([...args.map((a) => (a === 'COMPANY' ? String(companyId()) : a)), '--json']);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toBe('');
    expect(jsonError(r.stderr).error).toMatchObject({
      title: 'E_SESSION',
      detail: 'E_SESSION from the service',
    });
    expect(r.stderr).toMatch(/answered 200 \(the key was refused\) E_SESSION/);
  });

  it('webhooks subscribe: an ERROR in a 200 is a failed row, not a subscription', async () => {
    v1Error('/v1/webhooks/subscribe', 200, 'E_WRONG_PARAM');
    const id = companyId();
    const r = await h().run([
      'webhooks',
      'subscribe',
      '--event',
      'prospect_replied',
      '--url',
      'https://hooks.example.com/v1-error',
      '--company',
      String(id),
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout)[0]).toMatchObject({ company_id: id, result: 'failed' });
  });

  it('webhooks unsubscribe: an ERROR in a 200 is a failure', async () => {
    const id = companyId();
    const listed = await direct(h().sandbox, '/v1/webhooks', { company: id });
    const hook = listed.body.webhooks[0];
    expect(hook).toBeDefined();
    v1Error('/v1/webhooks/unsubscribe', 200, 'E_SESSION');
    const r = await h().run([
      'webhooks',
      'unsubscribe',
      '--event',
      String(hook?.event),
      '--url',
      String(hook?.target_url),
      '--company',
      String(id),
    ]);
    expect(r.code, r.stderr).toBe(3);
  });

  it("inventory: a part answered with an ERROR in a 200 is that part's error", async () => {
    const id = companyId();
    v1Error('/v1/campaign_list', 200, 'E_SESSION', 0);
    const r = await h().run(['inventory', '--company', String(id), '--json']);
    const row = JSON.parse(r.stdout)[0];
    expect(row.campaigns.error.status).toBe(200);
    expect(row.campaigns.error.message).toMatch(/E_SESSION/);
    expect(r.code, r.stderr).not.toBe(0);
  });
});

describe('v1 codes by meaning under a 400', () => {
  it.each([
    ['E_SESSION', 3],
    ['E_URL_NOT_FOUND', 4],
    ['E_RECORD_NOT_FOUND', 4],
    ['E_WRONG_PARAM', 1],
  ])('%s → exit %i', async (code, exit) => {
    v1Error('/v1/me', 400, code);
    const r = await h().run(['me']);
    expect(r.code, r.stderr).toBe(exit);
    expect(r.stdout).toBe('');
  });

  it('E_TOO_MANY_REQUESTS in a 200 is a 429: retried, then the data', async () => {
    v1Error('/v1/me', 200, 'E_TOO_MANY_REQUESTS');
    const r = await h().run(['me', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).account_type).toBe('HQ');
    expect(sent(h().sandbox).map((q) => q.status)).toEqual([200, 200]);
  });
});

describe('v1 codes by meaning whatever the status', () => {
  it.each([409, 404, 500])(
    'E_SESSION carried by a %i with a company context: exit 3 and the key hint',
    async (status) => {
      v1Error('/v1/webhooks', status, 'E_SESSION', 0);
      const r = await h().run(['webhooks', '--company', String(companyId())]);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('The API key was refused');
      expect(r.stderr).not.toContain('is inactive');
    },
  );
});

describe('a v1 OK envelope without data is an empty list', () => {
  it.each([
    ['webhooks', '/v1/webhooks', 'No webhooks found'],
    ['campaigns', '/v1/campaign_list', 'No campaigns found'],
  ])('%s', async (command, path, message) => {
    h().sandbox.addFault({ kind: 'v1-nothing', path, detail: message });
    const r = await h().run([command, '--company', String(companyId()), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });
});
