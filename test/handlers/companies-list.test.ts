/**
 * `agency companies list` in-process against declared answers: which pages it asks for, and what it
 * prints piped, as JSON and on a terminal.
 */
import { describe, expect, it } from 'vitest';
import { runCommand } from '../helpers/fake-terminal.js';
import { HttpMock, page } from '../helpers/http-mock.js';

const company = (id: number, active = true) => ({
  id,
  name: `Client ${id}`,
  owner: 'hq@example.com',
  active,
  running_campaigns: 1,
  email_slots: 2,
  linkedin_slots: 0,
});
const companies = (from: number, n: number) => Array.from({ length: n }, (_, i) => company(from + i));

describe('companies list', () => {
  it('reads every page up to total_pages and prints one TSV row per company when piped', async () => {
    const http = new HttpMock()
      .on('GET', '/v2/agency/companies', { page: 1 })
      .reply(200, page(companies(1, 50), 1, 2, 60))
      .on('GET', '/v2/agency/companies', { page: 2 })
      .reply(200, page(companies(51, 10), 2, 2, 60));
    const r = await runCommand(['companies', 'list'], http);
    http.verify();
    expect(r.code).toBe(0);
    const rows = r.stdout.trimEnd().split('\n');
    expect(rows).toHaveLength(60);
    expect(rows[59]).toBe('60\tClient 60\thq@example.com\ttrue\t1\t2\t0');
    expect(r.stderr).toBe('');
  });

  it('--limit stops early and never asks for a page it does not need', async () => {
    const http = new HttpMock()
      .on('GET', '/v2/agency/companies', { page: 1 })
      .reply(200, page(companies(1, 50), 1, 3, 150));
    const r = await runCommand(['companies', 'list', '--limit', '5', '--json'], http);
    http.verify();
    expect(JSON.parse(r.stdout).map((c: { id: number }) => c.id)).toEqual([1, 2, 3, 4, 5]);
  });

  it('--page N asks for that page alone; --inactive sends active=false', async () => {
    const http = new HttpMock()
      .on('GET', '/v2/agency/companies', { page: 3, active: false })
      .reply(200, page([company(7, false)], 3, 3, 101));
    const r = await runCommand(['companies', 'list', '--page', '3', '--inactive'], http);
    http.verify();
    expect(r.stdout).toBe('7\tClient 7\thq@example.com\tfalse\t1\t2\t0\n');
  });

  it('on a terminal: a table with a header that fits the width, and the count on stderr', async () => {
    const http = new HttpMock().on('GET', '/v2/agency/companies').reply(200, page(companies(1, 3), 1, 1));
    const r = await runCommand(['companies', 'list'], http, {
      tty: true,
      columns: 60,
      env: { NO_COLOR: '1' },
    });
    http.verify();
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +NAME +OWNER/);
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
    // What did not fit is named (issue 14), wrapped at the width; then the count.
    expect(r.stderr).toBe(
      '1 column hidden (linkedin_slots) — widen the window, or use\n--columns\n3 companies\n',
    );
  });

  it('an empty agency prints nothing on stdout, and says what to do on a terminal', async () => {
    const empty = () => new HttpMock().on('GET', '/v2/agency/companies').reply(200, page([], 1, 0));
    const piped = await runCommand(['companies', 'list'], empty());
    expect([piped.code, piped.stdout, piped.stderr]).toEqual([0, '', '']);
    const json = await runCommand(['companies', 'list', '--json'], empty());
    expect(json.stdout).toBe('[]\n');
    const tty = await runCommand(['companies', 'list'], empty(), { tty: true });
    expect(tty.stdout).toBe('');
    expect(tty.stderr).toMatch(/^No companies yet — create one with: agency companies create/);
  });

  it('refuses a bad --limit before any request (exit 2)', async () => {
    const http = new HttpMock();
    const r = await runCommand(['companies', 'list', '--limit', '0'], http);
    http.verify();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Invalid --limit "0"/);
  });
});
