/**
 * An integer the service sends beyond 2^53 (an id) is printed exactly as it was written, in every
 * format: --json, TSV, --csv and a table (contract, "Errors and exit codes"). 9007199254740993 read as
 * a double is 9007199254740992: another company's id.
 */
import { describe, expect, it } from 'vitest';
import { runCommand } from '../helpers/fake-terminal.js';
import { HttpMock } from '../helpers/http-mock.js';

const BIG = '9007199254740993';
const NEGATIVE = '-12345678901234567890';
const BODY =
  `{"content":[{"id":${BIG},"name":"Big Id Ltd","owner":"o@example.com","active":true,"running_campaigns":${NEGATIVE},` +
  `"email_slots":1,"linkedin_slots":0},{"id":1002,"name":"Id 1234567890123456789 in a name","owner":"o@example.com",` +
  `"active":true,"running_campaigns":0,"email_slots":2.5,"linkedin_slots":0}],` +
  `"pagination_data":{"total_elements":2,"total_pages":1,"current_page_number":1,"page_size":50}}`;

function oneBigPage(): HttpMock {
  return new HttpMock().on('GET', '/v2/agency/companies', { page: 1 }).answer({ status: 200, text: BODY });
}

describe('integers beyond 2^53', () => {
  it('--json prints them as the service wrote them, as numbers', async () => {
    const r = await runCommand(['companies', 'list', '--json'], oneBigPage());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`"id": ${BIG},`);
    expect(r.stdout).toContain(`"running_campaigns": ${NEGATIVE},`);
    // Digits inside a string stay a string; safe numbers stay as they were.
    expect(r.stdout).toContain('"name": "Id 1234567890123456789 in a name"');
    expect(r.stdout).toContain('"email_slots": 2.5');
    expect(JSON.parse(r.stdout)).toHaveLength(2);
  });

  it('TSV (piped)', async () => {
    const r = await runCommand(['companies', 'list'], oneBigPage());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`${BIG}\tBig Id Ltd\to@example.com\ttrue\t${NEGATIVE}\t1\t0`);
  });

  it('--csv', async () => {
    const r = await runCommand(['companies', 'list', '--csv', '--columns', 'id,campaigns'], oneBigPage());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\r\n')[1]).toBe(`${BIG},${NEGATIVE}`);
  });

  it('a table on a terminal', async () => {
    const r = await runCommand(['companies', 'list'], oneBigPage(), { tty: true, columns: 160 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`\\b${BIG}\\b`));
    expect(r.stdout).not.toContain('9007199254740992');
  });

  it('api prints the raw answer exactly', async () => {
    const http = new HttpMock().on('GET', '/v2/agency/companies').answer({ status: 200, text: BODY });
    const r = await runCommand(['api', '/v2/agency/companies'], http);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`"id": ${BIG}`);
  });
  it('companies view takes an id beyond 2^53 and finds that company, not its rounded neighbour', async () => {
    const NEIGHBOUR = '9007199254740992';
    const text =
      `{"content":[{"id":${NEIGHBOUR},"name":"Neighbour Ltd","owner":"n@example.com","active":true},` +
      `{"id":${BIG},"name":"Big Id Ltd","owner":"o@example.com","active":true}],` +
      `"pagination_data":{"total_elements":2,"total_pages":1,"current_page_number":1,"page_size":50}}`;
    const http = () =>
      new HttpMock().on('GET', '/v2/agency/companies', { page: 1 }).answer({ status: 200, text });
    const r = await runCommand(['companies', 'view', BIG, '--json'], http());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`"id": ${BIG},`);
    expect(r.stdout).toContain('"name": "Big Id Ltd"');
    const keys = new HttpMock().on('GET', `/v2/agency/companies/${BIG}/api_keys`).answer({
      status: 200,
      text: '{"content":[],"pagination_data":{"total_elements":0,"total_pages":1,"current_page_number":1,"page_size":50}}',
    });
    const listed = await runCommand(['keys', 'list', BIG, '--json'], keys);
    expect(listed.code, listed.stderr).toBe(0);
  });
});
