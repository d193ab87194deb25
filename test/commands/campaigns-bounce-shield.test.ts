/**
 * `campaigns bounce-shield` against the sandbox, in-process: thresholds listed (null = the service's
 * default), set where they differ (PUT), cleared where one is set (DELETE), nothing sent by --dry-run
 * or a second run, the range checked locally, a 409 and a lost answer each on its row.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { campaignsOf } from '../../src/sandbox/resources/campaigns.js';
import { unsupportedCampaign } from '../../src/sandbox/seed/campaigns.js';
import { accountOfCompany } from '../../src/sandbox/types.js';
import { clientContext } from '../helpers/campaigns.js';
import { type Harness, startHarness } from '../helpers/cli.js';
import { expectUsageError, lines } from '../helpers/core.js';
import { readTable } from '../helpers/table-text.js';
import { plain, runOnTerminal } from '../helpers/terminal-run.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness({ seed: { companies: 26 } }, { inProcess: true });
});
afterEach(() => h.close());

const writes = () => h.requests().filter((q) => q.method !== 'GET');
const rows = (stdout: string) => lines(stdout).map((line) => line.split('\t'));
/** `campaigns bounce-shield --company <id>` with the rest of the arguments. */
const shield = (company: { id: number }, ...args: string[]) =>
  h.run(['campaigns', 'bounce-shield', '--company', String(company.id), ...args]);

/** A client whose campaigns the v2 API all accepts, with at least two. */
function plainClient() {
  for (const company of h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true })) {
    const campaigns = campaignsOf(clientContext(h.sandbox, company.id));
    if (campaigns.length >= 2 && !campaigns.some((c) => unsupportedCampaign(c.id)))
      return { company, campaigns };
  }
  throw new Error('no plain client');
}

describe('campaigns bounce-shield', () => {
  it('lists, sets where it differs, and a second run sends nothing', async () => {
    const { company, campaigns } = plainClient();
    const [first, second] = campaigns;
    h.sandbox.store.updateCampaign(accountOfCompany(company.id), first?.id as number, { threshold: 3 });
    const listed = await shield(company);
    expect(listed.code, listed.stderr).toBe(0);
    // Every campaign its row: the one set shows 3, the others none (the service's default).
    const shown = (c: (typeof campaigns)[number]) => (c === first ? '3' : '');
    expect(rows(listed.stdout)).toEqual(
      campaigns.map((c) => [String(company.id), String(c.id), c.name, shown(c), shown(c), 'unchanged']),
    );
    expect(writes()).toEqual([]);

    h.sandbox.reset();
    const dry = await shield(company, '--set', '3', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(writes()).toEqual([]);
    expect(rows(dry.stdout).map((r) => r[5])).toEqual(
      campaigns.map((c) => (c === first ? 'unchanged' : 'would-set')),
    );

    const set = await shield(company, '--set', '3', '--json');
    expect(set.code, set.stderr).toBe(0);
    const others = campaigns.filter((c) => c !== first);
    expect(writes().map((q) => [q.method, q.path, q.body])).toEqual(
      others.map((c) => [
        'PUT',
        `/rest/v2/campaigns/${c.id}/bounce_shield/threshold`,
        { bounce_rate_threshold: 3 },
      ]),
    );
    expect(JSON.parse(set.stdout)[1]).toEqual({
      company_id: company.id,
      campaign_id: second?.id,
      campaign: second?.name,
      threshold_before: null,
      threshold: 3,
      result: 'set',
    });

    h.sandbox.reset();
    const again = await shield(company, '--set', '3');
    expect(again.code, again.stderr).toBe(0);
    expect(writes()).toEqual([]);

    // --set 2 where none is set changes nothing: the default is 2 %.
    h.sandbox.reset();
    const clear = await shield(company, '--clear', '--campaign', String(first?.id));
    expect(clear.code, clear.stderr).toBe(0);
    expect(writes().map((q) => q.method)).toEqual(['DELETE']);
    h.sandbox.reset();
    const two = await shield(company, '--campaign', String(first?.id), '--set', '2');
    expect(two.code, two.stderr).toBe(0);
    expect(writes()).toEqual([]);
    // Seven runs, and the first run of the file loads the program: time on a busy machine.
  }, 90_000);

  it('a listing on a terminal says percents and the default, and what it found; CSV keeps the numbers', async () => {
    const { company, campaigns } = plainClient();
    const [first] = campaigns;
    h.sandbox.store.updateCampaign(accountOfCompany(company.id), first?.id as number, { threshold: 3 });
    const args = ['campaigns', 'bounce-shield', '--company', String(company.id)];
    const screen = await runOnTerminal(h, args, { columns: 120 });
    expect(screen.code, screen.stderr).toBe(0);
    const table = readTable(plain(screen.stdout), ['CAMPAIGN ID', 'THRESHOLD']);
    expect(table.rows.map((row) => row.THRESHOLD?.join(' '))).toEqual(
      campaigns.map((c) => (c === first ? '3%' : 'default (2%)')),
    );
    const others = campaigns.length - 1;
    expect(plain(screen.stderr)).toContain(
      `${campaigns.length} campaigns: 1 with its own threshold, ${others} at the default (2%).`,
    );
    expect(plain(screen.stderr)).not.toContain('unchanged');
    // A spreadsheet gets the number, and nothing for the default.
    const csv = await h.run([...args, '--csv', '--columns', 'campaign_id,threshold']);
    expect(csv.stdout.split('\r\n').slice(1, -1)).toEqual(
      campaigns.map((c) => `${c.id},${c === first ? '3' : ''}`),
    );
  });

  it('a listing names a threshold it could not read as not read, never as the default', async () => {
    const company = h.sandbox.store
      .companies(MAIN_AGENCY_ID, { active: true })
      .find((c) => campaignsOf(clientContext(h.sandbox, c.id)).some((x) => unsupportedCampaign(x.id)));
    if (!company) throw new Error('no seeded client with an unsupported campaign');
    const refused = campaignsOf(clientContext(h.sandbox, company.id)).filter((c) =>
      unsupportedCampaign(c.id),
    );
    const screen = await runOnTerminal(h, ['campaigns', 'bounce-shield', '--company', String(company.id)], {
      columns: 160,
    });
    expect(screen.code).toBe(5);
    const table = readTable(plain(screen.stdout), ['CAMPAIGN ID', 'THRESHOLD']);
    const failed = table.rows.filter((row) => row.RESULT?.[0] === 'failed');
    expect(failed.map((row) => row.THRESHOLD?.join(''))).toEqual(refused.map(() => ''));
    expect(plain(screen.stderr).replace(/\s+/g, ' ')).toContain(`, ${refused.length} not read.`);
  });

  it('a 409 campaign fails its row with the service words; the others are set; exit 5', async () => {
    const company = h.sandbox.store
      .companies(MAIN_AGENCY_ID, { active: true })
      .find((c) => campaignsOf(clientContext(h.sandbox, c.id)).some((x) => unsupportedCampaign(x.id)));
    if (!company) throw new Error('no seeded client with an unsupported campaign');
    const campaigns = campaignsOf(clientContext(h.sandbox, company.id));
    const r = await shield(company, '--set', '4');
    expect(r.code).toBe(5);
    // Every campaign has its row: the refused ones failed, the others set (the seed has both).
    expect(rows(r.stdout).map((row) => Number(row[1]))).toEqual(campaigns.map((c) => c.id));
    expect(new Set(rows(r.stdout).map((row) => row[5]))).toEqual(new Set(['failed', 'set']));
    for (const row of rows(r.stdout)) {
      if (unsupportedCampaign(Number(row[1]))) {
        expect(row[5]).toBe('failed');
        expect(row[6]).toContain('API_UNSUPPORTED_CAMPAIGN_FEATURES');
      } else expect(row[5]).toBe('set');
    }
  });

  it('an answer lost after the threshold was set: read back, reported set; one PUT', async () => {
    const { company, campaigns } = plainClient();
    const id = campaigns[0]?.id as number;
    h.sandbox.addFault({
      kind: 'reset-after',
      method: 'PUT',
      path: `/v2/campaigns/${id}/bounce_shield/threshold`,
    });
    const r = await shield(company, '--campaign', String(id), '--set', '5');
    expect(r.code, r.stderr).toBe(0);
    expect(rows(r.stdout)[0]?.[5]).toBe('set');
    expect(r.stderr).toMatch(/was lost; read again, it is done/);
    expect(writes()).toHaveLength(1);
  });

  it.each([
    [['--set', '0'], /whole percent from 1 to 99/],
    [['--set', '100'], /whole percent from 1 to 99/],
    [['--set', 'abc'], /whole percent/],
    [['--set', '3', '--clear'], /cannot be combined/],
    [['--campaign', 'x'], /--campaign id/],
  ])('bad input %j: exit 2, nothing sent', async (args, message) => {
    expectUsageError(await h.run(['campaigns', 'bounce-shield', '--all', ...args]), h.sandbox, message);
  });
});
