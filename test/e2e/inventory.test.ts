/**
 * `inventory` against the sandbox: one report over every company, gathered with the HQ key (agency
 * endpoints, one request at a time) and x-company-id (client accounts, several at once), within the
 * service's rate limit. The expected figures are read from the sandbox's own store.
 */
import { spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CompanyRecord, MAIN_AGENCY_ID, type Store } from '../../src/sandbox/index.js';
import { BIN, type Harness, startHarness } from '../helpers/cli.js';

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
    email_accounts: { count: accounts.length, errors: accounts.filter((a) => a.details.error).length },
  };
  if (!c.active) {
    const inactive = { error: { status: 409, message: expect.stringContaining('409') } };
    return { ...base, mailboxes: inactive, webhooks: inactive };
  }
  const mailboxes = store.mailboxes(client);
  const types: Record<string, number> = {};
  for (const m of mailboxes) types[m.type] = (types[m.type] ?? 0) + 1;
  const webhooks = store.webhooks(client).webhooks;
  return {
    ...base,
    mailboxes: { count: mailboxes.length, types, errors: mailboxes.filter((m) => m.details.error).length },
    webhooks: { count: webhooks.length, events: [...new Set(webhooks.map((w) => w.event))].sort() },
  };
}

describe('inventory over 300 companies (default queue of 6)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ seed: { companies: 300 }, latencyMs: 5 });
  });
  afterAll(() => h.close());

  it('--json reports every company; inactive ones are findings, not a crash; no 429 and never two requests at once per account', async () => {
    const companies = h.sandbox.store.companies(MAIN_AGENCY_ID);
    expect(companies).toHaveLength(300);
    expect(companies.some((c) => !c.active)).toBe(true);

    const r = await h.run(['inventory', '--concurrency', '8', '--json'], { timeoutMs: 60_000 });

    expect(r.stderr).not.toMatch(/429|error/i);
    expect(r.code).toBe(0);
    const reports = JSON.parse(r.stdout) as Report[];
    expect(reports).toEqual(companies.map((c) => expected(h.sandbox.store, c)));
    const inactive = companies.filter((c) => !c.active).length;
    expect(r.stderr).toContain(
      `Audited 300 companies; ${inactive} could not be read in full (${inactive} inactive).`,
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
      const clientRead = q.path === '/rest/v2/mailboxes' || q.path === '/rest/v1/webhooks';
      expect(q.headers['x-company-id'] !== undefined).toBe(clientRead);
    }
    const ids = companies.map((c) => String(c.id)).sort();
    for (const path of ['/rest/v2/mailboxes', '/rest/v1/webhooks']) {
      const reads = requests.filter((q) => q.path === path).map((q) => q.headers['x-company-id'] as string);
      expect(reads.sort()).toEqual(ids);
    }

    // Several client accounts were read at once, and no more than --concurrency of them (plus HQ):
    // one connection per request in flight (the company list: up to 3 pages in flight).
    expect(stats.connections).toBeGreaterThan(2);
    expect(stats.connections).toBeLessThanOrEqual(8 + 1 + 3);
  }, 90_000);
});

describe('inventory with no queue at all (a second request on a busy account is refused at once)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ seed: { companies: 60 }, latencyMs: 5, queueLimit: 0 });
  });
  afterAll(() => h.close());
  beforeEach(() => h.sandbox.reset());

  it('prints one row per company, inactive ones marked, and no account ever had two requests in flight', async () => {
    const companies = h.sandbox.store.companies(MAIN_AGENCY_ID);

    const r = await h.run(['inventory', '--concurrency', '8']);

    expect(r.code).toBe(0);
    // Any overlap on one account (the HQ one included) would have been answered 429 here.
    expect(h.sandbox.stats().rejected429).toBe(0);
    expect(h.requests().every((q) => q.status !== 429)).toBe(true);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t'));
    // id, name, active, keys, mailboxes, mailbox types, mailbox errors, webhooks, email accounts
    expect(rows.map((row) => Number(row[0]))).toEqual(companies.map((c) => c.id));
    for (const c of companies) {
      const row = rows.find((cells) => Number(cells[0]) === c.id) as string[];
      const want = expected(h.sandbox.store, c);
      expect(row.slice(1, 4)).toEqual([c.name, String(c.active), String(want.keys.count)]);
      expect(row[8]).toBe(String(want.email_accounts.count));
      if (!c.active) {
        expect(row.slice(4, 8)).toEqual(['inactive', 'inactive', 'inactive', 'inactive']);
      } else {
        const m = want.mailboxes as { count: number; types: Record<string, number>; errors: number };
        const types = Object.keys(m.types)
          .sort()
          .map((t) => `${t}:${m.types[t]}`)
          .join(',');
        expect(row.slice(4, 7)).toEqual([String(m.count), types, String(m.errors)]);
        expect(row[7]).toBe((want.webhooks as { events: string[] }).events.join(','));
      }
    }
  });

  it('--active audits only the active companies', async () => {
    const active = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true });

    const r = await h.run(['inventory', '--active', '--json']);

    expect(r.code).toBe(0);
    const reports = JSON.parse(r.stdout) as Report[];
    expect(reports.map((c) => c.id)).toEqual(active.map((c) => c.id));
    expect(reports.every((c) => 'count' in c.mailboxes && 'count' in c.webhooks)).toBe(true);
    expect(h.requests().find((q) => q.path === '/rest/v2/agency/companies')?.query.active).toBe('true');
    expect(h.sandbox.stats().rejected429).toBe(0);
  });

  it('a company that fails for another reason is in the report, and the exit code says so', async () => {
    const [victim] = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true }).slice(3);
    const id = victim?.id as number;
    h.sandbox.addFault({
      method: 'GET',
      path: `/v2/agency/companies/${id}/email_accounts`,
      kind: 'status',
      status: 500,
      times: 0,
    });

    const r = await h.run(['inventory', '--json']);

    expect(r.code).toBe(1);
    const reports = JSON.parse(r.stdout) as Report[];
    expect(reports).toHaveLength(h.sandbox.store.companies(MAIN_AGENCY_ID).length);
    const row = reports.find((c) => c.id === id);
    expect(row?.email_accounts).toEqual({ error: { status: 500, message: expect.stringContaining('500') } });
    expect(row?.mailboxes).toEqual(expected(h.sandbox.store, victim as CompanyRecord).mailboxes);
    expect(r.stderr).toContain(`1 companies failed for reasons other than being inactive: ${id}.`);
  });

  it('rejects a bad --concurrency before sending anything (exit 2)', async () => {
    for (const value of ['0', 'many', '33']) {
      const r = await h.run(['inventory', '--concurrency', value]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--concurrency');
    }
    expect(h.requests()).toHaveLength(0);
  });

  it('shows a progress line only when stderr is a terminal', async () => {
    const piped = await h.run(['inventory']);
    expect(piped.stderr).not.toContain('audited…');

    // `script` (util-linux) runs the command on a pseudo-terminal; asynchronously, as the sandbox lives here.
    if (spawnSync('script', ['--version']).status !== 0) return;
    const tty = await new Promise<{ status: number | null; stdout: string }>((resolve, reject) => {
      // The pseudo-terminal starts with no size; give it a real one.
      const command = `stty cols 200 rows 50; "${process.execPath}" "${BIN}" inventory --concurrency 4`;
      const child = spawn('script', ['-qec', command, '/dev/null'], {
        env: { ...cleanEnv(), AGENCY_CONFIG_DIR: h.configDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('error', reject);
      child.on('close', (status) => {
        clearTimeout(timer);
        resolve({ status, stdout });
      });
    });
    expect(tty.status).toBe(0);
    // A spinner, the count and the total, each redrawing the same line.
    expect(tty.stdout).toContain('\r\u001b[2K');
    expect(tty.stdout).toMatch(/\S \d+ of 60 companies audited…/);
    // A table with a header on a terminal (bold: without its colour codes).
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing colour codes is the point
    const plain = tty.stdout.replace(/\u001b\[\d+m/g, '');
    expect(plain).toMatch(/ID\s+NAME\s+ACTIVE\s+KEYS/);
  });
});

/** The test runner's environment without the user's own agency settings. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('AGENCY_') && name !== 'NO_COLOR' && name !== 'FORCE_COLOR')
      env[name] = value;
  }
  return env;
}
