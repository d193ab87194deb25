/**
 * An apply stopped mid-way, through the built binary (a process to kill): killed with SIGKILL, the next
 * apply finishes it with nothing created twice; interrupted with Ctrl-C, the request in flight finishes,
 * its key is written, nothing new starts, and it exits 130.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID, type RecordedRequest } from '../../src/sandbox/index.js';
import { type Harness, startHarness } from '../helpers/cli.js';

const HOOK = 'https://crm.example.com/hooks/woodpecker';
const COMPANIES = '/rest/v2/agency/companies';

let h: Harness;
let scratch: string;
beforeAll(async () => {
  h = await startHarness({ seed: { companies: 3 } });
  scratch = mkdtempSync(join(tmpdir(), 'agency-apply-stop-'));
});
afterAll(async () => {
  await h.close();
  rmSync(scratch, { recursive: true, force: true });
});
beforeEach(() => h.sandbox.reset());

let files = 0;
function file(text: string): string {
  const path = join(scratch, `agency-${++files}.yaml`);
  writeFileSync(path, text);
  return path;
}

/** Resolves once the file holds a whole line (the first key reached it). */
function firstLineIn(path: string): Promise<void> {
  return new Promise((resolve) => {
    const poll = setInterval(() => {
      let text = '';
      try {
        text = readFileSync(path, 'utf8');
      } catch {}
      if (text.includes('\n')) {
        clearInterval(poll);
        resolve();
      }
    }, 5);
  });
}

const posts = (): RecordedRequest[] => h.requests().filter((r) => r.method === 'POST');
const lines = (text: string) => text.split('\n').filter(Boolean);

describe('apply killed', () => {
  it('an apply killed mid-way is finished by the next one, with nothing created twice', async () => {
    const names = Array.from({ length: 3 }, (_, i) => `Resumed Client ${i + 1}`);
    const path = file(
      [
        'defaults:',
        '  keys: [resume-a, resume-b]',
        '  webhooks:',
        `    - {event: prospect_replied, url: ${HOOK}/resume}`,
        `    - {event: prospect_interested, url: ${HOOK}/resume}`,
        'companies:',
        ...names.map((n) => `  - ${n}`),
        '',
      ].join('\n'),
    );
    const keysOut = join(scratch, 'resume-keys.tsv');
    // Key requests are slow; the process is killed once the first key reached the keys file,
    // while the next key request is still being processed.
    h.sandbox.addFault({
      method: 'POST',
      path: '/v2/agency/companies/*/api_keys',
      kind: 'stall',
      stallMs: 250,
      times: 0,
    });
    const first = h.spawn(['apply', '-f', path, '--yes', '--keys-out', keysOut]);
    await firstLineIn(keysOut);
    first.child.kill('SIGKILL');
    await first.result.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 500)); // the request in flight completes on the server
    const companyPosts = posts().filter((p) => p.path === COMPANIES).length;
    expect(companyPosts).toBe(1);
    // The run really stopped half-way: changes are still pending.
    const pending = await h.run(['plan', '-f', path, '--exit-code']);
    expect(pending.code, pending.stdout).toBe(6);
    h.sandbox.reset();

    const second = await h.run(['apply', '-f', path, '--yes', '--keys-out', keysOut]);
    expect(second.code, second.stderr).toBe(0);
    const held = h.sandbox.store.companies(MAIN_AGENCY_ID).filter((c) => names.includes(c.name));
    expect(held).toHaveLength(3);
    for (const company of held) {
      const labels = h.sandbox.store
        .keysOf(company.id)
        .filter((k) => k.label.startsWith('resume-'))
        .map((k) => k.label)
        .sort();
      expect(labels).toEqual(['resume-a', 'resume-b']);
    }
    expect(posts().filter((p) => p.path === COMPANIES)).toEqual([]);
    expect(posts().length).toBeGreaterThan(0);
    const plan = await h.run(['plan', '-f', path, '--exit-code']);
    expect(plan.code, plan.stdout).toBe(0);
    // The keys file holds each key once, and only keys the service holds.
    const written = lines(readFileSync(keysOut, 'utf8')).map((l) => l.split('\t')[3]);
    const held4 = held.flatMap((c) => h.sandbox.store.keysOf(c.id)).map((k) => k.key);
    expect(new Set(written).size).toBe(written.length);
    for (const key of written) expect(held4).toContain(key);
  });
});

describe('apply interrupted with Ctrl-C, SIGTERM or SIGHUP', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)(
    '%s lets the request in flight finish, writes its key, starts nothing new, exits %i',
    async (signal, code) => {
      const names = [`${signal} Client 1`, `${signal} Client 2`];
      const path = file(
        `defaults:\n  keys: [ctrl-a, ctrl-b]\ncompanies:\n${names.map((n) => `  - ${n}\n`).join('')}`,
      );
      const keysOut = join(scratch, `${signal}-keys.tsv`);
      h.sandbox.addFault({
        method: 'POST',
        path: '/v2/agency/companies/*/api_keys',
        kind: 'stall',
        stallMs: 400,
        times: 0,
      });
      const run = h.spawn(['apply', '-f', path, '--yes', '--keys-out', keysOut]);
      await firstLineIn(keysOut);
      run.child.kill(signal);
      const r = await run.result;
      expect(r.code).toBe(code);
      const keyPosts = posts().filter((p) => p.path.endsWith('/api_keys'));
      expect(keyPosts.length).toBeLessThan(4);
      // Every key the service made was written down and printed.
      const written = lines(readFileSync(keysOut, 'utf8'));
      expect(written).toHaveLength(keyPosts.length);
      for (const line of written) expect(r.stdout).toContain(line.split('\t')[3]);
      expect(r.stderr).toMatch(/Interrupted/);
    },
  );
});
