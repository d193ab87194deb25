/**
 * `agency report` against the sandbox: per active client a report asked for (POST
 * /v2/reports/campaigns with x-company-id) and read by its hash until ready; the campaign and client
 * rows summed from the service's per-mailbox rows, rates from the counts; the 30-day UTC window checked
 * before any request; faults (a failed report, one never ready, a lost answer, 429s) end only the
 * client concerned, with everything else printed and the exit code saying so.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import type { Harness } from '../helpers/cli.js';
import { direct, expectUsageError, lines, sent, startCoreHarness } from '../helpers/core.js';

const DAY = 86_400_000;
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const today = () => utc(Date.now());
const daysAgo = (n: number) => utc(Date.parse(`${today()}T00:00:00Z`) - n * DAY);

interface ServiceRow {
  id: number;
  sent_from: string;
  contacted_prospects: number;
  delivered: number;
  opened: number;
  responded: number;
  interested: number;
  bounced: number;
}

describe('report', () => {
  let h: Harness;
  // Six clients (one inactive among them) are enough for order, sums and one fault each.
  beforeAll(async () => {
    h = await startCoreHarness({ seed: { companies: 8 }, reports: { pendingPolls: 0 } }, { inProcess: true });
  });
  afterAll(() => h.close());
  beforeEach(() => h.sandbox.reset());

  const active = () => h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true });
  /** The service's rows for a client, asked straight from the sandbox. */
  async function serviceRows(company: number, from = daysAgo(29), to = today()): Promise<ServiceRow[]> {
    const { body } = await direct(h.sandbox, '/v2/reports/campaigns', { company, body: { from, to } });
    const answer = await direct(h.sandbox, `/v2/reports/${body.hash}`, { company });
    expect(answer.body.status).toBe('READY');
    return answer.body.report.data;
  }
  const sum = (rows: ServiceRow[], field: keyof ServiceRow) => rows.reduce((n, r) => n + Number(r[field]), 0);

  it('--by client --csv: one row per active client whose counts are the sums of the service rows', async () => {
    const r = await h.run(['report', '--by', 'client', '--csv']);
    expect(r.code, r.stderr).toBe(0);
    const [header, ...rows] = r.stdout.trimEnd().split('\r\n');
    expect(header).toBe(
      'company_id,name,campaigns,contacted,delivered,opened,replied,interested,maybe_later,not_interested,bounced,opt_out,open_rate,reply_rate,bounce_rate,interested_rate',
    );
    expect(rows.map((row) => Number(row.split(',')[0]))).toEqual(active().map((c) => c.id));
    const requests = sent(h.sandbox);
    const posts = requests.filter((q) => q.method === 'POST');
    expect(posts.map((q) => Number(q.headers['x-company-id']))).toEqual(active().map((c) => c.id));
    for (const post of posts) {
      expect(post.path).toBe('/v2/reports/campaigns');
      expect(post.body).toEqual({ from: daysAgo(29), to: today() });
    }
    for (const [i, company] of active().entries()) {
      const truth = await serviceRows(company.id);
      const cells = (rows[i] as string).split(',');
      expect(Number(cells[3])).toBe(sum(truth, 'contacted_prospects'));
      expect(Number(cells[6])).toBe(sum(truth, 'responded'));
      expect(Number(cells[7])).toBe(sum(truth, 'interested'));
      expect(Number(cells[2])).toBe(new Set(truth.map((row) => row.id)).size);
      const delivered = sum(truth, 'delivered');
      const reply = cells[13] === '' ? null : Number(cells[13]);
      expect(reply).toBe(delivered > 0 ? sum(truth, 'responded') / delivered : null);
    }
  });

  it('--by campaign: rows in client order then campaign id, mailboxes summed, rates from the counts', async () => {
    const client = active()[1];
    if (!client) throw new Error('no client');
    const r = await h.run(['report', '--company', String(client.id), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.period).toEqual({ from: daysAgo(29), to: today() });
    expect(report.failed).toEqual([]);
    const [only] = report.clients;
    expect(only.company_id).toBe(client.id);
    const truth = await serviceRows(client.id);
    const ids = [...new Set(truth.map((row) => row.id))].sort((a, b) => a - b);
    expect(only.campaigns.map((c: { id: number }) => c.id)).toEqual(ids);
    // Several mailboxes of one campaign: the seeded world has at least one such campaign.
    expect(truth.length).toBeGreaterThan(ids.length);
    for (const campaign of only.campaigns) {
      const mine = truth.filter((row) => row.id === campaign.id);
      expect(campaign.mailboxes).toEqual(mine.map((row) => row.sent_from));
      expect(campaign.contacted).toBe(sum(mine, 'contacted_prospects'));
      expect(campaign.bounce_rate).toBe(sum(mine, 'bounced') / sum(mine, 'contacted_prospects'));
      expect(campaign.open_rate).toBe(sum(mine, 'opened') / sum(mine, 'delivered'));
    }
    expect(only.totals.interested).toBe(sum(truth, 'interested'));

    const tsv = await h.run(['report', '--company', String(active()[2]?.id), '--company', String(client.id)]);
    const keys = lines(tsv.stdout).map((line) => line.split('\t').slice(0, 3).map(Number));
    expect(keys.map(([company]) => company)).toEqual(
      [...keys.map(([company]) => company)].sort((a, b) => (a === client.id ? 1 : b === client.id ? -1 : 0)),
    );
    expect(keys.filter(([company]) => company === client.id).map(([, , id]) => id)).toEqual(ids);
  });

  it('the 30-day UTC window is checked before any request', async () => {
    expectUsageError(await h.run(['report', '--from', daysAgo(30)]), h.sandbox, /last 30 days/);
    const early = await h.run(['report', '--from', daysAgo(40)]);
    expect(early.stderr).toMatch(/deliverability/);
    expectUsageError(await h.run(['report', '--to', utc(Date.now() + DAY)]), h.sandbox, /future/);
    expectUsageError(await h.run(['report', '--from', daysAgo(1), '--to', daysAgo(3)]), h.sandbox, /after/);
    expectUsageError(await h.run(['report', '--from', '2026-02-30']), h.sandbox, /not a date/);
    expectUsageError(await h.run(['report', '--by', 'mailbox']), h.sandbox, /campaign, client/);
    expectUsageError(await h.run(['report', '--inactive']), h.sandbox, /active clients only/);
    expectUsageError(await h.run(['report', '--columns', 'nope']), h.sandbox, /nope/);

    const first = active()[0]?.id;
    const from = await h.run([
      'report',
      '--company',
      String(first),
      '--from',
      daysAgo(29),
      '--to',
      daysAgo(29),
    ]);
    expect(from.code, from.stderr).toBe(0);
    const toAlone = await h.run(['report', '--company', String(first), '--to', daysAgo(2)]);
    expect(toAlone.code, toAlone.stderr).toBe(0);
    const bodies = sent(h.sandbox)
      .filter((q) => q.method === 'POST')
      .map((q) => q.body);
    expect(bodies).toEqual([
      { from: daysAgo(29), to: daysAgo(29) },
      { from: daysAgo(29), to: daysAgo(2) },
    ]);
  });

  it('--html: a missing folder is refused before any request; the page names the agency from /v1/me', async () => {
    expectUsageError(
      await h.run(['report', '--html', '/nonexistent-folder/report.html']),
      h.sandbox,
      /--html/,
    );
    const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const folder = mkdtempSync(join(tmpdir(), 'report-'));
    const file = join(folder, 'acme.html');
    const first = active()[0];
    const r = await h.run(['report', '--company', String(first?.id), '--html', file]);
    const html = readFileSync(file, 'utf8');
    rmSync(folder, { recursive: true, force: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`HTML report written to ${file}`);
    const agency = h.sandbox.store.mainAgency.name;
    expect(html).toContain(`<p class="agency">${agency}</p>`);
    expect(html).toContain(`${daysAgo(29)} to ${today()} (UTC)`);
    expect(sent(h.sandbox).filter((q) => q.path === '/v1/me')).toHaveLength(1);
  });

  it('the sandbox refuses a period beyond the 30 days with 400 in the v2 error body', async () => {
    const company = active()[0]?.id;
    const refused = await direct(h.sandbox, '/v2/reports/campaigns', {
      company,
      body: { from: daysAgo(30), to: today() },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      status: 400,
      detail: 'Reports can be generated from the last 30 days',
    });
    expect(typeof refused.body.title).toBe('string');
  });

  it('faults end only the client concerned: failed, never ready, a lost answer sent again, 429s', async () => {
    const [a, b, c, d, e] = active().map((company) => company.id) as [number, number, number, number, number];
    h.sandbox.addFault({ kind: 'report-failed', method: 'GET', path: '/v2/reports/*', company: a });
    h.sandbox.addFault({
      kind: 'report-pending',
      method: 'GET',
      path: '/v2/reports/*',
      company: b,
      times: 0,
    });
    h.sandbox.addFault({ kind: 'reset-after', method: 'POST', path: '/v2/reports/campaigns', company: c });
    h.sandbox.addFault({ kind: 'status', status: 429, method: 'GET', path: '/v2/reports/*', company: d });
    h.sandbox.addFault({
      kind: 'report-pending',
      method: 'GET',
      path: '/v2/reports/*',
      company: e,
      times: 2,
    });
    const r = await h.run(['report', '--by', 'client', '--wait', '2', '--json']);
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.failed.map((f: { company_id: number }) => f.company_id)).toEqual([a, b]);
    expect(report.failed[0].error.message).toMatch(/could not make the report \(status FAILED\)/);
    expect(report.failed[1].error.message).toMatch(/not ready after 2 s/);
    // The reason is data for every host: no command-line flag in it (MCP says wait, not --wait).
    expect(report.failed[1].error.message).not.toMatch(/--[a-z]/);
    const done = report.clients.map((client: { company_id: number }) => client.company_id);
    expect(done).toEqual(
      active()
        .map((company) => company.id)
        .filter((id) => id !== a && id !== b),
    );
    expect(r.stderr).toMatch(/2 of \d+ clients could not be reported/);
    const posts = sent(h.sandbox).filter(
      (q) => q.method === 'POST' && q.headers['x-company-id'] === String(c),
    );
    expect(posts).toHaveLength(2);
    const polls = (id: number) =>
      sent(h.sandbox).filter((q) => q.method === 'GET' && q.headers['x-company-id'] === String(id));
    expect(polls(e)).toHaveLength(3);
    expect(polls(d).map((q) => q.status)).toEqual([429, 200]);
  });

  it('an inactive client named is a failure of its own (exit 5), the others are printed', async () => {
    const inactive = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: false })[0];
    const first = active()[0];
    if (!inactive || !first) throw new Error('no inactive client');
    const r = await h.run([
      'report',
      '--by',
      'client',
      '--company',
      String(inactive.id),
      '--company',
      String(first.id),
    ]);
    expect(r.code).toBe(5);
    expect(lines(r.stdout).map((line) => Number(line.split('\t')[0]))).toEqual([first.id]);
    expect(r.stderr).toContain(String(inactive.id));
  });

  it('a client that sent nothing is a row of zeros with --by client, and has no row --by campaign', async () => {
    const answer = await direct(h.sandbox, '/v2/agency/companies', {
      body: { companies: [{ name: 'Quiet Client' }] },
    });
    const created = answer.body.companies[0] as { id: number };
    h.sandbox.reset();
    const r = await h.run(['report', '--by', 'client', '--company', String(created.id)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      `${created.id}\tQuiet Client\t${['0', '0', '0', '0', '0', '0', '0', '0', '0', '0'].join('\t')}\t\t\t\t\n`,
    );
    const byCampaign = await h.run(['report', '--company', String(created.id)]);
    expect(byCampaign.stdout).toBe('');
  });
});
