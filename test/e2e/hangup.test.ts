/**
 * A real hang-up (contract, "Output failures and signals"): the terminal of a running apply is closed
 * (the tmux server is killed, as a closed window or ssh session would), with stdin still that terminal
 * and stdout/stderr in files. The run stops as for any SIGHUP: what was created is on stdout, the
 * message on stderr, exit 129, and never a native crash of Node restoring a terminal that is gone.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { agencyEnv, BIN, type Harness, startHarness } from '../helpers/cli.js';
import { testDir } from '../helpers/temp-dir.js';
import { Terminal, TMUX_MISSING } from '../helpers/tmux.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seed: { companies: 3 } });
});
afterAll(() => h.close());

/** Polls until `done` holds (bounded). */
async function until(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await sleep(20);
}

describe.skipIf(TMUX_MISSING)('the terminal of a running apply is closed', () => {
  it('exit 129 with the report (stdout: what was created; stderr: how far it got), no crash', async () => {
    const tmp = testDir('agency-hangup-');
    const names = Array.from({ length: 60 }, (_, i) => `Hung Up ${i + 1}`);
    const file = join(tmp, 'agency.yaml');
    writeFileSync(file, `companies:\n${names.map((n) => `  - ${n}\n`).join('')}`);
    // Each request of 10 names takes 300 ms: the terminal closes with most of them still to go.
    h.sandbox.addFault({
      kind: 'stall',
      method: 'POST',
      path: '/v2/agency/companies',
      stallMs: 300,
      times: 0,
    });
    const out = join(tmp, 'out');
    const err = join(tmp, 'err');
    const status = join(tmp, 'status');
    // Typed at an interactive shell, which passes the hang-up on to its job; the subshell that records
    // the exit status outlives it (it ignores SIGHUP; Node resets that for agency, whose stdin stays the
    // terminal).
    const env = agencyEnv({ configDir: h.configDir });
    const terminal = await Terminal.start({ env: { ...env, TERM: 'screen' } });
    terminal.type(
      `(trap '' HUP; "${process.execPath}" "${BIN}" apply -f "${file}" --yes >"${out}" 2>"${err}"; echo $? >"${status}")`,
    );
    // Hung up once the second request of 10 is out.
    await until(() => h.requests().filter((r) => r.method === 'POST').length >= 2, 20_000);
    await terminal.close();
    await until(() => existsSync(status) && readFileSync(status, 'utf8').endsWith('\n'), 15_000);

    const stderr = readFileSync(err, 'utf8');
    expect(readFileSync(status, 'utf8').trim(), stderr).toBe('129');
    expect(stderr).not.toMatch(/Assertion failed|Native stack trace|ResetStdio/);
    const created = h.sandbox.store.companies(MAIN_AGENCY_ID).filter((c) => c.name.startsWith('Hung Up'));
    expect(created.length).toBeGreaterThan(0);
    expect(created.length).toBeLessThan(names.length);
    expect(stderr).toContain(
      `error: Interrupted after ${created.length} of ${names.length} changes (listed on stdout).`,
    );
    const lines = readFileSync(out, 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(created.length);
    for (const company of created) expect(lines.join('\n')).toContain(company.name);
  });
});
