/**
 * The deliverability listing and the company list as `deliverability` and `health` read them, from
 * answers the sandbox never gives: an id beyond 2^53 (printed exactly, and still the same client when
 * the listing and the company list each name it), and a client listed twice because the pages shifted
 * while they were read (one client, one row).
 */
import { describe, expect, it } from 'vitest';
import { runCommand } from '../helpers/fake-terminal.js';
import { HttpMock } from '../helpers/http-mock.js';

const BIG = '9007199254740993';
const PAIR = (now: number, before: number) => `{"current_period":${now},"previous_period":${before}}`;

/** A listing item as the service writes it (the id as digits, so it can be beyond 2^53). */
function item(id: string, name: string, sent: number, bounces: number): string {
  return (
    `{"id":${id},"name":${JSON.stringify(name)},"emails_sent":${PAIR(sent, sent)},` +
    `"delivered_emails":${PAIR(sent - bounces, sent)},"views":${PAIR(10, 10)},"replies":${PAIR(5, 5)},` +
    `"bounces":${PAIR(bounces, 0)}}`
  );
}

function page(items: string[], number: number, pages: number, total: number): string {
  return (
    `{"content":[${items.join(',')}],"pagination_data":{"total_elements":${total},"total_pages":${pages},` +
    `"current_page_number":${number},"page_size":50}}`
  );
}

const LISTING = '/v2/agency/deliverability';

describe('deliverability and health over unusual listings', () => {
  it('deliverability: an id beyond 2^53 is printed exactly (TSV, --json), not refused', async () => {
    const body = page([item(BIG, 'Big Id Ltd', 1000, 10), item('1002', 'Small Ltd', 100, 1)], 1, 1, 2);
    const http = () => new HttpMock().on('GET', LISTING, { page: 1 }).answer({ status: 200, text: body });
    const piped = await runCommand(['deliverability'], http());
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout.split('\n')[0]?.split('\t').slice(0, 3)).toEqual([BIG, 'Big Id Ltd', '1000']);
    const json = await runCommand(['deliverability', '--json'], http());
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).toContain(`"id": ${BIG},`);
    expect(json.stdout).not.toContain('9007199254740992');
  });

  it('deliverability: a client listed on two pages (the pages shifted) is one row', async () => {
    const http = new HttpMock()
      .on('GET', LISTING, { page: 1 })
      .answer({ status: 200, text: page([item('1001', 'A', 100, 1), item('1002', 'B', 100, 1)], 1, 2, 3) })
      .on('GET', LISTING, { page: 2 })
      .answer({ status: 200, text: page([item('1002', 'B', 100, 1), item('1003', 'C', 100, 1)], 2, 2, 3) });
    const r = await runCommand(['deliverability'], http);
    expect(r.code, r.stderr).toBe(0);
    expect(
      r.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('\t')[0]),
    ).toEqual(['1001', '1002', '1003']);
  });

  /** One active company `id` (digits) with no mailbox, one running campaign and one webhook. */
  function agencyOf(ids: string[], pages: string[][], listing: string): HttpMock {
    const http = new HttpMock();
    pages.forEach((companies, i) => {
      const content = companies.map(
        (id) => `{"id":${id},"name":"Client ${id}","owner":"owner-${id}@example.com","active":true}`,
      );
      http
        .on('GET', '/v2/agency/companies', { page: i + 1 })
        .answer({ status: 200, text: page(content, i + 1, pages.length, ids.length) });
    });
    http.on('GET', LISTING, { page: 1 }).answer({ status: 200, text: listing });
    for (const _ of ids) {
      http.on('GET', '/v2/mailboxes').reply(200, []);
      http.on('GET', '/v1/campaign_list').reply(200, [{ id: 1, name: 'Q3', status: 'RUNNING' }]);
      http
        .on('GET', '/v1/webhooks')
        .reply(200, [{ event: 'PROSPECT_REPLIED', target_url: 'https://x.example/' }]);
    }
    return http;
  }

  it('health: a client whose id is beyond 2^53 is found in the listing (its bounce rate checked) and printed exactly', async () => {
    const listing = page([item(BIG, 'Client big', 1000, 80)], 1, 1, 1);
    const http = agencyOf([BIG], [[BIG]], listing);
    const r = await runCommand(['health', '--json'], http);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stdout).toContain(`"company_id": ${BIG},`);
    expect(r.stdout).toContain('"check": "bounce_rate"');
    expect(r.stdout).toContain('bounce rate 8.0% (80 of 1,000 sent), at or above 5.0%');
    expect(r.stdout).not.toContain('9007199254740992');
    // The three reads were sent for that very account.
    const accounts = http.requests.filter((q) => q.companyId !== undefined).map((q) => String(q.companyId));
    expect(accounts).toEqual([BIG, BIG, BIG]);
  });

  it('health: a company listed on two pages of the company list is checked once', async () => {
    const listing = page([], 1, 1, 0);
    const http = agencyOf(
      ['1001', '1002', '1003'],
      [
        ['1001', '1002'],
        ['1002', '1003'],
      ],
      listing,
    );
    const r = await runCommand(['health', '--json', '--concurrency', '1'], http);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).companies_checked).toBe(3);
    const accounts = http.requests.filter((q) => q.companyId !== undefined).map((q) => String(q.companyId));
    expect(accounts.filter((id) => id === '1002')).toHaveLength(3);
  });
});
