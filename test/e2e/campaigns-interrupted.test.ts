/**
 * `campaigns pause --record` stopped mid-way, through the built binary (a process to signal and kill):
 * Ctrl-C lets the pause in flight finish, records it, starts nothing new and exits 130; kill -9 loses
 * no recorded line and invents none. Either way `campaigns resume --from-record` puts back exactly the
 * campaigns the record holds, and a second pause run finishes the job.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SHARED_MAILBOX } from '../../src/sandbox/seed/campaigns.js';
import { clientCampaigns, sendsFromShared } from '../helpers/campaigns.js';
import { type Harness, startHarness } from '../helpers/cli.js';

let h: Harness;
let scratch: string;
beforeEach(async () => {
  h = await startHarness({ seed: { companies: 40 } });
  scratch = mkdtempSync(join(tmpdir(), 'agency-campaigns-stop-'));
});
afterEach(async () => {
  await h.close();
  rmSync(scratch, { recursive: true, force: true });
});

const PAUSE = ['campaigns', 'pause', '--all', '--mailbox', SHARED_MAILBOX, '--yes', '--concurrency', '1'];
const lines = (text: string) => text.split('\n').filter(Boolean);
const pausePosts = () => h.requests().filter((q) => q.method === 'POST' && q.path.endsWith('/pause'));

function recordLines(path: string): { company_id: number; campaign_id: number }[] {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {}
  // Every line whole: a partial line would not parse.
  return lines(text).map((line) => JSON.parse(line));
}

/** Resolves once the record holds `count` lines. */
function recorded(path: string, count: number): Promise<void> {
  return new Promise((resolve) => {
    const poll = setInterval(() => {
      if (recordLines(path).length >= count) {
        clearInterval(poll);
        resolve();
      }
    }, 5);
  });
}

/** The campaigns that were RUNNING and sent from the shared mailbox, and are PAUSED now. */
function pausedByTheRun(running: readonly number[]): number[] {
  return clientCampaigns(h.sandbox)
    .filter((c) => running.includes(c.id) && c.status === 'PAUSED')
    .map((c) => c.id);
}

function runningShared(): number[] {
  return clientCampaigns(h.sandbox)
    .filter((c) => sendsFromShared(c) && c.status === 'RUNNING')
    .map((c) => c.id);
}

describe('campaigns pause interrupted', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s: the pause in flight finishes and is recorded, nothing new starts, exit %i',
    async (signal, code) => {
      const running = runningShared();
      expect(running.length).toBeGreaterThan(3);
      const record = join(scratch, 'paused.jsonl');
      h.sandbox.addFault({
        method: 'POST',
        path: '/v2/campaigns/*/pause',
        kind: 'stall',
        stallMs: 400,
        times: 0,
      });
      const run = h.spawn([...PAUSE, '--record', record]);
      await recorded(record, 1);
      run.child.kill(signal);
      const r = await run.result;
      expect(r.code, r.stderr).toBe(code);
      expect(r.stderr).toMatch(/Interrupted/);
      const paused = pausedByTheRun(running);
      // The one in flight when the signal came was awaited: two done, no third started.
      expect(pausePosts()).toHaveLength(2);
      expect(paused).toHaveLength(2);
      expect(
        recordLines(record)
          .map((e) => e.campaign_id)
          .sort(),
      ).toEqual(paused.sort());
      expect(lines(r.stdout).filter((line) => line.endsWith('\tpaused'))).toHaveLength(2);

      h.sandbox.reset();
      const resumed = await h.run(['campaigns', 'resume', '--from-record', record, '--yes']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(pausedByTheRun(running)).toEqual([]);
      expect(
        h
          .requests()
          .filter((q) => q.method === 'POST')
          .map((q) => q.path)
          .sort(),
      ).toEqual(paused.map((id) => `/rest/v2/campaigns/${id}/run`).sort());
    },
  );
});

describe('campaigns pause killed', () => {
  it('kill -9 loses no recorded line and invents none; resume puts back exactly the recorded ones', async () => {
    const running = runningShared();
    const record = join(scratch, 'paused.jsonl');
    h.sandbox.addFault({
      method: 'POST',
      path: '/v2/campaigns/*/pause',
      kind: 'stall',
      stallMs: 300,
      times: 0,
    });
    const run = h.spawn([...PAUSE, '--record', record]);
    await recorded(record, 2);
    run.child.kill('SIGKILL');
    await run.result.catch(() => undefined);
    // The request in flight completes on the server after the process is gone.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const paused = pausedByTheRun(running);
    const lines9 = recordLines(record).map((e) => e.campaign_id);
    // Invents none: every recorded campaign is paused. Loses none: at most the one in flight is missing.
    for (const id of lines9) expect(paused).toContain(id);
    expect(paused.length - lines9.length).toBeLessThanOrEqual(1);
    expect(lines9.length).toBeGreaterThanOrEqual(2);
    expect(lines9.length).toBeLessThan(running.length);

    h.sandbox.reset();
    const resumed = await h.run(['campaigns', 'resume', '--from-record', record, '--yes']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const runs = h
      .requests()
      .filter((q) => q.method === 'POST')
      .map((q) => q.path);
    expect(runs.sort()).toEqual(lines9.map((id) => `/rest/v2/campaigns/${id}/run`).sort());

    // A second pause run finishes the job, appending only what it pauses.
    h.sandbox.reset();
    const again = await h.run([...PAUSE, '--record', record]);
    expect(again.code, again.stderr).toBe(0);
    expect(pausedByTheRun(running).sort()).toEqual([...running].sort());
  });
});
