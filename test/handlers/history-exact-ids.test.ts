/**
 * The history store keeps a company id beyond 2^53 exactly (contract, "Errors and exit codes": an id
 * is never rounded to a neighbouring value; "Memory"): recorded, read back by `history`, matched by
 * `--company`, and remembered by `health` as the same client. 9007199254740993 read as a double is
 * 9007199254740992, another company's id. The sandbox's ids are JavaScript numbers, so the service's
 * answers are declared here.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../helpers/fake-terminal.js';
import { HttpMock, page } from '../helpers/http-mock.js';
import { testDir } from '../helpers/temp-dir.js';

const BIG = '9007199254740993';
const pair = (n: number) => `{"current_period":${n},"previous_period":${n}}`;
const DELIVERABILITY =
  `{"content":[{"id":${BIG},"name":"Big Id Ltd","emails_sent":${pair(100)},"delivered_emails":${pair(90)},` +
  `"views":${pair(50)},"replies":${pair(5)},"bounces":${pair(1)}}],` +
  '"pagination_data":{"total_elements":1,"total_pages":1,"current_page_number":1,"page_size":50}}';
const ME = { id: 1, company_id: 1, email: 'owner@agency.example' };

/** The history on, in a store of the test's own. */
function store() {
  const dir = testDir('agency-history-');
  return { db: join(dir, 'history.db'), env: { AGENCY_NO_HISTORY: '', AGENCY_STATE_DIR: dir } };
}

const sql = (db: string, query: string) => execFileSync('sqlite3', [db, query], { encoding: 'utf8' }).trim();

describe('ids beyond 2^53 in the history store', () => {
  it('deliverability records the id exactly; history deliverability prints it and finds it by --company', async () => {
    const { db, env } = store();
    const http = new HttpMock()
      .on('GET', '/v2/agency/deliverability')
      .answer({ status: 200, text: DELIVERABILITY })
      .on('GET', '/v1/me')
      .reply(200, ME);
    const run = await runCommand(['deliverability', '--company', BIG], http, { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/internal error|not recorded/);
    expect(sql(db, 'SELECT company_id, typeof(company_id) FROM deliverability')).toBe(`${BIG}|integer`);

    const read = (argv: string[]) =>
      runCommand(['history', 'deliverability', ...argv], new HttpMock().on('GET', '/v1/me').reply(200, ME), {
        env,
      });
    const json = await read(['--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).toContain(`"company_id": ${BIG},`);
    expect(json.stdout).not.toContain('9007199254740992');
    const piped = await read(['--company', BIG]);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout.split('\t')[0]).toBe(BIG);
    // Its neighbour is another company: nothing stored for it.
    const neighbour = await read(['--company', '9007199254740992']);
    expect(neighbour.stdout).toBe('');
  });

  it('health remembers such a client: its problems of the earlier run are ongoing, not new', async () => {
    const { db, env } = store();
    const health = () =>
      new HttpMock()
        .on('GET', '/v2/agency/deliverability')
        .answer({ status: 200, text: DELIVERABILITY })
        .on('GET', '/v2/mailboxes')
        .reply(200, page([], 1, 1))
        .on('GET', '/v1/campaign_list')
        .reply(200, [])
        .on('GET', '/v1/webhooks')
        .reply(200, [])
        .on('GET', '/v1/me')
        .reply(200, ME);
    const first = await runCommand(['health', '--company', BIG, '--fail-on', 'none', '--json'], health(), {
      env,
    });
    expect(first.code, first.stderr).toBe(0);
    const firstProblems = JSON.parse(first.stdout).problems as { company_id: unknown; new: boolean }[];
    expect(firstProblems.length).toBeGreaterThan(0);
    expect(first.stdout).toContain(`"company_id": ${BIG},`);
    expect(sql(db, 'SELECT DISTINCT company_id FROM health_problems')).toBe(BIG);
    const second = await runCommand(['health', '--company', BIG, '--fail-on', 'none', '--json'], health(), {
      env,
    });
    expect(second.code, second.stderr).toBe(0);
    const problems = JSON.parse(second.stdout).problems as { new: boolean }[];
    expect(problems).toHaveLength(firstProblems.length);
    expect(problems.every((p) => !p.new)).toBe(true);
  });
});
