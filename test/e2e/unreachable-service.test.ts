/**
 * A service that dies in the middle of a fleet read: `agency sandbox` (its own process) is killed while
 * `inventory` audits its 250 clients. The run stops starting accounts once 5 in a row found nothing to
 * talk to, says so on one line, keeps the rows it printed, and exits 1 — instead of grinding through
 * every company (how long that takes is measured by hand, never asserted).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, spawnAgency } from '../helpers/cli.js';
import { lines } from '../helpers/core.js';

const CLIENTS = 250;
const dir = mkdtempSync(join(tmpdir(), 'agency-unreachable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `agency sandbox` as a separate process, with the base URL and HQ key it printed. */
async function startSandbox() {
  const child = spawn(
    process.execPath,
    [BIN, 'sandbox', '--port', '0', '--json', '--quiet', '--no-save-profile', '--companies', String(CLIENTS)],
    {
      env: { ...process.env, AGENCY_CONFIG_DIR: join(dir, 'sandbox-config') },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const first = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.on('close', () => reject(new Error('the sandbox exited before printing its address')));
  });
  const info = JSON.parse(first) as { base_url: string; hq_key: string };
  const kill = async () => {
    child.kill('SIGKILL');
    await exited;
  };
  return { ...info, kill };
}

describe('the service killed in the middle of inventory', () => {
  it('ends the run with one line saying it is unreachable, the rows printed kept, exit 1', async () => {
    const sandbox = await startSandbox();
    const run = spawnAgency(['--base-url', sandbox.base_url, 'inventory'], {
      configDir: join(dir, 'config'),
      env: { AGENCY_API_KEY: sandbox.hq_key },
      timeoutMs: 60_000,
    });
    let stdout = '';
    run.child.stdout.on('data', (chunk: Buffer | string) => {
      stdout += String(chunk);
    });
    // Killed once the audit is well under way.
    while (lines(stdout).length < 20 && run.child.exitCode === null)
      await new Promise((r) => setTimeout(r, 10));
    await sandbox.kill();
    const r = await run.result;
    expect(r.code, r.stderr).toBe(1);
    const said = r.stderr.split('\n').filter((line) => line.includes('unreachable'));
    expect(said, r.stderr).toEqual([
      expect.stringMatching(new RegExp(`^error: the service is unreachable: \\d+ of ${CLIENTS} done$`)),
    ]);
    const done = Number(/unreachable: (\d+) of/.exec(r.stderr)?.[1]);
    const rows = lines(r.stdout);
    // Far from every company: the ones audited before the kill, and the few found unreachable.
    expect(done).toBeGreaterThanOrEqual(20);
    expect(rows.length).toBeGreaterThanOrEqual(done);
    expect(rows.length).toBeLessThan(CLIENTS / 2);
    // No stack trace, no summary of 250 groups.
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.stderr.split('\n').length).toBeLessThan(10);
  }, 90_000);
});
