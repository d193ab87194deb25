/**
 * `apply` on a real terminal (tmux): it shows the plan and asks; "n" sends nothing, "y" applies,
 * Ctrl-C at the question is an interruption (exit 130) with nothing sent.
 * Off a terminal the question cannot be asked, so --yes is required (plan-apply.test.ts). A plan piped
 * in (-f -) takes stdin, so the question is asked on the controlling terminal (/dev/tty); a process
 * without one (setsid) is refused, exit 2.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, type Harness, startHarness } from '../helpers/cli.js';
import { Terminal, TMUX_MISSING } from '../helpers/tmux.js';

let h: Harness;
let tmp: string;
let term: Terminal | undefined;

beforeAll(async () => {
  h = await startHarness({ seed: { companies: 5 } });
  tmp = mkdtempSync(join(tmpdir(), 'agency-apply-tty-'));
  const bin = join(tmp, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'agency'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, {
    mode: 0o755,
  });
  writeFileSync(join(tmp, 'agency.yaml'), 'companies:\n  - name: Asked Client\n    keys: [zapier]\n');
  writeFileSync(join(tmp, 'piped.yaml'), 'companies:\n  - name: Piped Client\n');
  if (!TMUX_MISSING) {
    term = await Terminal.start({
      width: 120,
      height: 30,
      env: {
        PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
        HOME: tmp,
        TERM: 'screen',
        LANG: 'C.UTF-8',
        AGENCY_CONFIG_DIR: h.configDir,
      },
    });
    term.type(`cd ${tmp}`);
  }
});
afterAll(async () => {
  await Promise.all([term?.close(), h?.close()]);
  rmSync(tmp, { recursive: true, force: true, maxRetries: 5 });
});
beforeEach(() => h.sandbox.reset());

const posts = () => h.requests().filter((q) => q.method === 'POST');

/** Runs apply on the terminal and answers its question: the screen at the question, and at the exit. */
async function applyAnswering(answer: (t: Terminal) => void): Promise<{ asked: string; done: string }> {
  const t = term as Terminal;
  await t.clear();
  t.type('agency apply -f agency.yaml; echo "[exit $?]"');
  const asked = await t.waitFor((s) => s.includes('[y/N]'));
  answer(t);
  const done = await t.waitFor((s) => /\[exit \d+\]/.test(s), { history: true });
  return { asked, done };
}

describe.skipIf(TMUX_MISSING !== undefined)(TMUX_MISSING ?? 'apply on a terminal', () => {
  it('shows the plan and asks; "n" sends nothing', async () => {
    const { asked, done } = await applyAnswering((t) => t.type('n'));
    expect(asked).toContain('+ company "Asked Client"');
    expect(asked).toContain('+ key "zapier" for "Asked Client"');
    expect(asked).toContain('Apply 2 changes? [y/N]');
    // Declining is the user's choice, not an error; exit 1 so that `apply && next-step` stops.
    expect(done).toContain('[exit 1]');
    expect(done).toMatch(/\[y\/N\] n\nApply cancelled: nothing was changed\.\n/);
    expect(done).not.toContain('error:');
    expect(posts()).toEqual([]);
  });

  it('Ctrl-C at the question: "Interrupted.", exit 130, nothing sent', async () => {
    const { done } = await applyAnswering((t) => t.key('C-c'));
    expect(done).toContain('[exit 130]');
    expect(done).toMatch(/\[y\/N\] *\nInterrupted\.\n/);
    expect(done).not.toMatch(/internal error|Aborted with/);
    expect(posts()).toEqual([]);
  });

  it('"y" applies: the company, then its key', async () => {
    const { done } = await applyAnswering((t) => t.type('y'));
    expect(done).toContain('[exit 0]');
    expect(done).toMatch(/\+ company "Asked Client" \(id \d+\)/);
    expect(done).toMatch(/\+ key "zapier" for "Asked Client": \S+/);
    expect(posts().map((q) => q.path.replace(/\/\d+\//, '/N/'))).toEqual([
      '/rest/v2/agency/companies',
      '/rest/v2/agency/companies/N/api_keys',
    ]);
  });
  it('the plan piped in (-f -): stdin holds the plan, so the question is asked on the terminal itself', async () => {
    const t = term as Terminal;
    await t.clear();
    t.type('cat piped.yaml | agency apply -f -; echo "[exit $?]"');
    const asked = await t.waitFor((s) => s.includes('[y/N]'));
    expect(asked).toContain('+ company "Piped Client"');
    expect(asked).toContain('Apply 1 change? [y/N]');
    // Read from stdin (the plan, at its end) this would be the empty answer: "Apply cancelled".
    t.type('y');
    const done = await t.waitFor((s) => /\[exit \d+\]/.test(s), { history: true });
    expect(done).toContain('[exit 0]');
    expect(done).toMatch(/\+ company "Piped Client" \(id \d+\)/);
    expect(posts().map((q) => q.path)).toEqual(['/rest/v2/agency/companies']);
  });

  it('the plan piped in with no controlling terminal (setsid): exit 2 saying to pass --yes, nothing sent', async () => {
    const t = term as Terminal;
    await t.clear();
    t.type('cat piped.yaml | setsid -w agency apply -f -; echo "[exit $?]"');
    const done = await t.waitFor((s) => /\[exit \d+\]/.test(s), { history: true });
    expect(done).toContain('[exit 2]');
    expect(done.replace(/\s+/g, ' ')).toContain(
      'error: apply reads the plan from stdin, so it cannot read an answer there, and there is no terminal to ask on: it needs --yes.',
    );
    expect(done).not.toContain('[y/N]');
    expect(h.requests()).toEqual([]);
  });
});
