/**
 * Issue 21, item 6: a long fleet read prints each row as soon as it and every row before it are done
 * (company order kept), so a pipe sees rows early and Ctrl-C keeps what was audited; `--limit N`
 * audits the first N companies only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { type AgencyTerminals, startAgencyTerminals } from '../helpers/agency-terminals.js';
import { type Harness, startHarness } from '../helpers/cli.js';
import { lines } from '../helpers/core.js';
import { TMUX_MISSING } from '../helpers/tmux.js';

let h: Harness;
let terminals: AgencyTerminals;
beforeAll(async () => {
  // Every request takes 80 ms: an audit of 40 companies takes seconds, one company a fraction.
  h = await startHarness({ latencyMs: 80, seed: { companies: 40 } });
  terminals = await startAgencyTerminals(h.configDir, [100]);
});
afterAll(async () => {
  await terminals?.close();
  await h?.close();
});

const companyIds = () => h.sandbox.store.companies(MAIN_AGENCY_ID).map((c) => c.id);
/** The client companies the run sent a request for (x-company-id). */
const audited = () =>
  new Set(
    h
      .requests()
      .map((q) => q.headers['x-company-id'])
      .filter(Boolean),
  );

describe('inventory streams its rows', () => {
  it('a pipe sees the first rows while the audit goes on; Ctrl-C keeps them, in company order', async () => {
    h.sandbox.reset();
    const run = h.spawn(['inventory', '--concurrency', '2']);
    let seen = '';
    run.child.stdout.on('data', (chunk: Buffer | string) => {
      seen += String(chunk);
    });
    const deadline = Date.now() + 20_000;
    while (lines(seen).length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(run.child.exitCode).toBeNull(); // still auditing
    run.child.kill('SIGINT');
    const r = await run.result;
    expect(r.code, r.stderr).toBe(130);
    const ids = lines(r.stdout).map((line) => Number(line.split('\t')[0]));
    expect(ids.length).toBeGreaterThanOrEqual(3);
    expect(ids.length).toBeLessThan(40);
    expect(ids).toEqual(companyIds().slice(0, ids.length));
    expect(r.stderr).toContain(`Interrupted after ${ids.length} of 40 companies`);
    // stdout is not this terminal: the rows are not "above" anything the reader sees.
    expect(r.stderr).toContain('the ones audited are listed on stdout.');
  });

  it('--limit 3 audits the first three companies and no other', async () => {
    h.sandbox.reset();
    const r = await h.run(['inventory', '--limit', '3']);
    expect(r.code, r.stderr).toBe(0);
    const first = companyIds().slice(0, 3);
    expect(lines(r.stdout).map((line) => Number(line.split('\t')[0]))).toEqual(first);
    expect([...audited()].map(Number).sort((a, b) => a - b)).toEqual(first.filter((id) => isActive(id)));
    // One page of companies was enough (50 per page): no second page asked for.
    expect(h.requests().filter((q) => q.path.endsWith('/v2/agency/companies')).length).toBe(1);
    expect(r.stderr).toContain('Audited 3 companies');
  });

  it('--limit 0 is a usage error with nothing sent', async () => {
    h.sandbox.reset();
    const r = await h.run(['inventory', '--limit', '0']);
    expect(r.code).toBe(2);
    expect(h.requests()).toEqual([]);
  });
});

describe.skipIf(Boolean(TMUX_MISSING))('on a terminal', () => {
  it('the table grows a row at a time; Ctrl-C keeps what was audited, exit 130', async () => {
    h.sandbox.reset();
    const t = terminals.at(100);
    await t.clear();
    t.type('agency inventory --concurrency 2; echo "[exit $?]"');
    // While the audit goes on, the header and the first rows are already on the screen.
    const during = await t.waitFor(
      (screen) =>
        /^ID +NAME +/m.test(screen) && /^1003 {2}/m.test(screen) && /companies audited/.test(screen),
      { intervalMs: 20 },
    );
    expect(during).not.toMatch(/\[exit \d+\]/);
    t.key('C-c');
    const screen = await t.waitFor((s) => /\[exit \d+\]/.test(s), { history: true });
    expect(screen).toContain('[exit 130]');
    const audited = Number(/Interrupted after (\d+) of 40 companies/.exec(screen.replace(/\s+/g, ' '))?.[1]);
    expect(audited).toBeGreaterThanOrEqual(3);
    expect(screen.replace(/\s+/g, ' ')).toContain('the ones audited are listed above.');
    expect(screen).toMatch(/^ID +NAME +/m);
    const rows = screen.split('\n').filter((line) => /^\d{4} {2}/.test(line));
    expect(rows.map((row) => Number(row.slice(0, 4)))).toEqual(companyIds().slice(0, audited));
  });
});

describe.skipIf(Boolean(TMUX_MISSING))('Ctrl-C at a terminal', () => {
  it('the message starts its own line, not after the ^C the terminal echoed (rows redirected: no progress line)', async () => {
    h.sandbox.reset();
    const t = terminals.at(100);
    await t.clear();
    t.type('agency inventory --concurrency 2 > "$HOME/rows.tsv"; echo "[exit $?]"');
    // Stopped in the middle of the audit: some client's reads have reached the sandbox.
    const deadline = Date.now() + 20_000;
    while (audited().size < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    t.key('C-c');
    const screen = await t.waitFor((s) => /\[exit \d+\]/.test(s), { history: true });
    expect(screen).toContain('[exit 130]');
    // The terminal's ^C was on the line the message is printed on: that line was cleared first.
    expect(screen, screen).toMatch(/^error: Interrupted after \d+ of 40 companies/m);
    expect(screen).not.toMatch(/\^C./);
  });
});

describe('health streams its rows', () => {
  it("a pipe sees each client's rows as it is checked, in client order; Ctrl-C keeps them", async () => {
    h.sandbox.reset();
    const run = h.spawn(['health', '--concurrency', '2']);
    let seen = '';
    run.child.stdout.on('data', (chunk: Buffer | string) => {
      seen += String(chunk);
    });
    const deadline = Date.now() + 20_000;
    while (lines(seen).length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(run.child.exitCode).toBeNull();
    run.child.kill('SIGINT');
    const r = await run.result;
    expect(r.code, r.stderr).toBe(130);
    const ids = lines(r.stdout).map((line) => Number(line.split('\t')[0]));
    expect(ids.length).toBeGreaterThanOrEqual(3);
    // Client order: the ids never go back.
    expect(ids).toEqual([...ids].sort((a, b) => companyIds().indexOf(a) - companyIds().indexOf(b)));
    expect(r.stderr).toMatch(/Interrupted after \d+ of \d+ clients/);
  });

  it('--limit 2 checks the first two active clients only', async () => {
    h.sandbox.reset();
    const r = await h.run(['health', '--limit', '2', '--json']);
    expect([0, 7]).toContain(r.code);
    const first = h.sandbox.store
      .companies(MAIN_AGENCY_ID)
      .filter((c) => c.active)
      .slice(0, 2)
      .map((c) => c.id);
    expect(JSON.parse(r.stdout).companies_checked).toBe(2);
    expect([...audited()].map(Number).sort((a, b) => a - b)).toEqual(first);
  });
});

function isActive(id: number): boolean {
  return h.sandbox.store.companies(MAIN_AGENCY_ID).find((c) => c.id === id)?.active === true;
}
