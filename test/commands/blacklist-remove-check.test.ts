/**
 * `blacklist remove` (DELETE with the body of `add`, chunks of 500, only values listed, --dry-run) and
 * `blacklist check` (email_filter, split so that no request URL exceeds 4,100 characters, one row per
 * value) against the sandbox.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import type { Harness } from '../helpers/cli.js';
import { expectUsageError, lines, sent, startCoreHarness } from '../helpers/core.js';

const IN_PROCESS = { inProcess: true };
const listed = (h: Harness, kind: 'domains' | 'emails') => h.sandbox.store.blacklist(MAIN_AGENCY_ID)[kind];

describe('blacklist remove', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startCoreHarness({ seed: { companies: 3 } }, IN_PROCESS);
  });
  afterAll(() => h.close());
  beforeEach(() => h.sandbox.reset());

  it('sends DELETE {"domains": [...]} for the listed values only; a second run sends nothing', async () => {
    const [a, b] = listed(h, 'domains') as [string, string];
    const r = await h.run(['blacklist', 'remove', '--domains', a.toUpperCase(), 'never.example', b]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([`${a}\tremoved`, 'never.example\tabsent', `${b}\tremoved`]);
    expect(r.stderr).toContain('Removed 2 domains; 1 not listed.');
    const writes = sent(h.sandbox).filter((q) => q.method !== 'GET');
    expect(writes.map((q) => [q.method, q.path, q.body, q.status])).toEqual([
      ['DELETE', '/v2/agency/blacklist/domains', { domains: [a, b] }, 200],
    ]);
    expect(listed(h, 'domains')).not.toContain(a);

    h.sandbox.reset();
    const again = await h.run(['blacklist', 'remove', '--domains', a, b, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual([
      { value: a, result: 'absent' },
      { value: b, result: 'absent' },
    ]);
    expect(sent(h.sandbox).every((q) => q.method === 'GET')).toBe(true);
  });

  it('1,201 listed addresses go in DELETEs of 500, 500 and 201, in order', async () => {
    const values = Array.from({ length: 1201 }, (_, i) => `gone${i}@remove.example`);
    h.sandbox.store.addToBlacklist(MAIN_AGENCY_ID, 'emails', values);
    const r = await h.run(['blacklist', 'remove', '--emails', '--file', '-'], { input: values.join('\n') });
    expect(r.code, r.stderr).toBe(0);
    const deletes = sent(h.sandbox).filter((q) => q.method === 'DELETE');
    expect(deletes.map((q) => (q.body as { emails: string[] }).emails.length)).toEqual([500, 500, 201]);
    expect(deletes.flatMap((q) => (q.body as { emails: string[] }).emails)).toEqual(values);
    expect(listed(h, 'emails').some((v) => v.endsWith('@remove.example'))).toBe(false);
  }, 60_000);

  it('--dry-run reads the list, shows would-remove, and sends no DELETE', async () => {
    const present = listed(h, 'emails')[0] as string;
    const r = await h.run(['blacklist', 'remove', '--emails', present, 'not@listed.example', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([`${present}\twould-remove`, 'not@listed.example\tabsent']);
    expect(sent(h.sandbox).every((q) => q.method === 'GET')).toBe(true);
    expect(listed(h, 'emails')).toContain(present);
  });

  it('bad input is exit 2 with nothing sent, as for add', async () => {
    expectUsageError(
      await h.run(['blacklist', 'remove', '--domains', 'jane@x.example']),
      h.sandbox,
      /use --emails/,
    );
    expectUsageError(await h.run(['blacklist', 'remove', '--emails']), h.sandbox, /No emails to remove/);
    expectUsageError(await h.run(['blacklist', 'remove', 'x']), h.sandbox, /neither a domain/);
  });
});

describe('blacklist check', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startCoreHarness({ seed: { companies: 3 } }, IN_PROCESS);
  });
  afterAll(() => h.close());
  beforeEach(() => h.sandbox.reset());

  it('one row per value, each asked of the list its form names', async () => {
    const email = listed(h, 'emails')[0] as string;
    const domain = listed(h, 'domains')[0] as string;
    const r = await h.run([
      'blacklist',
      'check',
      email.toUpperCase(),
      'clean@nowhere.example',
      domain,
      `someone@${domain}`,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([
      `${email}\ttrue\ttrue\temail`,
      'clean@nowhere.example\tfalse\tfalse\t',
      `${domain}\ttrue\ttrue\tdomain`,
      // Not listed itself, but its domain is: outreach to it is blocked, by the domain.
      `someone@${domain}\tfalse\ttrue\tdomain`,
    ]);
    const requests = sent(h.sandbox);
    expect(requests.map((q) => [q.method, q.path, q.query.email_filter])).toEqual([
      ['GET', '/v2/agency/blacklist/emails', `${email},clean@nowhere.example,someone@${domain}`],
      // The domains given, then the addresses' domains, each once.
      ['GET', '/v2/agency/blacklist/domains', `${domain},${email.split('@')[1]},nowhere.example`],
    ]);
    expect(r.stderr).toContain('2 of 4 values are listed; 3 are blocked (1 by its domain).');
    const json = await h.run(['blacklist', 'check', domain, 'clean@nowhere.example', '--json']);
    expect(JSON.parse(json.stdout)).toEqual([
      { value: domain, listed: true, blocked: true, by: 'domain' },
      { value: 'clean@nowhere.example', listed: false, blocked: false, by: null },
    ]);
  });

  it('many values: every request URL within 4,100 characters, as few requests as fit', async () => {
    const values = Array.from({ length: 400 }, (_, i) => `prospect.number${i}@check-split.example`);
    h.sandbox.store.addToBlacklist(MAIN_AGENCY_ID, 'emails', [values[7] as string, values[399] as string]);
    const r = await h.run(['blacklist', 'check', '--file', '-'], { input: values.join('\n') });
    expect(r.code, r.stderr).toBe(0);
    const rows = lines(r.stdout).map((line) => line.split('\t'));
    expect(rows.map((row) => row[0])).toEqual(values);
    expect(rows.filter((row) => row[1] === 'true').map((row) => row[0])).toEqual([values[7], values[399]]);
    expect(rows.filter((row) => row[2] === 'true').map((row) => row[0])).toEqual([values[7], values[399]]);
    // The addresses' one domain is asked last, in a request of its own.
    const requests = h.sandbox.requests.filter((q) => q.path.endsWith('/emails'));
    expect(h.sandbox.requests.at(-1)?.query.email_filter).toBe('check-split.example');
    expect(requests.length).toBeGreaterThan(1);
    for (const request of requests) {
      expect(request.url.length).toBeLessThanOrEqual(4100);
      expect(request.status).toBe(200);
    }
    // Each request but the last was full: one more value would have crossed the limit.
    const perValue = encodeURIComponent(`,${values[0]}`).replace(/%2C/g, ',').length;
    for (const request of requests.slice(0, -1)) expect(request.url.length + perValue).toBeGreaterThan(4100);
    expect(requests.flatMap((q) => (q.query.email_filter as string).split(','))).toEqual(values);
    expect(r.stderr).toContain('2 of 400 values are listed; 2 are blocked.');
  });

  it('a value of neither form is exit 2 naming it; nothing is sent', async () => {
    const r = await h.run(['blacklist', 'check', 'ok.example', 'not a value']);
    expectUsageError(r, h.sandbox, /"not a value" \(argument 2\) is neither a domain/);
    expectUsageError(await h.run(['blacklist', 'check']), h.sandbox, /No values to check/);
  });
});
