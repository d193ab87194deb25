/**
 * `inventory` against the sandbox: one report over every company, gathered with the HQ key (agency
 * endpoints) and x-company-id (client accounts, several at once), each account within its queue
 * depth and the service's rate limit. The expected figures are read from the sandbox's own store:
 * a mailbox is an SMTP entry and the IMAP entry its imap_id names (counted once); an error is a
 * non-empty `error` other than the "Connected conditionally." warning, counted once per mailbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CompanyRecord, MAIN_AGENCY_ID, type Store } from '../../src/sandbox/index.js';
import { campaignsOf } from '../../src/sandbox/resources/campaigns.js';
import { type Harness, startHarness } from '../helpers/cli.js';
import { sharedInProcessHarness } from '../helpers/core.js';
import { plain, runOnTerminal } from '../helpers/terminal-run.js';

/** The program runs in this process (test/helpers/in-process.ts); spawn() still starts the binary. */
const IN_PROCESS = { inProcess: true };
/** AGENCY_MAX_IN_FLIGHT=1: strictly one request after another per account (the queue-less sandboxes below). */
const oneAtATime = { env: { AGENCY_MAX_IN_FLIGHT: '1' } };

const OLIVIA = 1;

type Failure = { error: { status: number | null; message: string } };

interface Report {
  id: number;
  name: string;
  owner: string;
  active: boolean;
  keys: { count: number } | Failure;
  mailboxes: { count: number; types: Record<string, number>; errors: number } | Failure;
  webhooks: { count: number; events: string[] } | Failure;
  email_accounts: { count: number; errors: number } | Failure;
  campaigns: { count: number; by_status: Record<string, number>; errors: number } | Failure;
}

type Entry = {
  id: number;
  type: string;
  details: { error?: string | null; imap_id?: number | null; email?: string; login?: string };
};

const failing = (error: string | null | undefined) => Boolean(error) && error !== 'Connected conditionally.';

/** The addresses of the mailboxes with an error (a pair with two errors is one). */
function broken(entries: readonly Entry[]): string[] {
  return groupsOf(entries)
    .filter((g) => g.some((e) => failing(e.details.error)))
    .map((g) => String(g[0]?.details.email ?? g[0]?.details.login).toLowerCase());
}

/** Mailboxes as pairs: each SMTP entry with the IMAP entry it names, and any entry nobody pairs. */
function pairs(entries: readonly Entry[]): { count: number; errors: number } {
  const groups = groupsOf(entries);
  return {
    count: groups.length,
    errors: groups.filter((g) => g.some((e) => failing(e.details.error))).length,
  };
}

function groupsOf(entries: readonly Entry[]): Entry[][] {
  const named = new Set(entries.filter((e) => e.type === 'SMTP').map((e) => e.details.imap_id));
  return entries
    .filter((e) => !(e.type === 'IMAP' && named.has(e.id)))
    .map((e) => [
      e,
      ...entries.filter((i) => i.type === 'IMAP' && e.type === 'SMTP' && i.id === e.details.imap_id),
    ]);
}

/** What the report must say about a company, from the sandbox's data. */
function expected(store: Store, c: CompanyRecord) {
  const hq = {
    level: 'hq' as const,
    account: 'hq:1',
    agency: store.mainAgency,
    user: store.user(OLIVIA) as never,
  };
  const client = {
    level: 'client' as const,
    account: `company:${c.id}`,
    agency: store.mainAgency,
    company: c,
  };
  const accounts = store.emailAccounts(hq, String(c.id)).content;
  const base = {
    id: c.id,
    name: c.name,
    owner: store.user(c.ownerId)?.name,
    active: c.active,
    keys: { count: store.keysOf(c.id, OLIVIA).length },
    email_accounts: pairs(accounts as Entry[]),
  };
  if (!c.active) {
    const inactive = { error: { status: 409, message: expect.stringContaining('409') } };
    // The HQ still reads an inactive company's email accounts: a broken one is a mailbox error.
    const problems = ['inactive', ...counted(broken(accounts as Entry[]).length, 'mailbox error')];
    return { ...base, mailboxes: inactive, webhooks: inactive, campaigns: inactive, problems };
  }
  const mailboxes = store.mailboxes(client);
  const types: Record<string, number> = {};
  for (const m of mailboxes) types[m.type] = (types[m.type] ?? 0) + 1;
  const webhooks = store.webhooks(client).webhooks;
  const campaigns = campaignsOf(client);
  const by_status: Record<string, number> = {
    RUNNING: 0,
    DRAFT: 0,
    EDITED: 0,
    PAUSED: 0,
    STOPPED: 0,
    COMPLETED: 0,
  };
  for (const campaign of campaigns) by_status[campaign.status] = (by_status[campaign.status] ?? 0) + 1;
  const mailboxErrors = pairs(mailboxes as Entry[]);
  const campaignErrors = campaigns.filter((x) => x.error).length;
  return {
    ...base,
    mailboxes: { ...mailboxErrors, types },
    webhooks: { count: webhooks.length, events: [...new Set(webhooks.map((w) => w.event))].sort() },
    campaigns: { count: campaigns.length, by_status, errors: campaignErrors },
    // What the PROBLEMS column says, worst first.
    problems: [
      // One broken mailbox is one problem, whichever of the two lists (or both) shows it.
      ...counted(
        new Set([...broken(mailboxes as Entry[]), ...broken(accounts as Entry[])]).size,
        'mailbox error',
      ),
      ...counted(campaignErrors, 'campaign error'),
    ],
  };
}

function counted(n: number, what: string): string[] {
  return n === 0 ? [] : [`${n} ${what}${n === 1 ? '' : 's'}`];
}

// 101 companies: the fewest that make three pages of 50 (each company costs four or five requests).
describe('inventory over 101 companies (three pages of the list) (default queue of 6)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ seed: { companies: 101 }, latencyMs: 5 }, IN_PROCESS);
  });
  afterAll(() => h.close());

  it('--json reports every company; inactive ones are findings, not a crash; no 429 and never two requests at once per account', async () => {
    const companies = h.sandbox.store.companies(MAIN_AGENCY_ID);
    expect(companies).toHaveLength(101);
    expect(companies.some((c) => !c.active)).toBe(true);

    const r = await h.run(['inventory', '--concurrency', '8', '--json'], { timeoutMs: 60_000 });

    expect(r.stderr).not.toMatch(/429|error/i);
    expect(r.code).toBe(0);
    const reports = JSON.parse(r.stdout) as Report[];
    expect(reports).toEqual(companies.map((c) => expected(h.sandbox.store, c)));
    const inactive = companies.filter((c) => !c.active).length;
    expect(r.stderr).toContain(
      `Audited 101 companies; ${inactive} could not be read in full (${inactive} inactive).`,
    );

    const stats = h.sandbox.stats();
    expect(stats.rejected429).toBe(0);
    expect(Object.keys(stats.maxConcurrentByAccount)).toContain('hq:1');
    for (const [account, max] of Object.entries(stats.maxConcurrentByAccount)) {
      expect({ account, max }).toEqual({ account, max: 1 });
    }
    // Client accounts were read through the HQ key and x-company-id; agency endpoints without it.
    const requests = h.requests();
    for (const q of requests) {
      const clientRead = ['/rest/v2/mailboxes', '/rest/v1/webhooks', '/rest/v1/campaign_list'].includes(
        q.path,
      );
      expect(q.headers['x-company-id'] !== undefined).toBe(clientRead);
    }
    expect(requests.filter((q) => q.path === '/rest/v2/agency/companies')).toHaveLength(3);
    const ids = companies.map((c) => String(c.id)).sort();
    for (const path of ['/rest/v2/mailboxes', '/rest/v1/webhooks', '/rest/v1/campaign_list']) {
      const reads = requests.filter((q) => q.path === path).map((q) => q.headers['x-company-id'] as string);
      expect(reads.sort()).toEqual(ids);
    }

    // Several client accounts were read at once, and no more than --concurrency of them (plus HQ):
    // one connection per request in flight, at most 3 in flight per account (the HQ one included).
    expect(stats.connections).toBeGreaterThan(2);
    expect(stats.connections).toBeLessThanOrEqual(8 * 3 + 3);
  }, 90_000);
});

// 56 companies: the fewest whose seed holds every kind of row (1056 is the first inactive company with a
// broken email account, 1023 the first with several broken mailboxes), over two pages of the list.
describe('inventory with no queue at all (a second request on a busy account is refused at once)', () => {
  const shared = sharedInProcessHarness({ seed: { companies: 56 }, latencyMs: 5, queueLimit: 0 });

  it('prints one row per company, inactive ones marked, no progress line when piped, and no account ever had two requests in flight', async () => {
    const companies = shared.h.sandbox.store.companies(MAIN_AGENCY_ID);
    expect(companies.some((c) => !c.active && expected(shared.h.sandbox.store, c).problems.length > 1)).toBe(
      true,
    );

    const r = await shared.h.run(['inventory', '--concurrency', '8'], oneAtATime);

    expect(r.code).toBe(0);
    // Piped: no progress line (the test on a terminal below shows it there).
    expect(r.stderr).not.toContain('audited…');
    // Any overlap on one account (the HQ one included) would have been answered 429 here.
    expect(shared.h.sandbox.stats().rejected429).toBe(0);
    expect(shared.h.requests().every((q) => q.status !== 429)).toBe(true);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t'));
    // id, name, active, keys, mailboxes, mailbox types, mailbox errors, webhooks, email accounts,
    // campaigns by status (documented order, zeros left out), campaigns with an error, problems
    expect(rows.map((row) => Number(row[0]))).toEqual(companies.map((c) => c.id));
    for (const c of companies) {
      const row = rows.find((cells) => Number(cells[0]) === c.id) as string[];
      const want = expected(shared.h.sandbox.store, c);
      expect(row.slice(1, 4)).toEqual([c.name, String(c.active), String(want.keys.count)]);
      expect(row[8]).toBe(String(want.email_accounts.count));
      if (!c.active) {
        expect(row.slice(4, 8)).toEqual(['inactive', 'inactive', 'inactive', 'inactive']);
        expect(row.slice(9, 11)).toEqual(['inactive', 'inactive']);
      } else {
        const k = want.campaigns as { by_status: Record<string, number>; errors: number };
        const statuses = Object.entries(k.by_status)
          .filter(([, n]) => n > 0)
          .map(([status, n]) => `${status}:${n}`)
          .join(',');
        expect(row.slice(9, 11)).toEqual([statuses, String(k.errors)]);
        const m = want.mailboxes as { count: number; types: Record<string, number>; errors: number };
        const types = Object.keys(m.types)
          .sort()
          .map((t) => `${t}:${m.types[t]}`)
          .join(',');
        expect(row.slice(4, 7)).toEqual([String(m.count), types, String(m.errors)]);
        expect(row[7]).toBe((want.webhooks as { events: string[] }).events.join(','));
      }
      expect(row[11] ?? '').toBe(want.problems.join(', '));
    }
  });

  it('printed a row at a time (over 20 companies), an inactive row says "inactive" whole in every column, even narrow ones', async () => {
    // --columns all at 80: the headers wrap between their words, and a count column is as narrow as
    // its longest header word (7, `MAILBOX`); its cell for an inactive company is 8 wide.
    const tty = await runOnTerminal(shared.h, ['inventory', '--limit', '25', '--columns', 'all'], {
      columns: 80,
      ...oneAtATime,
    });
    // Across the agency an inactive company is a finding, not a failure.
    expect(tty.code, tty.stderr).toBe(0);
    const screen = plain(tty.stdout);
    expect(screen).toMatch(/^1007 .*inactive/m);
    expect(screen).not.toMatch(/inactiv(?!e)/);
  });

  it('shows a progress line when stderr is a terminal (and only then: the piped run above shows none)', async () => {
    // The program in this process on a fake terminal (the binary's own terminal is test/e2e/tty.test.ts's).
    // --limit 5: the list's first page of two (the listing's progress line), then 5 companies audited
    // (their progress line), without auditing the 51 others.
    const tty = await runOnTerminal(shared.h, ['inventory', '--concurrency', '4', '--limit', '5'], {
      columns: 200,
      ...oneAtATime,
    });
    expect(tty.code, tty.stderr).toBe(0);
    // A spinner, the count and the total, each redrawing the same line.
    expect(tty.stderr).toContain('\r\u001b[2K');
    expect(tty.stderr).toMatch(/\S \d+ of 5 companies audited…/);
    // ... and while the company list itself is read (the first of two pages of 50).
    expect(tty.stderr).toMatch(/\S 50 of 56 companies listed…/);
    // A table with a header on a terminal (bold: without its colour codes).
    expect(plain(tty.stdout)).toMatch(/ID\s+NAME\s+ACTIVE\s+KEYS/);
    expect(shared.h.requests().filter((q) => q.path === '/rest/v2/agency/companies')).toHaveLength(1);
  });
});

// The same queue-less service with 14 companies (two inactive, four with a campaign error, two with a
// mailbox error): what these tests prove does not grow with the fleet, and each company costs four or
// five requests. The 56 above are for two pages of the list and every kind of row seeded.
describe('inventory with no queue at all, over a smaller agency', () => {
  const shared = sharedInProcessHarness({ seed: { companies: 14 }, latencyMs: 5, queueLimit: 0 });

  it('at the default depth the 429s of a queue-less service are retried one at a time: the same full report', async () => {
    const companies = shared.h.sandbox.store.companies(MAIN_AGENCY_ID);

    const r = await shared.h.run(['inventory', '--concurrency', '8', '--json'], { timeoutMs: 60_000 });

    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(companies.map((c) => expected(shared.h.sandbox.store, c)));
    // A company's client reads are asked for together, so the queue-less service did refuse some.
    expect(shared.h.sandbox.stats().rejected429).toBeGreaterThan(0);
  }, 90_000);

  it('--active audits only the active companies', async () => {
    const active = shared.h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true });

    const r = await shared.h.run(['inventory', '--active', '--json'], oneAtATime);

    expect(r.code).toBe(0);
    const reports = JSON.parse(r.stdout) as Report[];
    expect(reports.map((c) => c.id)).toEqual(active.map((c) => c.id));
    expect(reports.every((c) => 'count' in c.mailboxes && 'count' in c.webhooks)).toBe(true);
    expect(shared.h.requests().find((q) => q.path === '/rest/v2/agency/companies')?.query.active).toBe(
      'true',
    );
    expect(shared.h.sandbox.stats().rejected429).toBe(0);
  });

  it('a company that fails for another reason is in the report, and the exit code says so', async () => {
    const [victim] = shared.h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true }).slice(3);
    const id = victim?.id as number;
    shared.h.sandbox.addFault({
      method: 'GET',
      path: `/v2/agency/companies/${id}/email_accounts`,
      kind: 'status',
      status: 500,
      times: 0,
    });

    const r = await shared.h.run(['inventory', '--json'], oneAtATime);

    expect(r.code).toBe(1);
    const reports = JSON.parse(r.stdout) as Report[];
    expect(reports).toHaveLength(shared.h.sandbox.store.companies(MAIN_AGENCY_ID).length);
    const row = reports.find((c) => c.id === id);
    expect(row?.email_accounts).toEqual({ error: { status: 500, message: expect.stringContaining('500') } });
    expect(row?.mailboxes).toEqual(expected(shared.h.sandbox.store, victim as CompanyRecord).mailboxes);
    // Grouped by reason (issue 14): the reason, then the companies that failed for it.
    expect(r.stderr).toContain('1 company could not be read for reasons other than being inactive:');
    expect(r.stderr).toMatch(new RegExp(`\\n {2}1 failed: 500 — .*\\n {4}company ${id}\\n`));
  });

  it('rejects a bad --concurrency before sending anything (exit 2)', async () => {
    for (const value of ['0', 'many', '33']) {
      const r = await shared.h.run(['inventory', '--concurrency', value]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--concurrency');
    }
    expect(shared.h.requests()).toHaveLength(0);
  });
});
