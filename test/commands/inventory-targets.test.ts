/**
 * `inventory` with the targets of the fleet commands: --company (id or exact name, repeatable) and
 * --file (ids or names, one per line, '-' = stdin); the default stays every company. Checked locally
 * before any request; the company list is read once; only the named companies are audited.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import type { Harness } from '../helpers/cli.js';
import {
  direct,
  expectUsageError,
  inactiveCompany,
  sent,
  sharedInProcessHarness,
  startCoreHarness,
} from '../helpers/core.js';

/** The program runs in this process (test/helpers/in-process.ts). */
const IN_PROCESS = { inProcess: true };

interface Report {
  id: number;
  name: string;
  campaigns: { count: number; by_status: Record<string, number>; errors: number } | { error: unknown };
}

/** The client-account paths inventory reads for each company (with x-company-id). */
const CLIENT_PATHS = ['/v2/mailboxes', '/v1/webhooks', '/v1/campaign_list'];

describe('inventory targets', () => {
  let h: Harness;
  beforeAll(async () => {
    // 51 companies: two pages of the company list (a name is looked up in all of it; 1051 is on page 2).
    h = await startCoreHarness({ seed: { companies: 51 } }, IN_PROCESS);
  });
  afterAll(() => h.close());
  beforeEach(() => h.sandbox.reset());

  const active = () => h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true });
  const audited = () => {
    const ids = sent(h.sandbox)
      .filter((q) => q.path === '/v1/campaign_list')
      .map((q) => Number(q.headers['x-company-id']));
    return [...new Set(ids)].sort((a, b) => a - b);
  };

  it('--company by id and by exact name: only those, in the order given, each once', async () => {
    const [a, b] = active().slice(5, 7);
    if (!a || !b) throw new Error('seed too small');
    const r = await h.run([
      'inventory',
      '--company',
      String(b.id),
      '--company',
      a.name,
      '--company',
      String(b.id),
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Report[]).map((c) => [c.id, c.name])).toEqual([
      [b.id, b.name],
      [a.id, a.name],
    ]);
    expect(audited()).toEqual([a.id, b.id].sort((x, y) => x - y));
    // The company list was read once, to the page that holds the name (both are on page 1 of 2).
    expect(
      sent(h.sandbox)
        .filter((q) => q.path === '/v2/agency/companies')
        .map((q) => q.query.page),
    ).toEqual(['1']);
    expect(r.stderr).toContain('Audited 2 companies.');
  });

  it('campaigns per company: count, by_status with every documented status, errors', async () => {
    const company = active()[2];
    if (!company) throw new Error('seed too small');
    const answer = await direct(h.sandbox, '/v1/campaign_list', { company: company.id });
    const list = (answer.status === 204 ? [] : answer.body) as { status: string; error: string | null }[];
    h.sandbox.reset();
    const r = await h.run(['inventory', '--company', String(company.id), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const by_status = { RUNNING: 0, DRAFT: 0, EDITED: 0, PAUSED: 0, STOPPED: 0, COMPLETED: 0 } as Record<
      string,
      number
    >;
    for (const c of list) by_status[c.status] = (by_status[c.status] ?? 0) + 1;
    expect((JSON.parse(r.stdout) as Report[])[0]?.campaigns).toEqual({
      count: list.length,
      by_status,
      errors: list.filter((c) => c.error).length,
    });
    for (const q of sent(h.sandbox).filter((q) => CLIENT_PATHS.includes(q.path))) {
      expect(q.headers['x-company-id']).toBe(String(company.id));
    }
  });

  it('--csv joins a list cell with "; " (docs/output.md), piped rows and the table with a comma', async () => {
    const json = await h.run(['inventory', '--company', '1001', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const [report] = JSON.parse(json.stdout) as {
      webhooks: { events: string[] };
      mailboxes: { types: Record<string, number> };
    }[];
    const events = report?.webhooks.events ?? [];
    const types = Object.entries(report?.mailboxes.types ?? {})
      .map(([type, n]) => `${type}:${n}`)
      .sort();
    // Two or more of each, or the separator is not seen.
    expect(events.length).toBeGreaterThan(1);
    expect(types.length).toBeGreaterThan(1);
    const columns = ['--columns', 'id,webhooks,mailbox_types'];
    const csv = await h.run(['inventory', '--company', '1001', '--csv', ...columns]);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toBe(`id,webhooks,mailbox_types\r\n1001,${events.join('; ')},${types.join('; ')}\r\n`);
    const piped = await h.run(['inventory', '--company', '1001', ...columns]);
    expect(piped.stdout).toBe(`1001\t${events.join(',')}\t${types.join(',')}\n`);
  });

  it('--file of ids and names (comments and blank lines skipped), also from stdin', async () => {
    const [a, b, c] = active().slice(10, 13);
    if (!a || !b || !c) throw new Error('seed too small');
    const file = join(h.configDir, '..', 'clients.txt');
    writeFileSync(file, `# weekly audit\n${a.id}\n\n  ${b.name}  \n`);
    const fromFile = await h.run(['inventory', '--file', file, '--company', String(c.id), '--json']);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect((JSON.parse(fromFile.stdout) as Report[]).map((r) => r.id)).toEqual([c.id, a.id, b.id]);

    h.sandbox.reset();
    const fromStdin = await h.run(['inventory', '--file', '-'], { input: `${b.id}\n` });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(fromStdin.stdout.split('\t')[0]).toBe(String(b.id));
    expect(audited()).toEqual([b.id]);
  });

  it('an inactive company named explicitly is in the report (409 parts) and its 409 is the exit code', async () => {
    const inactive = inactiveCompany(h.sandbox);
    const other = active()[0]?.id as number;
    const r = await h.run([
      'inventory',
      '--company',
      String(inactive.id),
      '--company',
      String(other),
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(5);
    const [report, fine] = JSON.parse(r.stdout) as Report[];
    expect(report?.campaigns).toEqual({ error: { status: 409, message: expect.stringContaining('409') } });
    expect(fine?.campaigns).toHaveProperty('count');
    // Grouped by reason, the companies under it (issue 14).
    expect(r.stderr).toContain('1 of the named companies could not be read in full:\n  1 failed: 409 ');
    expect(r.stderr).toContain(`\n    company ${inactive.id}\n`);
  });

  it('an id or a name the agency does not have: exit 4, nothing audited', async () => {
    const unknownId = await h.run(['inventory', '--company', '987654']);
    expect(unknownId.code).toBe(4);
    expect(unknownId.stdout).toBe('');
    expect(unknownId.stderr).toContain('987654');
    expect(audited()).toEqual([]);

    const unknownName = await h.run(['inventory', '--company', 'No Such Client Ltd', '--json']);
    expect(unknownName.code).toBe(4);
    expect(audited()).toEqual([]);
  });

  it('bad targets are refused before any request (exit 2)', async () => {
    expectUsageError(await h.run(['inventory', '--company', '0']), h.sandbox, /positive whole number/);
    expectUsageError(
      await h.run(['inventory', '--company', '12', '--active']),
      h.sandbox,
      /--company and --file/,
    );
    expectUsageError(
      await h.run(['inventory', '--file', '/nonexistent/clients.txt']),
      h.sandbox,
      /no such file/,
    );
    const onlyComments = join(h.configDir, '..', 'empty.txt');
    writeFileSync(onlyComments, '# nobody\n\n');
    expectUsageError(await h.run(['inventory', '--file', onlyComments]), h.sandbox, /names no company/);
  });

  it('help says what the default and --all each audit: every company vs the active ones', async () => {
    const help = (await h.run(['inventory', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--all the active companies only, as for fleet commands');
    expect(help).toContain(
      'Which companies: with no option, every company of the agency, active and inactive',
    );
    expect(help).toContain('--all and --active audit the active ones only');
    expect(help).not.toContain('Without --company or --file every company is audited');
  });

  it('--company <id> reads the company list only up to the page that names it', async () => {
    const onFirstPage = active()[0];
    const onSecondPage = active().find((c) => c.id >= 1051);
    if (!onFirstPage || !onSecondPage) throw new Error('seed too small');
    const companyPages = () =>
      sent(h.sandbox)
        .filter((q) => q.path === '/v2/agency/companies')
        .map((q) => q.query.page);
    const r = await h.run(['inventory', '--company', String(onFirstPage.id), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Report[]).map((c) => [c.id, c.name])).toEqual([
      [onFirstPage.id, onFirstPage.name],
    ]);
    // One page of the list, then the company's five reads (key list, email accounts, mailboxes,
    // webhooks, campaigns): 6 requests, where reading the whole list first cost one per page more.
    expect(companyPages()).toEqual(['1']);
    expect(sent(h.sandbox)).toHaveLength(6);
    h.sandbox.reset();
    const second = await h.run(['inventory', '--company', String(onSecondPage.id), '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(companyPages()).toEqual(['1', '2']);
  });
});

// --all audits every active company of the agency: 14 companies (two inactive) show it, and each costs
// five requests.
describe('inventory --all over a smaller agency', () => {
  const shared = sharedInProcessHarness({ seed: { companies: 14 } });

  it('--all audits every active company (like --active)', async () => {
    const active = shared.h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true });
    expect(active.length).toBeLessThan(shared.h.sandbox.store.companies(MAIN_AGENCY_ID).length);
    const r = await shared.h.run(['inventory', '--all', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Report[]).map((c) => c.id)).toEqual(active.map((c) => c.id));
    expect(sent(shared.h.sandbox).find((q) => q.path === '/v2/agency/companies')?.query.active).toBe('true');
  });
});
