/**
 * `webhooks move` and `webhooks list` over fleet targets, against the sandbox (the program in-process):
 * the order of subscribe and unsubscribe per account and event under the service's 3-URL cap, the
 * restore when --to is refused, a second run that sends nothing, --dry-run, and one row per
 * subscription across accounts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/output/text.js';
import type { RecordedRequest } from '../../src/sandbox/index.js';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { clientContext } from '../helpers/campaigns.js';
import { type Harness, jsonError, startHarness } from '../helpers/cli.js';
import { expectUsageError, lines } from '../helpers/core.js';
import { readTable, wholeText } from '../helpers/table-text.js';
import { plain, runOnTerminal } from '../helpers/terminal-run.js';

const IN_PROCESS = { inProcess: true };
const FROM = 'https://old-crm.example.com/hook';
const TO = 'https://crm.example.com/hook';
const OTHER = (n: number) => `https://other${n}.example.com/hook`;
// Seeded companies: 1001 and 1002 active, 1007 inactive.
const ACME = 1001;
const BLUE = 1002;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seed: { companies: 8 } }, IN_PROCESS);
});
afterAll(() => h.close());
beforeEach(() => h.sandbox.reset());

const setHooks = (company: number, hooks: [event: string, url: string][]) =>
  h.sandbox.store.replaceWebhooks(
    `company:${company}`,
    hooks.map(([event, target_url]) => ({ event, target_url })),
  );
/** The account's webhooks as the sandbox holds them: "EVENT url". */
const hooksOf = (id: number) => {
  const { store } = h.sandbox;
  const company = store.company(id);
  if (!company) throw new Error(`no company ${id}`);
  const context = { level: 'client' as const, account: `company:${id}`, agency: store.mainAgency, company };
  return store.webhooksOf(context).map((w) => `${w.event} ${w.target_url}`);
};
/** The POSTs in order: "company subscribe|unsubscribe EVENT url". */
const writes = () =>
  h
    .requests()
    .filter((r: RecordedRequest) => r.method === 'POST')
    .map((r) => {
      const body = r.body as { event: string; target_url: string };
      return `${r.headers['x-company-id']} ${r.path.split('/').at(-1)} ${body.event} ${body.target_url}`;
    });
const MOVE = ['webhooks', 'move', '--from', FROM, '--to', TO];
const move = (...args: string[]) => h.run([...MOVE, ...args]);

describe('webhooks move', () => {
  it('under 3 URLs: subscribes --to first, then unsubscribes --from; a second run sends nothing', async () => {
    setHooks(ACME, [
      ['PROSPECT_REPLIED', FROM],
      ['PROSPECT_BOUNCED', FROM],
      ['EMAIL_OPENED', OTHER(1)],
    ]);
    setHooks(BLUE, [['PROSPECT_REPLIED', FROM]]);
    const r = await move('--company', String(ACME), '--company', String(BLUE));
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([
      `${ACME}\tPROSPECT_REPLIED\t${FROM}\t${TO}\tmoved`,
      `${ACME}\tPROSPECT_BOUNCED\t${FROM}\t${TO}\tmoved`,
      `${BLUE}\tPROSPECT_REPLIED\t${FROM}\t${TO}\tmoved`,
    ]);
    const acme = writes().filter((w) => w.startsWith(`${ACME} `));
    expect(acme).toEqual([
      `${ACME} subscribe prospect_replied ${TO}`,
      `${ACME} unsubscribe prospect_replied ${FROM}`,
      `${ACME} subscribe prospect_bounced ${TO}`,
      `${ACME} unsubscribe prospect_bounced ${FROM}`,
    ]);
    expect(writes().filter((w) => w.startsWith(`${BLUE} `))).toEqual([
      `${BLUE} subscribe prospect_replied ${TO}`,
      `${BLUE} unsubscribe prospect_replied ${FROM}`,
    ]);
    expect(hooksOf(ACME).sort()).toEqual(
      [`EMAIL_OPENED ${OTHER(1)}`, `PROSPECT_BOUNCED ${TO}`, `PROSPECT_REPLIED ${TO}`].sort(),
    );
    expect(r.stderr).toContain('3 moved.');

    h.sandbox.reset();
    const again = await move('--company', String(ACME), '--company', String(BLUE), '--json');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual([
      { company_id: ACME, event: 'PROSPECT_REPLIED', from: FROM, to: TO, result: 'already-moved' },
      { company_id: ACME, event: 'PROSPECT_BOUNCED', from: FROM, to: TO, result: 'already-moved' },
      { company_id: BLUE, event: 'PROSPECT_REPLIED', from: FROM, to: TO, result: 'already-moved' },
    ]);
    expect(writes()).toEqual([]);
    // Piped, every row (a script's interface); on a terminal, rows where nothing was to move are counted.
    const piped = await move('--company', String(ACME), '--company', String(BLUE));
    expect(piped.code, piped.stderr).toBe(0);
    expect(lines(piped.stdout).map((l) => l.split('\t')[4])).toEqual(Array(3).fill('already-moved'));
    expect(piped.stderr).toContain('3 already-moved.');
    const quiet = await runOnTerminal(h, [...MOVE, '--company', String(ACME), '--company', String(BLUE)]);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).toBe('');
    expect(plain(quiet.stderr)).toContain('Nothing to do: 3 already-moved (--json lists every row).');
    expect(writes()).toEqual([]);
  });

  it('at 3 URLs: unsubscribes --from first, then subscribes --to', async () => {
    setHooks(ACME, [
      ['PROSPECT_REPLIED', OTHER(1)],
      ['PROSPECT_REPLIED', FROM],
      ['PROSPECT_REPLIED', OTHER(2)],
    ]);
    const r = await move('--company', String(ACME));
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([`${ACME}\tPROSPECT_REPLIED\t${FROM}\t${TO}\tmoved`]);
    expect(writes()).toEqual([
      `${ACME} unsubscribe prospect_replied ${FROM}`,
      `${ACME} subscribe prospect_replied ${TO}`,
    ]);
    expect(hooksOf(ACME)).toContain(`PROSPECT_REPLIED ${TO}`);
    expect(hooksOf(ACME)).not.toContain(`PROSPECT_REPLIED ${FROM}`);
  });

  it('at 3 URLs, --to refused: --from is subscribed again and the row is restored (exit non-zero)', async () => {
    setHooks(ACME, [
      ['PROSPECT_REPLIED', OTHER(1)],
      ['PROSPECT_REPLIED', FROM],
      ['PROSPECT_REPLIED', OTHER(2)],
    ]);
    h.sandbox.addFault({ method: 'POST', path: '/v1/webhooks/subscribe', kind: 'status', status: 500 });
    const r = await move('--company', String(ACME));
    expect(r.code).toBe(1);
    const [row] = lines(r.stdout).map((line) => line.split('\t'));
    expect(row?.slice(0, 5)).toEqual([String(ACME), 'PROSPECT_REPLIED', FROM, TO, 'restored']);
    expect(row?.[5]).toContain(`subscribing ${TO} failed, ${FROM} restored`);
    expect(writes()).toEqual([
      `${ACME} unsubscribe prospect_replied ${FROM}`,
      `${ACME} subscribe prospect_replied ${TO}`,
      `${ACME} subscribe prospect_replied ${FROM}`,
    ]);
    expect(hooksOf(ACME)).toContain(`PROSPECT_REPLIED ${FROM}`);
    expect(r.stderr).toContain('1 of 1 row failed');
  });

  it('at 3 URLs, the answer to subscribing --to lost: the webhooks read again show it, so moved (no restore)', async () => {
    setHooks(ACME, [
      ['PROSPECT_REPLIED', OTHER(1)],
      ['PROSPECT_REPLIED', FROM],
      ['PROSPECT_REPLIED', OTHER(2)],
    ]);
    h.sandbox.addFault({ method: 'POST', path: '/v1/webhooks/subscribe', kind: 'reset-after' });
    const r = await move('--company', String(ACME));
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([`${ACME}\tPROSPECT_REPLIED\t${FROM}\t${TO}\tmoved`]);
    expect(r.stderr).toMatch(
      /answer to subscribing company 1001 to PROSPECT_REPLIED → \S+ was lost; its webhooks, read again, show it done/,
    );
    expect(writes()).toEqual([
      `${ACME} unsubscribe prospect_replied ${FROM}`,
      `${ACME} subscribe prospect_replied ${TO}`,
    ]);
    expect(
      hooksOf(ACME)
        .filter((w) => w.startsWith('PROSPECT_REPLIED'))
        .sort(),
    ).toEqual(
      [`PROSPECT_REPLIED ${OTHER(1)}`, `PROSPECT_REPLIED ${OTHER(2)}`, `PROSPECT_REPLIED ${TO}`].sort(),
    );
  });

  it('when even the restore fails the row is failed and names the missing subscription', async () => {
    setHooks(ACME, [
      ['PROSPECT_REPLIED', OTHER(1)],
      ['PROSPECT_REPLIED', FROM],
      ['PROSPECT_REPLIED', OTHER(2)],
    ]);
    h.sandbox.addFault({
      method: 'POST',
      path: '/v1/webhooks/subscribe',
      kind: 'status',
      status: 500,
      times: 2,
    });
    const r = await move('--company', String(ACME), '--json');
    expect(r.code).toBe(1);
    const [row] = JSON.parse(r.stdout);
    expect(row.result).toBe('failed');
    expect(row.error.message).toContain(
      `PROSPECT_REPLIED is now subscribed at neither URL: ${FROM} was removed and could not be restored`,
    );
    expect(jsonError(r.stderr).error.status).toBe(500);
    expect(hooksOf(ACME).filter((w) => w.startsWith('PROSPECT_REPLIED'))).toHaveLength(2);
  });

  it('on an 80-column terminal a lost subscription is said in the row and the summary, not only "Invalid target"', async () => {
    const full: [string, string][] = [
      ['PROSPECT_REPLIED', OTHER(1)],
      ['PROSPECT_REPLIED', FROM],
      ['PROSPECT_REPLIED', OTHER(2)],
    ];
    setHooks(ACME, full);
    setHooks(BLUE, full);
    const invalidTarget = {
      method: 'POST',
      path: '/v1/webhooks/subscribe',
      kind: 'status',
      status: 400,
    } as const;
    // Every subscribe refused: --to, then --from again, in both accounts.
    h.sandbox.addFault({ ...invalidTarget, detail: 'Invalid target', times: 0 });
    const r = await runOnTerminal(
      h,
      ['webhooks', 'move', '--from', FROM, '--to', TO, '--company', String(ACME), '--company', String(BLUE)],
      { columns: 80 },
    );
    expect(r.code).toBe(1);
    const screen = plain(r.stdout);
    for (const line of screen.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    const table = readTable(screen, ['COMPANY', 'RESULT', 'REASON']);
    expect(table.rows.map((row) => row.COMPANY?.[0])).toEqual([String(ACME), String(BLUE)]);
    for (const row of table.rows) {
      expect(row.RESULT).toEqual(['failed']);
      // The FROM column gives way at 80 columns: the reason names the URL that was lost.
      expect(
        wholeText(
          row.REASON,
          `now subscribed at neither URL: ${FROM} was removed and could not be restored (Invalid target)`,
        ),
      ).toBe(true);
    }
    const stderr = plain(r.stderr).replace(/\s+/g, ' ');
    expect(stderr).toContain(
      '2 of 2 rows failed (see the rows marked failed). 2 accounts are now subscribed at neither URL.',
    );
    expect(stderr).toContain(
      `2 failed: PROSPECT_REPLIED now subscribed at neither URL: ${FROM} was removed and could not be restored (subscribing ${TO}: 400 Invalid target) companies ${ACME}, ${BLUE}`,
    );
    expect(hooksOf(ACME)).not.toContain(`PROSPECT_REPLIED ${FROM}`);

    // Restored (the second subscribe of --from accepted): the service's words are the whole truth.
    h.sandbox.reset();
    setHooks(ACME, full);
    h.sandbox.addFault({ ...invalidTarget, detail: 'Invalid target' });
    const restored = await runOnTerminal(
      h,
      ['webhooks', 'move', '--from', FROM, '--to', TO, '--company', String(ACME)],
      { columns: 80 },
    );
    expect(restored.code).toBe(1);
    expect(readTable(plain(restored.stdout), ['COMPANY', 'RESULT', 'REASON']).rows[0]?.REASON).toEqual([
      'Invalid target',
    ]);
    expect(plain(restored.stderr)).not.toContain('neither URL');
  });

  it('--dry-run reads and sends nothing; --event limits the move; inactive companies are skipped under --all', async () => {
    setHooks(ACME, [
      ['PROSPECT_REPLIED', FROM],
      ['PROSPECT_BOUNCED', FROM],
    ]);
    const dry = await move('--company', String(ACME), '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(lines(dry.stdout).map((l) => l.split('\t')[4])).toEqual(['would-move', 'would-move']);
    expect(writes()).toEqual([]);
    expect(dry.stderr).toContain('Nothing was sent.');

    const one = await move(
      '--company',
      String(ACME),
      '--event',
      'prospect_bounced',
      '--event',
      'email_opened',
    );
    expect(one.code, one.stderr).toBe(0);
    expect(lines(one.stdout)).toEqual([
      `${ACME}\tPROSPECT_BOUNCED\t${FROM}\t${TO}\tmoved`,
      `${ACME}\tEMAIL_OPENED\t${FROM}\t${TO}\tabsent`,
    ]);
    expect(one.stderr).toContain('1 moved, 1 absent.');
    expect(hooksOf(ACME)).toContain(`PROSPECT_REPLIED ${FROM}`);

    h.sandbox.reset();
    const all = await move('--all', '--dry-run', '--json');
    expect(all.code, all.stderr).toBe(0);
    const rows = JSON.parse(all.stdout) as { company_id: number; result: string; event: string | null }[];
    const inactive = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: false }).map((c) => c.id);
    expect(rows.filter((r) => r.result === 'skipped-inactive').map((r) => r.company_id)).toEqual(inactive);
    expect(rows.find((r) => r.company_id === ACME && r.event === 'PROSPECT_REPLIED')?.result).toBe(
      'would-move',
    );
    expect(h.requests().every((q) => q.method === 'GET')).toBe(true);
  });

  it('--all on a terminal lists only the companies where something moved or failed, the rest counted; piped, --csv and --json have every row', async () => {
    const active = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true }).map((c) => c.id);
    const inactive = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: false }).length;
    const [moves, done] = active.filter((id) => id !== ACME && id !== BLUE) as [number, number];
    expect(inactive).toBeGreaterThan(0);
    setHooks(ACME, []);
    setHooks(BLUE, [['PROSPECT_REPLIED', FROM]]);
    setHooks(moves, [['PROSPECT_REPLIED', FROM]]);
    setHooks(done, [['PROSPECT_BOUNCED', TO]]);
    // One account at a time, in company order: the first subscribe (BLUE's) is refused.
    h.sandbox.addFault({ method: 'POST', path: '/v1/webhooks/subscribe', kind: 'status', status: 500 });
    const args = ['webhooks', 'move', '--from', FROM, '--to', TO, '--all', '--concurrency', '1'];
    const r = await runOnTerminal(h, args, { columns: 200 });
    expect(r.code).toBe(1);
    const shown = readTable(plain(r.stdout), ['COMPANY', 'RESULT']).rows;
    expect(shown.map((row) => `${row.COMPANY?.[0]} ${row.RESULT?.[0]}`)).toEqual([
      `${BLUE} failed`,
      `${moves} moved`,
    ]);
    // The account already moved, those with neither URL and the inactive ones: counted only.
    const absent = active.length - 3;
    expect(plain(r.stderr)).toContain(
      `Not listed: ${absent} absent, 1 already-moved, ${inactive} skipped-inactive (--json lists every row).`,
    );

    h.sandbox.reset();
    setHooks(ACME, [['PROSPECT_REPLIED', FROM]]);
    setHooks(BLUE, []);
    const piped = await move('--all', '--dry-run');
    expect(piped.code, piped.stderr).toBe(0);
    expect(lines(piped.stdout)).toHaveLength(active.length + inactive);
    expect(lines(piped.stdout)).toContain(`${ACME}\tPROSPECT_REPLIED\t${FROM}\t${TO}\twould-move`);
    expect(piped.stderr).toMatch(
      /Dry run: 1 would-move, \d+ absent, \d+ already-moved, \d+ skipped-inactive\. Nothing was sent\./,
    );
    const csv = await move('--all', '--dry-run', '--csv');
    expect(csv.code, csv.stderr).toBe(0);
    const records = csv.stdout.split('\r\n').filter(Boolean);
    expect(records[0]).toBe('company_id,event,from,to,result,error');
    expect(records).toContain(`${ACME},PROSPECT_REPLIED,${FROM},${TO},would-move,`);
    expect(records).toHaveLength(1 + active.length + inactive);

    const json = await move('--all', '--dry-run', '--json');
    const rows = JSON.parse(json.stdout) as { company_id: number; result: string }[];
    expect(rows).toHaveLength(active.length + inactive);
    expect(rows.filter((row) => row.result === 'would-move').map((row) => row.company_id)).toEqual([ACME]);
    expect(rows.filter((row) => row.result === 'absent').length).toBeGreaterThan(0);
    expect(json.stderr).not.toContain('Not listed');
  });

  it('no target: says first that it acts on the HQ account itself only', async () => {
    const r = await move('--dry-run');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe('note: on the HQ account itself only; --all for every client');
    const named = await move('--dry-run', '--company', String(ACME));
    expect(named.stderr).not.toContain('HQ account itself only');
    const subscribe = await h.run([
      'webhooks',
      'subscribe',
      '--event',
      'task_done',
      '--url',
      TO,
      '--dry-run',
    ]);
    expect(subscribe.stderr.split('\n')[0]).toBe(
      'note: on the HQ account itself only; --all for every client',
    );
  });

  it('--from subscribed nowhere and --to nowhere: a warning names the nearest subscribed URL and its accounts', async () => {
    setHooks(ACME, [['PROSPECT_REPLIED', FROM]]);
    setHooks(BLUE, [
      ['PROSPECT_REPLIED', FROM],
      ['TASK_DONE', OTHER(1)],
    ]);
    const typo = 'https://old-crm.example.com/hoook';
    const to = 'https://crm.example.com/hook-nearest';
    const targets = ['--company', String(ACME), '--company', String(BLUE)];
    const r = await h.run(['webhooks', 'move', '--from', typo, '--to', to, ...targets]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `warning: ${typo} (--from) is subscribed in none of the 2 accounts read, nor is ${to} (--to); the nearest subscribed URL is ${FROM} (in 2 accounts).`,
    );
    expect(writes()).toEqual([]);
    // Once moved, --to is somewhere: a second run is quiet about it.
    await h.run(['webhooks', 'move', '--from', FROM, '--to', to, ...targets]);
    const again = await h.run(['webhooks', 'move', '--from', FROM, '--to', to, ...targets]);
    expect(again.stderr).not.toContain('nearest subscribed URL');
    const one = await h.run([
      'webhooks',
      'move',
      '--from',
      typo,
      '--to',
      'https://x.example/h',
      '--company',
      String(ACME),
    ]);
    expect(one.stderr).toContain(
      `is not subscribed in the account read, nor is https://x.example/h (--to); the nearest subscribed URL is ${to} (in 1 account).`,
    );
  });

  it('two identical moves at once: both end in the moved state and say so, never "both URLs"', async () => {
    const slow = await startHarness({ seed: { companies: 8 }, latencyMs: 15 }, IN_PROCESS);
    try {
      const ids = [ACME, BLUE, 1003, 1004];
      for (const id of ids) {
        slow.sandbox.store.replaceWebhooks(`company:${id}`, [
          { event: 'PROSPECT_REPLIED', target_url: FROM },
        ]);
      }
      const args = [...MOVE, ...ids.flatMap((id) => ['--company', String(id)])];
      const [a, b] = await Promise.all([slow.run(args), slow.run(args)]);
      for (const r of [a, b]) {
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout + r.stderr).not.toMatch(/both URLs|not companies of this agency/);
        // One row per account, each in the moved state.
        const rows = lines(r.stdout).map((line) => line.split('\t'));
        expect(rows.map((row) => Number(row[0]))).toEqual(ids);
        for (const row of rows) expect(row[4]).toMatch(/^(moved|already-moved)$/);
      }
      for (const id of ids) {
        const hooks = slow.sandbox.store.webhooksOf(clientContext(slow.sandbox, id));
        expect(hooks.map((w) => w.target_url)).toEqual([TO]);
      }
    } finally {
      await slow.close();
    }
  });

  it('bad input is exit 2 with nothing sent', async () => {
    expectUsageError(await h.run(['webhooks', 'move', '--from', FROM, '--to', FROM]), h.sandbox, /same URL/);
    expectUsageError(
      await h.run(['webhooks', 'move', '--from', 'ftp://x.example/h', '--to', TO]),
      h.sandbox,
      /--from/,
    );
    expectUsageError(await h.run(['webhooks', 'move', '--from', FROM]), h.sandbox, /--to/);
    expectUsageError(await move('--event', 'bad-name'), h.sandbox, /Invalid event/);
  });
});

describe('webhooks list across accounts', () => {
  it('several --company: one row per subscription, company_id, event, target_url', async () => {
    setHooks(ACME, [
      ['PROSPECT_REPLIED', TO],
      ['EMAIL_OPENED', OTHER(3)],
    ]);
    setHooks(BLUE, []);
    const r = await h.run(['webhooks', 'list', '--company', String(ACME), '--company', 'Blue Harbor Dental']);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([
      `${ACME}\tPROSPECT_REPLIED\t${TO}`,
      `${ACME}\tEMAIL_OPENED\t${OTHER(3)}`,
    ]);
    const reads = h.requests().filter((q) => q.path === '/rest/v1/webhooks');
    expect(reads.map((q) => q.headers['x-company-id']).sort()).toEqual([String(ACME), String(BLUE)]);
  });

  it('--all: every active company, inactive ones skipped; --json the rows as objects', async () => {
    const r = await h.run(['webhooks', 'list', '--all', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as { company_id: number; event: string; target_url: string }[];
    const active = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true });
    const truth = active.flatMap((c) =>
      hooksOf(c.id).map((w) => {
        const [event, target_url] = w.split(' ');
        return { company_id: c.id, event, target_url };
      }),
    );
    expect(rows).toEqual(truth);
    expect(r.stderr).toMatch(/\d+ inactive compan(y|ies) skipped/);
  });

  it('--limit N reads the webhooks of the first N companies only; without a fleet form it is refused', async () => {
    const firstThree = h.sandbox.store
      .companies(MAIN_AGENCY_ID, {})
      .slice(0, 3)
      .map((c) => c.id);
    setHooks(firstThree[0] as number, [['PROSPECT_REPLIED', TO]]);
    const r = await h.run(['webhooks', 'list', '--all', '--limit', '3', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const reads = h.requests().filter((q) => q.path === '/rest/v1/webhooks');
    expect(reads.map((q) => Number(q.headers['x-company-id'])).sort()).toEqual(firstThree.sort());
    const truth = firstThree.flatMap((id) =>
      hooksOf(id).map((w) => {
        const [event, target_url] = w.split(' ');
        return { company_id: id, event, target_url };
      }),
    );
    expect(truth).toContainEqual({ company_id: firstThree[0], event: 'PROSPECT_REPLIED', target_url: TO });
    expect(JSON.parse(r.stdout)).toEqual(truth);

    h.sandbox.reset();
    expectUsageError(
      await h.run(['webhooks', '--company', String(ACME), '--limit', '2']),
      h.sandbox,
      /--limit counts companies/,
    );
    expectUsageError(await h.run(['webhooks', 'list', '--all', '--limit', '0']), h.sandbox, /--limit/);
  });

  it('one --company has the same shape as two: company_id, event, target_url (TSV and --json)', async () => {
    setHooks(ACME, [['PROSPECT_REPLIED', TO]]);
    setHooks(BLUE, [['TASK_DONE', TO]]);
    const one = await h.run(['webhooks', '--company', String(ACME)]);
    expect(one.code, one.stderr).toBe(0);
    expect(lines(one.stdout)).toEqual([`${ACME}\tPROSPECT_REPLIED\t${TO}`]);
    const two = await h.run(['webhooks', '--company', String(ACME), '--company', String(BLUE)]);
    expect(lines(two.stdout)).toEqual([`${ACME}\tPROSPECT_REPLIED\t${TO}`, `${BLUE}\tTASK_DONE\t${TO}`]);
    const json = await h.run(['webhooks', '--company', String(ACME), '--json']);
    expect(JSON.parse(json.stdout)).toEqual([
      { company_id: ACME, event: 'PROSPECT_REPLIED', target_url: TO },
    ]);
    const own = await h.run(['webhooks', '--json']);
    expect(Object.keys(JSON.parse(own.stdout)[0] ?? { event: 1, target_url: 1 }).sort()).toEqual([
      'event',
      'target_url',
    ]);
  });
});
