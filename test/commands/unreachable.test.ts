/**
 * The unreachable-service rule of the fleet commands: when every client account's reads find the
 * connection reset (after retries) for 5 accounts in a row, no further account is started, the run
 * says "the service is unreachable: N of M done" and exits 1 (health too: it could not check). And a
 * GET answered 500 once is tried again, so that health reports no false critical.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import type { Harness } from '../helpers/cli.js';
import { lines, startCoreHarness } from '../helpers/core.js';

const COMPANIES = 30;
let h: Harness;
beforeAll(async () => {
  h = await startCoreHarness({ seed: { companies: COMPANIES } }, { inProcess: true });
});
afterAll(async () => {
  await h?.close();
});
beforeEach(() => h.sandbox.reset());

/** Every per-company read resets the connection; the company list (and the HQ's own reads) still answer. */
function loseEveryAccount(): void {
  for (const path of ['/v2/agency/companies/*', '/v2/mailboxes', '/v1/webhooks', '/v1/campaign_list']) {
    h.sandbox.addFault({ method: 'GET', path, kind: 'reset-before', times: 0 });
  }
}

/** The client accounts (and companies of HQ reads) the run sent anything for. */
function accountsAsked(): Set<string> {
  const asked = new Set<string>();
  for (const q of h.requests()) {
    const viaHq = /\/v2\/agency\/companies\/(\d+)\//.exec(q.path)?.[1];
    const id = q.headers['x-company-id'] ?? viaHq;
    if (id) asked.add(String(id));
  }
  return asked;
}

const active = () => h.sandbox.store.companies(MAIN_AGENCY_ID).filter((c) => c.active);

describe('the service unreachable for 5 accounts in a row', () => {
  it('inventory starts no further account, says so on one line, and exits 1', async () => {
    loseEveryAccount();
    const r = await h.run(['inventory', '--concurrency', '5']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`error: the service is unreachable: 0 of ${COMPANIES} done`);
    expect(r.stderr.match(/unreachable: /g)).toHaveLength(1);
    // 5 accounts in a row, and those still in flight in the other lanes: not all 30.
    const asked = accountsAsked().size;
    expect(asked).toBeLessThan(10);
    // What was done is reported: the rows of the accounts tried, each saying why it is incomplete.
    expect(lines(r.stdout)).toHaveLength(asked);
  });

  it('health stops the same way and exits 1, not 7 (it could not check)', async () => {
    loseEveryAccount();
    const r = await h.run(['health', '--concurrency', '5']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/the service is unreachable: 0 of \d+ done/);
    // Health frees a lane while a client's last read is on its way: a few more are in flight, not all.
    expect(accountsAsked().size).toBeLessThan(14);
  });

  it('webhooks subscribe --all sends nothing after reading no account, and names what was done', async () => {
    loseEveryAccount();
    const r = await h.run([
      'webhooks',
      'subscribe',
      '--all',
      '--event',
      'prospect_replied',
      '--url',
      'https://crm.example.com/hook',
      '--concurrency',
      '5',
    ]);
    expect(r.code, r.stderr).toBe(1);
    // M counts every target, the inactive ones too; N the accounts finished (an inactive one skipped).
    const skipped = lines(r.stdout).filter((row) => row.endsWith('skipped-inactive')).length;
    expect(r.stderr).toContain(`the service is unreachable: ${skipped} of ${COMPANIES} done`);
    expect(h.requests().filter((q) => q.method === 'POST')).toEqual([]);
    expect(accountsAsked().size).toBeLessThan(10);
  });

  it('one lost account among answering ones is a failed row, not a stop; its reason has no id', async () => {
    // The first account's read is reset on all four tries; the next accounts answer.
    h.sandbox.addFault({ method: 'GET', path: '/v1/webhooks', kind: 'reset-before', times: 4 });
    const ids = active()
      .slice(0, 6)
      .flatMap((c) => ['--company', String(c.id)]);
    const r = await h.run(['webhooks', 'list', ...ids, '--concurrency', '1']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toContain('unreachable: ');
    expect(accountsAsked().size).toBe(6);
  });

  it('a summary groups the lost accounts under one reason, without a company id in it', async () => {
    h.sandbox.addFault({ method: 'POST', path: '/v1/webhooks/subscribe', kind: 'reset-before', times: 3 });
    const targets = active()
      .slice(0, 3)
      .flatMap((c) => ['--company', String(c.id)]);
    const r = await h.run([
      'webhooks',
      'subscribe',
      ...targets,
      '--event',
      'prospect_replied',
      '--url',
      'https://crm.example.com/grouped',
    ]);
    expect(r.code, r.stderr).toBe(1);
    const reasons = r.stderr.split('\n').filter((line) => / failed: /.test(line));
    expect(reasons, r.stderr).toHaveLength(1);
    expect(reasons[0]).toMatch(/^\s*3 failed: /);
    expect(reasons[0]).not.toMatch(/\d{4}/);
  });
});

describe('a GET answered 500 once', () => {
  it('is tried again: health finds no false critical', async () => {
    const [client] = active();
    if (!client) throw new Error('seed too small');
    const before = await h.run(['health', '--company', String(client.id), '--json']);
    h.sandbox.reset();
    h.sandbox.addFault({ method: 'GET', path: '/v2/mailboxes', kind: 'status', status: 500 });
    const r = await h.run(['health', '--company', String(client.id), '--json']);
    expect(r.code, r.stderr).toBe(before.code);
    expect(r.stdout).toBe(before.stdout);
    expect(r.stdout).not.toContain('unreadable');
    const mailboxReads = h.requests().filter((q) => q.path.endsWith('/v2/mailboxes'));
    expect(mailboxReads.map((q) => q.status)).toEqual([500, 200]);
  });
});
