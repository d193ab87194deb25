/**
 * `npm run demo` (scripts/demo.mjs on the built binary), as a new user sees it: every step in the order
 * its output was written (apply's plan before its results), and "Sandbox stopped." said once.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

// Everything the demo writes (its config, its files, the health page) goes here, and is removed.
const tmp = mkdtempSync(join(tmpdir(), 'agency-demo-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('npm run demo', () => {
  it('shows apply\'s plan before its results and says "Sandbox stopped." once', () => {
    const env: Record<string, string | undefined> = { ...process.env, TMPDIR: tmp };
    for (const name of Object.keys(env)) if (name.startsWith('AGENCY_')) delete env[name];
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'demo.mjs')], {
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    const output = `${r.stdout}${r.stderr}`;
    expect(r.status, output).toBe(0);
    expect(output.match(/Sandbox stopped\./g)).toHaveLength(1);
    const apply = output.split('\n# apply: ')[1]?.split('\n# ')[0] ?? '';
    const plan = apply.indexOf('Plan: ');
    const applied = apply.indexOf('✓ Applied');
    expect(plan, apply).toBeGreaterThan(0);
    expect(applied).toBeGreaterThan(plan);
    // The demo removed its own temporary directories; only the health page it names is left.
    expect(readdirSync(tmp)).toEqual(['agency-demo-health.html']);
  }, 150_000);
});
