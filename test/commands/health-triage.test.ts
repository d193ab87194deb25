/**
 * Triage in `agency health` against the sandbox: --severity and --check keep some problems (and
 * --fail-on judges only those), the owner column from the company list, each problem's next step,
 * and the exit when an --html file cannot be written after the check (1, after the report, even
 * with problems found).
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/cli.js';
import { directAllPages, expectUsageError, lines, sent, startCoreHarness } from '../helpers/core.js';
import { testDir } from '../helpers/temp-dir.js';

interface Problem {
  company_id: number;
  name: string;
  owner?: string;
  severity: string;
  check: string;
  detail: string;
}
interface Report {
  problems: Problem[];
}

describe('health triage', () => {
  let h: Harness;
  /** Every problem of a fresh sandbox, as `health --json --fail-on none` reports them. */
  let all: Problem[];
  beforeAll(async () => {
    // 24 companies: enough for a client with problems of every severity, a mailbox error and a
    // campaign error, and few enough that the whole agency's health is read quickly.
    h = await startCoreHarness({ seed: { companies: 24 } }, { inProcess: true });
    const r = await h.run(['health', '--json', '--fail-on', 'none']);
    all = (JSON.parse(r.stdout) as Report).problems;
  });
  afterAll(() => h.close());
  beforeEach(() => h.sandbox.reset());

  const json = async (...args: string[]) => {
    const r = await h.run(['health', '--json', ...args]);
    return { r, problems: (JSON.parse(r.stdout) as Report).problems };
  };
  /** A client with problems of every severity. */
  const mixed = () => {
    const ids = [...new Set(all.map((p) => p.company_id))];
    const id = ids.find(
      (c) => new Set(all.filter((p) => p.company_id === c).map((p) => p.severity)).size === 3,
    );
    if (id === undefined) throw new Error('no client with problems of every severity');
    return id;
  };

  it('--severity warning keeps warnings and critical problems, piped and in --json; the summary says what was left out', async () => {
    const id = String(mixed());
    const everything = all.filter((p) => String(p.company_id) === id);
    const { problems } = await json('--company', id, '--severity', 'warning', '--fail-on', 'none');
    // Named by id, the owner is not read (no owner column asked for).
    expect(problems).toEqual(everything.filter((p) => p.severity !== 'info').map(({ owner, ...p }) => p));
    const piped = await h.run(['health', '--company', id, '--severity', 'critical', '--fail-on', 'none']);
    expect(piped.code, piped.stderr).toBe(0);
    const rows = lines(piped.stdout).map((line) => line.split('\t'));
    expect(rows.map((row) => row[2])).toEqual(
      everything.filter((p) => p.severity === 'critical').map(() => 'critical'),
    );
    const leftOut = everything.filter((p) => p.severity !== 'critical').length;
    expect(piped.stderr).toContain(
      `; ${leftOut} other problem${leftOut === 1 ? '' : 's'} left out (--severity, --check).`,
    );
  });

  it('--check keeps those checks (comma-separated, repeatable); --fail-on judges only what is kept', async () => {
    const { r, problems } = await json('--check', 'no_webhook,no-running-campaign', '--check', 'NO_WEBHOOK');
    expect(problems.length).toBeGreaterThan(0);
    expect(problems).toEqual(
      // Worst first: both are info, so in the clients' order, as --json sorts them.
      all.filter((p) => p.check === 'no_webhook' || p.check === 'no_running_campaign'),
    );
    // Only info problems were kept: the critical ones the agency has do not fail the run.
    expect(all.some((p) => p.severity === 'critical')).toBe(true);
    expect(r.code, r.stderr).toBe(0);
    const critical = await json('--check', 'campaign_error');
    expect(critical.r.code).toBe(7);
    expect(critical.problems.every((p) => p.check === 'campaign_error')).toBe(true);
  });

  it.each([
    [
      ['--check', 'mailbox_eror'],
      /Unknown check "mailbox_eror" in --check; valid: unreadable, mailbox_error, .*\. Did you mean mailbox_error\?/,
    ],
    [['--check', ','], /--check needs a check name/],
    [['--severity', 'high'], /Unknown value "high" for --severity; valid: critical, warning, info/],
  ])('%j is a usage error: exit 2, nothing sent', async (args, message) => {
    expectUsageError(await h.run(['health', ...args]), h.sandbox, message);
  });

  it('the owner column: the client’s owner from the company list, only when --columns asks for it', async () => {
    const id = mixed();
    const companies = (await directAllPages(h.sandbox, '/v2/agency/companies')) as {
      id: number;
      owner: string;
    }[];
    const company = companies.find((c) => c.id === id);
    if (!company) throw new Error('no such company');
    h.sandbox.reset();
    const r = await h.run([
      'health',
      '--company',
      String(id),
      '--columns',
      'company_id,owner,check',
      '--fail-on',
      'none',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const rows = lines(r.stdout).map((line) => line.split('\t'));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.slice(0, 2)).toEqual([String(id), company.owner]);
    // Named by id, the client's owner is read from the company list; without the column it is not.
    expect(sent(h.sandbox).some((q) => q.path === '/v2/agency/companies')).toBe(true);
    h.sandbox.reset();
    const plain = await h.run(['health', '--company', String(id), '--fail-on', 'none']);
    expect(lines(plain.stdout).every((line) => line.split('\t').length === 5)).toBe(true);
    expect(sent(h.sandbox).some((q) => q.path === '/v2/agency/companies')).toBe(false);
    // Without targets the company list is read anyway: --json problems carry the owner.
    const owners = new Map(companies.map((c) => [c.id, c.owner]));
    expect(all.every((p) => p.owner === owners.get(p.company_id))).toBe(true);
  });

  it('each problem says what to do next where the operator can act', async () => {
    const mailbox = all.find((p) => p.check === 'mailbox_error');
    if (!mailbox) throw new Error('the seed has no mailbox error');
    expect(mailbox.detail).toMatch(/ — reconnect the mailbox in Woodpecker → Mailboxes$/);
    // A campaign with an error that is paused or stopped: the command that runs it again, once fixed;
    // a running one has nothing to resume.
    const campaignErrors = all.filter((p) => p.check === 'campaign_error');
    const statuses = new Map<string, string>();
    for (const id of new Set(campaignErrors.map((p) => p.company_id))) {
      const r = await h.run(['campaigns', 'list', '--company', String(id), '--json']);
      for (const c of JSON.parse(r.stdout) as { id: number; status: string }[])
        statuses.set(`${id}/${c.id}`, c.status);
    }
    const byStatus = (wanted: (status: string) => boolean) =>
      campaignErrors.filter((p) =>
        wanted(statuses.get(`${p.company_id}/${/^campaign (\d+) /.exec(p.detail)?.[1]}`) ?? ''),
      );
    const resumable = byStatus((s) => s === 'PAUSED' || s === 'STOPPED');
    const running = byStatus((s) => s === 'RUNNING');
    expect(resumable.length).toBeGreaterThan(0);
    for (const p of resumable) {
      const [, campaignId] = /^campaign (\d+) /.exec(p.detail) ?? [];
      // A Bounce Shield pause is resumed once its bounces are dealt with.
      const cause = /Bounce Shield/.test(p.detail) ? 'once the cause of the bounces is fixed' : 'once fixed';
      expect(p.detail).toMatch(
        new RegExp(
          ` — ${cause}: agency campaigns resume --company ${p.company_id} --campaign ${campaignId}$`,
        ),
      );
    }
    expect(resumable.some((p) => /Bounce Shield/.test(p.detail))).toBe(true);
    expect(running.length).toBeGreaterThan(0);
    for (const p of running) expect(p.detail).not.toContain('campaigns resume');
  });

  it('piped (TSV) and as CSV, a next step reads as the command line says it, as in --json', async () => {
    // TSV cells drop control characters, and once dropped them before the step's reference was said:
    // "— once fixed: argument 0".
    const step = all.find((p) => /campaigns resume/.test(p.detail));
    if (!step) throw new Error('the seed has no campaign to resume');
    for (const format of [[], ['--csv']]) {
      const r = await h.run(['health', '--company', String(step.company_id), '--fail-on', 'none', ...format]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(step.detail.slice(step.detail.indexOf(' — ')));
      expect(r.stdout).not.toMatch(/argument \d|[\uE000\uE001]/);
    }
  });

  it('an --html file that cannot be written once the check is done is exit 1 after the report, even with problems found', async () => {
    const id = String(all.find((p) => p.severity === 'critical')?.company_id);
    const dir = testDir('agency-health-gone-');
    const file = join(dir, 'health.html');
    // The folder is there when the run starts (checked before any request) and gone when the page is written.
    h.sandbox.addFault({ path: '/v2/mailboxes', kind: 'stall', stallMs: 400 });
    const running = h.run(['health', '--company', id, '--html', file]);
    for (let i = 0; i < 200 && !sent(h.sandbox).some((q) => q.path === '/v2/mailboxes'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    rmSync(dir, { recursive: true });
    const r = await running;
    expect(r.code).toBe(1);
    expect(lines(r.stdout).length).toBeGreaterThan(0);
    expect(lines(r.stdout).every((line) => line.startsWith(`${id}\t`))).toBe(true);
    expect(r.stderr).toMatch(/\d+ problems? at or above critical \(--fail-on critical\)\.\n/);
    expect(r.stderr).toContain(`error: Could not write the HTML report to ${file}`);
    expect(existsSync(file)).toBe(false);
  });
});
