/**
 * `agency keys create` in-process: one key printed alone, several in order with a failure that does not
 * stop the others, and each failure reported on stderr (with --json, one error object per company).
 */
import { describe, expect, it } from 'vitest';
import { runCommand } from '../helpers/fake-terminal.js';
import { HttpMock, page } from '../helpers/http-mock.js';

const created = (id: number) => ({ api_key: `wpk_new_key_for_${id}_0123456789`, label: 'zapier' });
/** The company's keys, read first: none with the label. */
const noKeys = (http: HttpMock, id: number) =>
  http.on('GET', `/v2/agency/companies/${id}/api_keys`, { page: 1 }).reply(200, page([], 1, 1, 0));

describe('keys create', () => {
  it('prints one new key alone on stdout, the confirmation on stderr', async () => {
    const http = new HttpMock();
    noKeys(http, 1042).on('POST', '/v2/agency/companies/1042/api_keys').reply(201, created(1042));
    const r = await runCommand(['keys', 'create', '1042', '--label', ' zapier '], http);
    http.verify();
    expect(http.requests[1]?.body).toEqual({ label: 'zapier' });
    expect([r.code, r.stdout, r.stderr]).toEqual([
      0,
      'wpk_new_key_for_1042_0123456789\n',
      '✓ Created key "zapier" for company 1042.\n',
    ]);
  });

  it('goes on past a refused company, in order, and exits with the failure code', async () => {
    const http = new HttpMock();
    for (const id of [1, 2, 3]) noKeys(http, id);
    http
      .on('POST', '/v2/agency/companies/1/api_keys')
      .reply(201, created(1))
      .on('POST', '/v2/agency/companies/2/api_keys')
      .reply(409, { title: 'Conflict', status: 409, detail: 'Company is inactive' })
      .on('POST', '/v2/agency/companies/3/api_keys')
      .reply(201, created(3));
    const r = await runCommand(['keys', 'create', '1', '2', '3', '--label', 'zapier', '--json'], http);
    http.verify();
    expect(http.requests.map((q) => `${q.method} ${q.path}`)).toEqual([
      'GET /v2/agency/companies/1/api_keys',
      'POST /v2/agency/companies/1/api_keys',
      'GET /v2/agency/companies/2/api_keys',
      'POST /v2/agency/companies/2/api_keys',
      'GET /v2/agency/companies/3/api_keys',
      'POST /v2/agency/companies/3/api_keys',
    ]);
    expect(r.code).toBe(5);
    expect(JSON.parse(r.stdout).map((k: { company_id: number }) => k.company_id)).toEqual([1, 3]);
    const objects = r.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    expect(objects[0]).toEqual({
      error: {
        company_id: 2,
        status: 409,
        title: 'Conflict',
        detail: 'Company is inactive',
        message: expect.stringMatching(/company 2/),
      },
    });
    expect(objects.at(-1)?.error.message).toBe('Created 2 of 3 keys; failed for 1: 2 (409).');
  });

  it('refuses a repeated company and a bad label before sending anything', async () => {
    for (const argv of [
      ['keys', 'create', '7', '07', '--label', 'x'],
      ['keys', 'create', '7', '--label', '  '],
      ['keys', 'create', '7', '--label', 'a\u202eb'],
    ]) {
      const http = new HttpMock();
      const r = await runCommand(argv, http);
      http.verify();
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
    }
  });
});
