/**
 * `webhooks subscribe | unsubscribe` (the program in-process) against the sandbox: the exact requests
 * (bodies, x-company-id, how many POSTs), one row per (company, event), idempotence, local checks
 * before any request, inactive companies, the service's limit of 3 per event, and exit codes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID, type RecordedRequest } from '../../src/sandbox/index.js';
import { type Harness, jsonError, startHarness } from '../helpers/cli.js';
import { readTable } from '../helpers/table-text.js';
import { plain, runOnTerminal } from '../helpers/terminal-run.js';

/** The program runs in this process (test/helpers/in-process.ts). */
const IN_PROCESS = { inProcess: true };

const HOOK = 'https://crm.example.com/hooks/woodpecker';
const SUBSCRIBE = '/rest/v1/webhooks/subscribe';
const UNSUBSCRIBE = '/rest/v1/webhooks/unsubscribe';
// Seeded companies: 1001 "Acme Ltd" (active), 1002 "Blue Harbor Dental" (active), 1007 inactive.
const ACME = 1001;
const BLUE = 1002;
const INACTIVE = 1007;

let h: Harness;
let scratch: string;
beforeAll(async () => {
  h = await startHarness({ seed: { companies: 12 } }, IN_PROCESS);
  scratch = mkdtempSync(join(tmpdir(), 'agency-webhooks-'));
});
afterAll(async () => {
  await h.close();
  rmSync(scratch, { recursive: true, force: true });
});
beforeEach(() => h.sandbox.reset());

/** `cli('webhooks subscribe --event x', '--url', url)`: the words, then arguments that may hold spaces. */
const cli = (words: string, ...args: string[]) => h.run([...words.split(' '), ...args]);
const posts = (): RecordedRequest[] => h.requests().filter((r) => r.method === 'POST');
const rows = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t'));

/** The account's webhooks as `agency webhooks list` shows them: "EVENT url" lines. */
async function listed(company: number | undefined): Promise<string[]> {
  const args = [
    'webhooks',
    'list',
    '--json',
    ...(company === undefined ? [] : ['--company', String(company)]),
  ];
  const r = await h.run(args);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { event: string; target_url: string }[]).map(
    (w) => `${w.event} ${w.target_url}`,
  );
}

describe('webhooks subscribe', () => {
  it('reads first, sends only the missing pairs (lower-case event, x-company-id), then changes nothing', async () => {
    const url = `${HOOK}/first`;
    const r = await cli(
      'webhooks subscribe --event prospect_replied --event PROSPECT_BOUNCED --url',
      url,
      '--company',
      String(ACME),
      '--company',
      'Blue Harbor Dental',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(rows(r.stdout)).toEqual([
      [String(ACME), 'PROSPECT_REPLIED', url, 'subscribed'],
      [String(ACME), 'PROSPECT_BOUNCED', url, 'subscribed'],
      [String(BLUE), 'PROSPECT_REPLIED', url, 'subscribed'],
      [String(BLUE), 'PROSPECT_BOUNCED', url, 'subscribed'],
    ]);
    const sent = posts();
    expect(sent).toHaveLength(4);
    for (const p of sent) expect(p.path).toBe(SUBSCRIBE);
    // Accounts run side by side; within one account the writes keep the order of --event.
    const byAccount = (id: number) =>
      sent.filter((p) => p.headers['x-company-id'] === String(id)).map((p) => p.body);
    expect(byAccount(ACME)).toEqual([
      { target_url: url, event: 'prospect_replied' },
      { target_url: url, event: 'prospect_bounced' },
    ]);
    expect(byAccount(BLUE)).toEqual(byAccount(ACME));
    expect(sent.map((p) => [p.headers['x-company-id'], p.body]).sort()).toEqual(
      [
        [String(ACME), { target_url: url, event: 'prospect_replied' }],
        [String(ACME), { target_url: url, event: 'prospect_bounced' }],
        [String(BLUE), { target_url: url, event: 'prospect_replied' }],
        [String(BLUE), { target_url: url, event: 'prospect_bounced' }],
      ].sort(),
    );
    // Each account's list was read, with its x-company-id.
    const reads = h.requests().filter((q) => q.method === 'GET' && /\/webhooks$/.test(q.path));
    expect(reads.map((q) => q.headers['x-company-id']).sort()).toEqual([String(ACME), String(BLUE)]);
    expect(await listed(ACME)).toEqual(
      expect.arrayContaining([`PROSPECT_REPLIED ${url}`, `PROSPECT_BOUNCED ${url}`]),
    );

    h.sandbox.reset();
    const again = await cli(
      'webhooks subscribe --event Prospect_Replied --event prospect_bounced --url',
      url,
      '--company',
      String(ACME),
      '--company',
      String(BLUE),
    );
    expect(again.code, again.stderr).toBe(0);
    expect(rows(again.stdout).map((row) => row[3])).toEqual(['exists', 'exists', 'exists', 'exists']);
    expect(posts()).toEqual([]);
  });

  it('--dry-run reads but sends no POST', async () => {
    const r = await cli(
      'webhooks subscribe --event prospect_interested --url',
      `${HOOK}/dry`,
      '--company',
      String(ACME),
      '--dry-run',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(rows(r.stdout)).toEqual([[String(ACME), 'PROSPECT_INTERESTED', `${HOOK}/dry`, 'would-subscribe']]);
    expect(posts()).toEqual([]);
    expect(await listed(ACME)).not.toContain(`PROSPECT_INTERESTED ${HOOK}/dry`);
  });

  it('several events at 60 and 80 columns: the event tells a company’s rows apart and stays, the URL (one for all) goes; one event: the event goes', async () => {
    const url = 'https://crm.example.com/hooks/woodpecker';
    const targets = ['--company', String(ACME), '--company', String(BLUE), '--company', String(INACTIVE)];
    const two = ['webhooks', 'subscribe', '--event', 'prospect_replied', '--event', 'campaign_completed'];
    for (const columns of [60, 80]) {
      const several = await runOnTerminal(h, [...two, '--url', url, ...targets, '--dry-run'], { columns });
      expect(several.code).toBe(5);
      const table = readTable(plain(several.stdout), ['COMPANY', 'EVENT', 'RESULT', 'REASON']).rows;
      expect(table.map((row) => `${row.COMPANY?.[0]} ${row.EVENT?.join('')}`)).toEqual(
        [ACME, BLUE, INACTIVE].flatMap((id) => [`${id} PROSPECT_REPLIED`, `${id} CAMPAIGN_COMPLETED`]),
      );
      // Each event whole on its line: REASON, already narrower than lines of 20, gives the width
      // ("Company 1007" / "is inactive" is still two lines).
      expect(
        table.map((row) => row.EVENT?.length),
        `${columns}`,
      ).toEqual(table.map(() => 1));
      // No row takes more than two lines: the URL is not squeezed beside the events and reasons.
      expect(plain(several.stdout).trimEnd().split('\n').length, `${columns}`).toBeLessThanOrEqual(1 + 6 * 2);
      expect(plain(several.stderr)).toContain('1 column hidden (target_url)');
    }
    // Wide enough, both are shown.
    const wide = await runOnTerminal(h, [...two, '--url', url, ...targets, '--dry-run'], { columns: 120 });
    expect(
      readTable(plain(wide.stdout), ['COMPANY', 'EVENT', 'TARGET URL', 'RESULT', 'REASON']).rows,
    ).toHaveLength(6);
    expect(plain(wide.stderr)).not.toContain('hidden');
    const one = [
      ...'webhooks subscribe --event prospect_replied --url'.split(' '),
      url,
      ...targets,
      '--dry-run',
    ];
    expect(plain((await runOnTerminal(h, one, { columns: 60 })).stderr)).toContain('1 column hidden (event)');
  });

  it('--json: one object per (company, event) with company_id as a number', async () => {
    const r = await cli(
      '--json webhooks subscribe --event email_opened --url',
      `${HOOK}/json`,
      '--company',
      String(BLUE),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { company_id: BLUE, event: 'EMAIL_OPENED', target_url: `${HOOK}/json`, result: 'subscribed' },
    ]);
  });

  it('without targets acts on the key’s own account: no x-company-id, empty company_id', async () => {
    const url = `${HOOK}/own`;
    const r = await cli('webhooks subscribe --event link_clicked --url', url);
    expect(r.code, r.stderr).toBe(0);
    expect(rows(r.stdout)).toEqual([['', 'LINK_CLICKED', url, 'subscribed']]);
    expect(posts().map((p) => p.headers['x-company-id'])).toEqual([undefined]);
    const json = await cli('--json webhooks subscribe --event link_clicked --url', url);
    expect(JSON.parse(json.stdout)).toEqual([
      { company_id: null, event: 'LINK_CLICKED', target_url: url, result: 'exists' },
    ]);
  });

  it('checks the URL and the event form before any request (exit 2, nothing sent)', async () => {
    const bad = [
      ['--event', 'prospect_replied', '--url', 'crm.example.com/hooks'],
      ['--event', 'prospect_replied', '--url', 'https://user:pw@crm.example.com/hooks'],
      ['--event', 'prospect_replied', '--url', `https://crm.example.com/${'x'.repeat(2050)}`],
      ['--event', 'ftp://x', '--url', HOOK],
      ['--event', 'prospect-replied', '--url', HOOK],
      ['--event', 'prospect_replied', '--url', HOOK, '--company', '0'],
      ['--url', HOOK],
      ['--event', 'prospect_replied'],
    ];
    for (const args of bad) {
      const r = await cli('webhooks subscribe', ...args, '--company', String(ACME));
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
    }
    expect(h.requests()).toEqual([]);
  });

  it('an unknown but well-formed event is a warning, and is sent', async () => {
    const r = await cli('webhooks subscribe --event brand_new_event --url', HOOK, '--company', String(ACME));
    expect(r.stderr).toMatch(/brand_new_event/);
    expect(posts().map((p) => p.body)).toEqual([{ target_url: HOOK, event: 'brand_new_event' }]);
  });

  it('--all skips inactive companies (exit 0); a named inactive company fails with the 409 (exit 5)', async () => {
    const url = `${HOOK}/all`;
    const all = await cli('webhooks subscribe --event campaign_completed --url', url, '--all');
    expect(all.code, all.stderr).toBe(0);
    const table = rows(all.stdout);
    expect(table).toHaveLength(12);
    expect(table.find((row) => row[0] === String(INACTIVE))?.[3]).toBe('skipped-inactive');
    expect(h.requests().some((q) => q.headers['x-company-id'] === String(INACTIVE))).toBe(false);
    expect(posts()).toHaveLength(table.filter((row) => row[3] === 'subscribed').length);

    h.sandbox.reset();
    const named = await cli(
      'webhooks subscribe --event campaign_completed --url',
      `${url}/2`,
      '--company',
      String(INACTIVE),
      '--company',
      String(ACME),
    );
    expect(named.code).toBe(5);
    const [inactiveRow, acmeRow] = rows(named.stdout);
    expect(inactiveRow?.slice(0, 4)).toEqual([String(INACTIVE), 'CAMPAIGN_COMPLETED', `${url}/2`, 'failed']);
    expect(inactiveRow?.[4]).toBeTruthy();
    expect(acmeRow?.[3]).toBe('subscribed');
  });

  it('--all on a terminal lists only what changed or failed, the rest counted; piped and --json list every row', async () => {
    const url = `${HOOK}/quiet`;
    const inactive = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: false }).length;
    const active = 12 - inactive;
    expect(inactive).toBeGreaterThan(0);
    const subscribe = ['webhooks', 'subscribe', '--event', 'prospect_maybe_later', '--url', url, '--all'];
    expect((await h.run(subscribe)).code).toBe(0);
    h.sandbox.reset();
    // ACME lost it since: one row changes, every other active company's already exists.
    h.sandbox.store.replaceWebhooks(`company:${ACME}`, []);
    const shown = await runOnTerminal(h, subscribe, { columns: 100 });
    expect(shown.code, shown.stderr).toBe(0);
    const table = readTable(plain(shown.stdout), ['COMPANY', 'RESULT']).rows;
    expect(table.map((row) => `${row.COMPANY?.[0]} ${row.RESULT?.[0]}`)).toEqual([`${ACME} subscribed`]);
    expect(plain(shown.stderr)).toContain(
      `1 subscribed. Not listed: ${active - 1} exists, ${inactive} skipped-inactive (--json lists every row).`,
    );
    const again = await runOnTerminal(h, subscribe, { columns: 100 });
    expect(again.stdout).toBe('');
    expect(plain(again.stderr)).toContain(
      `Nothing to do: ${active} exists, ${inactive} skipped-inactive (--json lists every row).`,
    );
    // Piped rows are a script's interface: every company, whatever its result.
    const piped = await h.run(subscribe);
    expect(rows(piped.stdout).map((row) => row[3])).toEqual(
      expect.arrayContaining(['exists', 'skipped-inactive']),
    );
    expect(rows(piped.stdout)).toHaveLength(12);
    expect(piped.stderr).toContain(`${active} exists, ${inactive} skipped-inactive.`);
    const json = await runOnTerminal(h, [...subscribe, '--json']);
    expect(JSON.parse(json.stdout)).toHaveLength(12);

    const unsubscribe = [
      'webhooks',
      'unsubscribe',
      '--event',
      'prospect_maybe_later',
      '--url',
      `${url}/none`,
      '--all',
    ];
    const none = await runOnTerminal(h, unsubscribe, { columns: 100 });
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toBe('');
    expect(plain(none.stderr)).toContain(
      `Nothing to do: ${active} absent, ${inactive} skipped-inactive (--json lists every row).`,
    );
    expect(rows((await h.run(unsubscribe)).stdout)).toHaveLength(12);
    // Only ACME's subscription was sent after the first run.
    expect(posts()).toHaveLength(1);
  });

  it('two events failing alike for one company: both rows counted, the company named once', async () => {
    const r = await cli(
      'webhooks subscribe --event prospect_replied --event prospect_bounced --url',
      `${HOOK}/twice`,
      '--company',
      String(INACTIVE),
      '--company',
      String(ACME),
      '--dry-run',
    );
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('error: 2 of 4 rows failed (see the rows marked failed).\n');
    expect(r.stderr).toMatch(new RegExp(`\\n {2}2 failed: 409 Conflict — .*\\n {4}company ${INACTIVE}\\n`));
  });

  it('a 4th URL for one event is a failed row without a request, naming the three URLs; the other rows go on', async () => {
    const urls = [1, 2, 3].map((n) => `${HOOK}/limit-${n}`);
    for (const url of urls) {
      const r = await cli('webhooks subscribe --event prospect_saved --url', url, '--company', String(BLUE));
      expect(r.code, r.stderr).toBe(0);
    }
    h.sandbox.reset();
    const r = await cli(
      'webhooks subscribe --event prospect_saved --event prospect_invalid --url',
      `${HOOK}/limit-4`,
      '--company',
      String(BLUE),
    );
    expect(r.code).toBe(5);
    const [limited, other] = rows(r.stdout);
    expect(limited?.[3]).toBe('failed');
    expect(limited?.[4]).toBe(
      `PROSPECT_SAVED has 3 URLs already, the service's limit per event and account (${urls.join(', ')}); not sent`,
    );
    expect(other?.[3]).toBe('subscribed');
    // Only the other event's subscription was sent.
    expect(posts().map((q) => q.body)).toEqual([
      { target_url: `${HOOK}/limit-4`, event: 'prospect_invalid' },
    ]);
    expect(r.stderr).toContain("PROSPECT_SAVED has 3 URLs already (the service's limit)");
    // --dry-run says the same: the real run would fail there.
    h.sandbox.reset();
    const dry = await cli(
      'webhooks subscribe --event prospect_saved --url',
      `${HOOK}/limit-4`,
      '--company',
      String(BLUE),
      '--dry-run',
    );
    expect(dry.code).toBe(5);
    expect(rows(dry.stdout)[0]?.[3]).toBe('failed');
    expect(posts()).toEqual([]);
  });

  it('a 409 from the service for a 4th URL (a list that changed since it was read) still fails only that row', async () => {
    const url = `${HOOK}/race-4`;
    h.sandbox.addFault({
      method: 'POST',
      path: '/v1/webhooks/subscribe',
      kind: 'status',
      status: 409,
      times: 1,
    });
    const r = await cli(
      'webhooks subscribe --event task_ignored --event task_created --url',
      url,
      '--company',
      String(BLUE),
    );
    expect(r.code).toBe(5);
    expect(rows(r.stdout).map((row) => row[3])).toEqual(['failed', 'subscribed']);
    expect(posts()).toHaveLength(2);
  });

  it('--file of ids and exact names; an unknown name exits 4 with its look-alike, before any POST', async () => {
    const file = join(scratch, 'targets.txt');
    writeFileSync(file, `# clients\n${ACME}\n\nBlue Harbor Dental\n`);
    const r = await cli('webhooks subscribe --event task_done --url', HOOK, '--file', file, '--dry-run');
    expect(r.code, r.stderr).toBe(0);
    expect(rows(r.stdout).map((row) => row[0])).toEqual([String(ACME), String(BLUE)]);

    h.sandbox.reset();
    writeFileSync(file, 'acme ltd\n');
    const unknown = await cli('webhooks subscribe --event task_done --url', HOOK, '--file', file);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toContain('"Acme Ltd" (id 1001)');
    expect(posts()).toEqual([]);
  });
});

describe('webhooks unsubscribe', () => {
  /** `webhooks <verb> --event E --url U --company ACME [more]`. */
  const change = (verb: string, url: string, ...more: string[]) =>
    h.run([
      'webhooks',
      verb,
      '--event',
      'prospect_replied',
      '--url',
      url,
      '--company',
      String(ACME),
      ...more,
    ]);

  it('sends only for present pairs', async () => {
    const url = `${HOOK}/bye`;
    await change('subscribe', url);
    h.sandbox.reset();
    const r = await change('unsubscribe', url, '--company', String(BLUE));
    expect(r.code, r.stderr).toBe(0);
    expect(rows(r.stdout)).toEqual([
      [String(ACME), 'PROSPECT_REPLIED', url, 'unsubscribed'],
      [String(BLUE), 'PROSPECT_REPLIED', url, 'absent'],
    ]);
    expect(posts().map((p) => [p.path, p.headers['x-company-id'], p.body])).toEqual([
      [UNSUBSCRIBE, String(ACME), { target_url: url, event: 'prospect_replied' }],
    ]);
    expect(await listed(ACME)).not.toContain(`PROSPECT_REPLIED ${url}`);
  });

  it('--dry-run shows would-unsubscribe and sends nothing', async () => {
    const url = `${HOOK}/dry-bye`;
    await change('subscribe', url);
    h.sandbox.reset();
    const r = await change('unsubscribe', url, '--dry-run');
    expect(rows(r.stdout)).toEqual([[String(ACME), 'PROSPECT_REPLIED', url, 'would-unsubscribe']]);
    expect(posts()).toEqual([]);
  });
});

describe('webhooks list', () => {
  it('is the long form of `webhooks`', async () => {
    const short = await cli('webhooks --company', String(ACME));
    const long = await cli('webhooks list --company', 'Acme Ltd');
    expect(long.code, long.stderr).toBe(0);
    expect(long.stdout).toBe(short.stdout);
  });

  it('an unknown company name exits 4 and suggests the case variant', async () => {
    const r = await cli('--json webhooks list --company', 'ACME LTD');
    expect(r.code).toBe(4);
    expect(jsonError(r.stderr).error.message).toContain('ACME LTD');
    expect(r.stderr).toContain('"Acme Ltd" (id 1001)');
  });
});

describe('against a service that lists webhooks only under /v2 (the docs)', () => {
  let docs: Harness;
  beforeAll(async () => {
    docs = await startHarness({ seed: { companies: 3 }, docsMode: true }, IN_PROCESS);
  });
  afterAll(async () => {
    await docs.close();
  });

  it('reads through /v2/webhooks, subscribes through /v1, and a second run sends nothing', async () => {
    const url = `${HOOK}/docs`;
    const args = [
      'webhooks',
      'subscribe',
      '--event',
      'prospect_replied',
      '--url',
      url,
      '--company',
      String(ACME),
    ];
    const first = await docs.run(args);
    expect(first.code, first.stderr).toBe(0);
    expect(rows(first.stdout)).toEqual([[String(ACME), 'PROSPECT_REPLIED', url, 'subscribed']]);
    expect(docs.requests().some((q) => q.path === '/rest/v2/webhooks' && q.status === 200)).toBe(true);
    docs.sandbox.reset();
    const again = await docs.run(args);
    expect(rows(again.stdout)).toEqual([[String(ACME), 'PROSPECT_REPLIED', url, 'exists']]);
    expect(docs.requests().filter((q) => q.method === 'POST')).toEqual([]);
  });
});

describe('look-alike URLs (host case, a trailing slash)', () => {
  it('subscribing a URL that differs only so: a warning naming the one subscribed, and a second subscription', async () => {
    const first = await cli(`webhooks subscribe --event task_done --company ${ACME} --url`, HOOK);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).not.toContain('warning');
    const twin = 'https://CRM.example.com/hooks/woodpecker/';
    const r = await cli(
      `webhooks subscribe --event task_done --company ${ACME} --company ${BLUE} --url`,
      twin,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.replace(/\s+/g, ' ')).toContain(
      `warning: ${twin} is not subscribed to TASK_DONE for company ${ACME}, but ${HOOK} is; URLs must match exactly`,
    );
    // Blue Harbor had neither: no warning for it. Never a match: the twin is subscribed as typed.
    expect(r.stderr).not.toContain(`company ${BLUE}`);
    expect(rows(r.stdout).map((row) => row[3])).toEqual(['subscribed', 'subscribed']);
  });

  it('unsubscribing or moving a look-alike: absent, nothing sent, and the same warning naming the URL that stays', async () => {
    // Its own event and URL: the sandbox keeps the subscriptions of the tests before.
    const hook = `${HOOK}/alike`;
    await cli(`webhooks subscribe --event prospect_opt_out --company ${ACME} --url`, hook);
    const before = posts().length;
    const twin = 'https://CRM.example.com/hooks/woodpecker/alike/';
    const un = await cli(`webhooks unsubscribe --event prospect_opt_out --company ${ACME} --url`, twin);
    expect(un.code, un.stderr).toBe(0);
    expect(rows(un.stdout)).toEqual([[String(ACME), 'PROSPECT_OPT_OUT', twin, 'absent']]);
    expect(un.stderr.replace(/\s+/g, ' ')).toContain(
      `warning: ${twin} is not subscribed to PROSPECT_OPT_OUT for company ${ACME}, but ${hook} is; URLs must match exactly (host case and a trailing slash count), so ${hook} stays subscribed.`,
    );

    const move = await cli(
      `webhooks move --to https://new.example/h --company ${ACME} --company ${BLUE} --from`,
      twin,
    );
    expect(move.code, move.stderr).toBe(0);
    expect(move.stderr.replace(/\s+/g, ' ')).toContain(
      `warning: ${twin} is not subscribed to PROSPECT_OPT_OUT for company ${ACME}, but ${hook} is; URLs must match exactly (host case and a trailing slash count), so ${hook} stays subscribed and was not moved.`,
    );
    expect(move.stderr).not.toContain(`company ${BLUE}`);
    expect(posts()).toHaveLength(before);
    expect(await listed(ACME)).toContain(`PROSPECT_OPT_OUT ${hook}`);
  });

  it('plan warns about a look-alike URL in the file', async () => {
    await cli(`webhooks subscribe --event task_done --company ${ACME} --url`, HOOK);
    const file = join(scratch, 'lookalike.yaml');
    writeFileSync(
      file,
      `companies:\n  - name: Acme Ltd\n    webhooks: [{event: task_done, url: "${HOOK}/"}]\n`,
    );
    const r = await h.run(['plan', '-f', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.replace(/\s+/g, ' ')).toContain(
      `warning: ${HOOK}/ is not subscribed to TASK_DONE for "Acme Ltd", but ${HOOK} is`,
    );
  });
});
