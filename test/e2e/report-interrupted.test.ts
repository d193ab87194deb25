/**
 * `report` piped and stopped by Ctrl-C, through the built binary: each client's rows are printed as soon
 * as it and the clients before it are done (the third client's report is never ready, so what the pipe
 * shows before the signal can only have been streamed); Ctrl-C keeps those rows, adds the rows of the
 * clients that finished behind one still running (in the clients' order), names the clients not done,
 * and exits 130 without a stack trace.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { type Harness, startHarness } from '../helpers/cli.js';
import { lines } from '../helpers/core.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seed: { companies: 8 }, reports: { pendingPolls: 0 } });
});
afterAll(() => h.close());

/** This client's report is pending at every poll. */
const neverReady = (company: number) =>
  h.sandbox.addFault({ kind: 'report-pending', method: 'GET', path: '/v2/reports/*', company, times: 0 });
/** The GETs (report polls) the sandbox received for this client. */
const polls = (company: number) =>
  h.requests().filter((r) => r.headers['x-company-id'] === String(company) && r.method === 'GET');

describe('report interrupted', () => {
  it('streams the rows of the clients done in order; Ctrl-C adds those done behind one still running, names the rest, exits 130', async () => {
    const active = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true });
    const [first, second, third, fourth, fifth] = active as [
      (typeof active)[0],
      (typeof active)[0],
      (typeof active)[0],
      (typeof active)[0],
      (typeof active)[0],
    ];
    neverReady(third.id);
    neverReady(fifth.id);
    const run = h.spawn(['report', '--by', 'client', '--concurrency', '2']);
    let stdout = '';
    run.child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    // Two lanes: the third holds one; the other does the fourth, then the fifth (polled only once the
    // fourth is done). So the fourth is done, after the third, which is not: only two rows can come.
    const polled = () => polls(fifth.id);
    const deadline = Date.now() + 20_000;
    while ((stdout.split('\n').length < 3 || polled().length === 0) && Date.now() < deadline) await sleep(20);
    expect(lines(stdout).map((line) => Number(line.split('\t')[0]))).toEqual([first.id, second.id]);
    run.child.kill('SIGINT');
    const r = await run.result;
    expect(r.code).toBe(130);
    // The fourth finished: its row follows the streamed ones, in the clients' order.
    expect(r.stdout.startsWith(stdout)).toBe(true);
    expect(lines(r.stdout).map((line) => Number(line.split('\t')[0]))).toEqual([
      first.id,
      second.id,
      fourth.id,
    ]);
    expect(r.stderr).toMatch(/Interrupted after 3 clients/);
    const rest = [third, ...active.slice(4)].map((c) => `${c.id} ${JSON.stringify(c.name)}`);
    expect(r.stderr).toContain(`Not done: ${rest.join(', ')}.`);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  it('Ctrl-C names the listed clients that were never started, too', async () => {
    h.sandbox.reset();
    const active = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true });
    const third = active[2] as (typeof active)[0];
    neverReady(third.id);
    // One at a time: the clients after the third are listed (one page) but never started.
    const run = h.spawn(['report', '--by', 'client', '--concurrency', '1']);
    const polled = () => polls(third.id);
    const deadline = Date.now() + 20_000;
    while (polled().length === 0 && Date.now() < deadline) await sleep(20);
    run.child.kill('SIGINT');
    const r = await run.result;
    expect(r.code).toBe(130);
    expect(lines(r.stdout).map((line) => Number(line.split('\t')[0]))).toEqual([
      active[0]?.id,
      active[1]?.id,
    ]);
    const rest = active.slice(2).map((c) => `${c.id} ${JSON.stringify(c.name)}`);
    expect(r.stderr).toContain(`Not done: ${rest.join(', ')}.`);
  });
});
