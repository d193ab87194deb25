/**
 * `health` stopped by Ctrl-C, through the built binary: at every phase (the company list, the period's
 * deliverability listing, the clients' checks) it exits 130 with one message and never a stack trace;
 * what it checked so far is printed (piped rows, the partial --json report marked "interrupted", the
 * sorted table on a terminal) and the message says where, truly.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID, type RecordedRequest } from '../../src/sandbox/index.js';
import { agencyEnv, BIN, type Harness, type RunResult, startHarness } from '../helpers/cli.js';
import { Terminal, TMUX_MISSING } from '../helpers/tmux.js';

const STACK_LINE = /^\s+at /m;

let h: Harness;
let tmp: string;
beforeAll(async () => {
  // Every request takes 100 ms on the way: a run of 40 clients lasts long enough to be stopped anywhere.
  h = await startHarness({ seed: { companies: 40 }, rttMs: 100 });
  tmp = mkdtempSync(join(tmpdir(), 'agency-health-stop-'));
});
afterAll(async () => {
  await h.close();
  rmSync(tmp, { recursive: true, force: true });
});
// A stopped run's last requests may still be read by the sandbox after the process ended (a loaded
// machine): the log is cleared once it has stayed still, so that they never stand for the next run's.
beforeEach(async () => {
  for (let seen = -1; seen !== h.requests().length; await sleep(150)) seen = h.requests().length;
  h.sandbox.reset();
});

const clientReads = (r: RecordedRequest) => /\/(mailboxes|campaigns|webhooks)\b|email_accounts/.test(r.path);

/**
 * Some clients are checked: the sandbox has answered all three reads (mailboxes, campaigns, webhooks) of
 * the first two active clients in the company list. A stopped run keeps the clients done in the list's
 * order up to the first one not done (src/fleet/ordered.ts), so any two clients were not enough: on a busy
 * machine two later ones could be done while the first was not, and the run stopped with 0 checked (seen
 * twice in full runs). Counting the reads received (30) raced the same way.
 */
function clientsChecked(requests: RecordedRequest[]): boolean {
  const answered = new Map<string, number>();
  for (const r of requests) {
    if (r.status !== 0 && /\/(mailboxes|campaign_list|webhooks)$/.test(r.path))
      answered.set(r.account, (answered.get(r.account) ?? 0) + 1);
  }
  const firstTwo = h.sandbox.store
    .companies(MAIN_AGENCY_ID)
    .filter((c) => c.active)
    .slice(0, 2);
  return firstTwo.every((c) => (answered.get(`company:${c.id}`) ?? 0) >= 3);
}

/**
 * Runs health and sends Ctrl-C once the sandbox's requests are as `when` wants them, and `afterMs` later
 * (answers the sandbox has just sent are then read by the program before the signal is).
 */
async function interruptWhen(
  args: string[],
  when: (requests: RecordedRequest[]) => boolean,
  afterMs = 0,
): Promise<RunResult> {
  const run = h.spawn(['health', ...args]);
  const deadline = Date.now() + 20_000;
  while (!when(h.requests()) && Date.now() < deadline) await sleep(10);
  await sleep(afterMs);
  run.child.kill('SIGINT');
  return run.result;
}

describe('health interrupted', () => {
  const phases: [string, (requests: RecordedRequest[]) => boolean][] = [
    ['the company list', (rs) => rs.some((r) => r.path.includes('/agency/companies'))],
    ['the deliverability listing', (rs) => rs.some((r) => r.path.includes('/deliverability'))],
    ['the first clients', (rs) => rs.filter(clientReads).length >= 1],
    ['the clients', (rs) => rs.filter(clientReads).length >= 30],
  ];
  for (const [phase, when] of phases) {
    it(`Ctrl-C during ${phase}: exit 130, one message, no stack trace`, async () => {
      const r = await interruptWhen([], when);
      expect(r.code, r.stderr).toBe(130);
      expect(r.stderr).toMatch(/^(error: )?Interrupted/m);
      expect(r.stderr).not.toMatch(STACK_LINE);
      expect(r.stderr).not.toMatch(/internal error|Unhandled|node:internal|cli\.cjs/);
      expect(r.stderr).not.toContain('rows above');
    });
  }

  it('--html: the page of the clients checked so far is written, marked interrupted', async () => {
    const file = join(tmp, 'interrupted.html');
    const r = await interruptWhen(['--html', file], clientsChecked, 100);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain(`HTML report of the clients checked so far written to ${file}`);
    const page = readFileSync(file, 'utf8');
    expect(page).toMatch(
      /<p class="interrupted">Interrupted after \d+ of \d+ clients: this page shows only the clients checked until then\.<\/p>/,
    );
    expect(page).toContain('Not read: the run was interrupted.');
    // Written beside it and renamed over it: no temporary file is left in the folder.
    expect(readdirSync(tmp).filter((name) => name.includes('interrupted.html'))).toEqual([
      'interrupted.html',
    ]);
  });

  it('--html, stopped before any client was checked: the earlier report is kept and stderr says so', async () => {
    const file = join(tmp, 'last-week.html');
    writeFileSync(file, '<p>last week</p>');
    // Stopped as the first client's reads go out (each takes 100 ms): none is checked yet.
    const r = await interruptWhen(['--html', file], (rs) => rs.some(clientReads));
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/^error: Interrupted after 0 of/m);
    expect(r.stderr).toContain(`No HTML report written: no client was checked (${file} is left as it was).`);
    expect(r.stderr).not.toContain('HTML report of the clients checked so far');
    expect(readFileSync(file, 'utf8')).toBe('<p>last week</p>');
  });

  it('--json: the partial report of the clients checked, marked "interrupted"', async () => {
    const r = await interruptWhen(['--json'], clientsChecked, 100);
    expect(r.code, r.stderr).toBe(130);
    const report = JSON.parse(r.stdout);
    expect(report.interrupted).toBe(true);
    const checked = Number(/Interrupted after (\d+) of \d+ clients/.exec(r.stderr)?.[1]);
    expect(checked).toBeGreaterThan(0);
    expect(report.companies_checked).toBeLessThanOrEqual(checked);
    expect(report.problems.length).toBeGreaterThan(0);
    expect(r.stderr).toContain('the problems found are listed on stdout.');
    expect(JSON.parse(r.stderr.trim().split('\n').at(-1) ?? '').error.message).toMatch(/^Interrupted after/);
  });

  it('piped: the rows of the clients checked, and the message says they are on stdout', async () => {
    const r = await interruptWhen([], clientsChecked, 100);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stdout.split('\n').filter(Boolean).length).toBeGreaterThan(0);
    expect(r.stderr).toMatch(
      /^error: Interrupted after \d+ of \d+ clients; the problems found are listed on stdout\.$/m,
    );
  });
});

describe.skipIf(TMUX_MISSING)('health interrupted on a terminal', () => {
  it('prints the problems found so far, sorted, then says they are above', async () => {
    const env = agencyEnv({ configDir: h.configDir });
    const terminal = await Terminal.start({ width: 120, height: 40, env: { ...env, TERM: 'screen' } });
    try {
      terminal.type(`"${process.execPath}" "${BIN}" health; echo "[exit $?]"`);
      await terminal.waitFor((s) => /\d+ of \d+ clients checked/.test(s));
      terminal.key('C-c');
      const screen = await terminal.waitFor((s) => /\[exit \d+\]/.test(s), { history: true });
      expect(screen).toContain('[exit 130]');
      expect(screen).toMatch(/COMPANY\s+NAME\s+SEVERITY/i);
      expect(screen).toMatch(/Interrupted after \d+ of \d+\s+clients; the problems found are listed above\./);
      const severities = [...screen.matchAll(/\b(critical|warning|info)\b/g)].map((m) => m[1]);
      const ranks = severities.map((s) => ['critical', 'warning', 'info'].indexOf(s ?? ''));
      expect(ranks.length).toBeGreaterThan(0);
      expect(ranks).toEqual([...ranks].sort());
    } finally {
      await terminal.close();
    }
  });
});
