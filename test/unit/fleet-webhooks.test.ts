import { describe, expect, it } from 'vitest';
import { ApiError, ExitCode, NetworkError, UsageError } from '../../src/errors.js';
import { sharedExitCode } from '../../src/fleet/failures.js';
import { changeWebhooks, type WebhookChange } from '../../src/fleet/webhook-changes.js';
import { checkEvent, checkWebhookUrl, WEBHOOK_EVENTS } from '../../src/fleet/webhook-input.js';
import { type Call, FakeAgency } from './fleet-fake.js';

const URL_A = 'https://crm.example.com/hooks/woodpecker';

describe('webhook input checks', () => {
  it('accepts absolute http(s) URLs and refuses the rest before any request', () => {
    expect(checkWebhookUrl(` ${URL_A} `)).toBe(URL_A);
    expect(checkWebhookUrl('http://10.0.0.5:8080/x?y=1')).toBe('http://10.0.0.5:8080/x?y=1');
    const bad = [
      '',
      'crm.example.com/hooks',
      '/hooks',
      'ftp://crm.example.com/x',
      'http:crm.example.com',
      'https://user:secret@crm.example.com/x',
      'https://user@crm.example.com/x',
      'https://crm.example.com/a b',
      `https://crm.example.com/${'x'.repeat(2048)}`,
    ];
    for (const url of bad) expect(() => checkWebhookUrl(url), url).toThrow(UsageError);
    expect(() => checkWebhookUrl(`https://crm.example.com/${'x'.repeat(2048)}`)).toThrow(
      'it is longer than 2,048 characters',
    );
    expect(checkWebhookUrl(`https://c.io/${'x'.repeat(2048 - 13)}`)).toHaveLength(2048);
  });

  it('refuses a URL carrying a control, bidi or zero-width character (the set names and labels refuse too)', () => {
    for (const char of ['\u0007', '\u009b', '\u202e', '\u200b', '\u2066', '\ufeff'])
      expect(() => checkWebhookUrl(`${URL_A}/${char}x`), JSON.stringify(char)).toThrow(
        /contains spaces or control characters/,
      );
  });

  it('checks the event form, lower-cases it, and only warns about an unknown event', () => {
    expect(checkEvent('PROSPECT_REPLIED')).toEqual({ event: 'prospect_replied' });
    expect(checkEvent('prospect_bounced')).toEqual({ event: 'prospect_bounced' });
    const unknown = checkEvent('brand_new_event');
    expect(unknown.event).toBe('brand_new_event');
    expect(unknown.warning).toMatch(/not an event the tool knows/);
    for (const bad of ['', '1abc', 'prospect-replied', 'a b', '_x', 'é']) {
      expect(() => checkEvent(bad), bad).toThrow(UsageError);
    }
    expect(WEBHOOK_EVENTS).toContain('prospect_replied');
    expect(WEBHOOK_EVENTS.every((e) => /^[a-z][a-z0-9_]*$/.test(e))).toBe(true);
  });
});

describe('webhooks subscribe / unsubscribe across accounts', () => {
  function setup() {
    const a = new FakeAgency();
    const acme = a.addCompany('Acme Ltd'); // 1001
    const blue = a.addCompany('Blue Harbor'); // 1002
    const old = a.addCompany('Old Client', false); // 1003
    a.hooks.set(acme.id, [{ event: 'PROSPECT_REPLIED', target_url: URL_A }]);
    return { a, acme, blue, old };
  }
  const base = (over: Partial<WebhookChange>): WebhookChange => ({
    action: 'subscribe',
    events: ['prospect_replied', 'prospect_bounced'],
    url: URL_A,
    targets: [],
    concurrency: 4,
    ...over,
  });

  it('sends subscribe only for missing pairs, lower case, one row per (company, event)', async () => {
    const { a, acme, blue } = setup();
    const out = await changeWebhooks(a, base({ targets: [{ companyId: acme.id }, { companyId: blue.id }] }));
    expect(out.rows).toEqual([
      { company_id: 1001, event: 'PROSPECT_REPLIED', target_url: URL_A, result: 'exists' },
      { company_id: 1001, event: 'PROSPECT_BOUNCED', target_url: URL_A, result: 'subscribed' },
      { company_id: 1002, event: 'PROSPECT_REPLIED', target_url: URL_A, result: 'subscribed' },
      { company_id: 1002, event: 'PROSPECT_BOUNCED', target_url: URL_A, result: 'subscribed' },
    ]);
    // Accounts run at once (concurrency 4): the order is the account's own, within each account.
    const byCompany = (c: Call) => ('company' in c ? (c.company ?? 0) : 0);
    expect(a.posts().sort((x, y) => byCompany(x) - byCompany(y))).toEqual([
      { op: 'subscribe', company: 1001, event: 'prospect_bounced', url: URL_A },
      { op: 'subscribe', company: 1002, event: 'prospect_replied', url: URL_A },
      { op: 'subscribe', company: 1002, event: 'prospect_bounced', url: URL_A },
    ]);
    expect(out.failures.map((f) => f.exitCode)).toEqual([]);
    // A second run changes nothing.
    a.calls = [];
    const again = await changeWebhooks(
      a,
      base({ targets: [{ companyId: acme.id }, { companyId: blue.id }] }),
    );
    expect(again.rows.every((r) => r.result === 'exists')).toBe(true);
    expect(a.posts()).toEqual([]);
  });

  it('events compare case-insensitively with what the account lists', async () => {
    const { a, acme } = setup();
    a.hooks.set(acme.id, [{ event: 'prospect_replied', target_url: URL_A }]);
    const out = await changeWebhooks(
      a,
      base({ events: ['prospect_replied'], targets: [{ companyId: acme.id }] }),
    );
    expect(out.rows[0]?.result).toBe('exists');
    expect(a.posts()).toEqual([]);
  });

  it('unsubscribe sends only for present pairs', async () => {
    const { a, acme, blue } = setup();
    const out = await changeWebhooks(
      a,
      base({ action: 'unsubscribe', targets: [{ companyId: acme.id }, { companyId: blue.id }] }),
    );
    expect(out.rows.map((r) => `${r.company_id} ${r.event} ${r.result}`)).toEqual([
      '1001 PROSPECT_REPLIED unsubscribed',
      '1001 PROSPECT_BOUNCED absent',
      '1002 PROSPECT_REPLIED absent',
      '1002 PROSPECT_BOUNCED absent',
    ]);
    expect(a.posts()).toEqual([{ op: 'unsubscribe', company: 1001, event: 'prospect_replied', url: URL_A }]);
  });

  it('--dry-run reads but sends no POST', async () => {
    const { a, acme, blue } = setup();
    const out = await changeWebhooks(
      a,
      base({ dryRun: true, targets: [{ companyId: acme.id }, { companyId: blue.id }] }),
    );
    expect(out.rows.map((r) => r.result)).toEqual([
      'exists',
      'would-subscribe',
      'would-subscribe',
      'would-subscribe',
    ]);
    expect(a.posts()).toEqual([]);
    const un = await changeWebhooks(
      a,
      base({ action: 'unsubscribe', dryRun: true, targets: [{ companyId: acme.id }] }),
    );
    expect(un.rows.map((r) => r.result)).toEqual(['would-unsubscribe', 'absent']);
    expect(a.posts()).toEqual([]);
  });

  it('the key’s own account has a null company_id and no x-company-id', async () => {
    const { a } = setup();
    const out = await changeWebhooks(
      a,
      base({ events: ['prospect_replied'], targets: [{ companyId: null }] }),
    );
    expect(out.rows).toEqual([
      { company_id: null, event: 'PROSPECT_REPLIED', target_url: URL_A, result: 'subscribed' },
    ]);
    expect(a.posts()).toEqual([
      { op: 'subscribe', company: undefined, event: 'prospect_replied', url: URL_A },
    ]);
  });

  it('goes on past a failed company; a named inactive company fails with the service’s 409', async () => {
    const { a, acme, blue, old } = setup();
    const out = await changeWebhooks(
      a,
      base({ targets: [{ companyId: old.id }, { companyId: acme.id }, { companyId: blue.id }] }),
    );
    expect(out.rows.slice(0, 2).map((r) => [r.company_id, r.result, r.error?.status])).toEqual([
      [1003, 'failed', 409],
      [1003, 'failed', 409],
    ]);
    expect(out.rows.slice(2).map((r) => r.result)).toEqual([
      'exists',
      'subscribed',
      'subscribed',
      'subscribed',
    ]);
    expect(sharedExitCode(out.failures.map((f) => f.exitCode))).toBe(ExitCode.conflict);
  });

  it('--all reports inactive companies as skipped-inactive without a request', async () => {
    const { a, blue, old } = setup();
    const out = await changeWebhooks(
      a,
      base({
        events: ['prospect_replied'],
        targets: [{ companyId: old.id, skipInactive: true }, { companyId: blue.id }],
      }),
    );
    expect(out.rows.map((r) => `${r.company_id} ${r.result}`)).toEqual([
      '1003 skipped-inactive',
      '1002 subscribed',
    ]);
    expect(a.calls.some((c) => 'company' in c && c.company === old.id)).toBe(false);
    expect(out.failures.map((f) => f.exitCode)).toEqual([]);
  });

  it('a 4th URL of one event is a failed row without a request, naming the 3 URLs; the other rows go on', async () => {
    const { a, blue } = setup();
    const taken = [1, 2, 3].map((n) => `https://h${n}.example.com/`);
    a.hooks.set(
      blue.id,
      taken.map((target_url) => ({ event: 'PROSPECT_REPLIED', target_url })),
    );
    const out = await changeWebhooks(a, base({ targets: [{ companyId: blue.id }] }));
    expect(out.rows[0]).toMatchObject({ result: 'failed', error: { status: null } });
    expect(out.rows[0]?.error?.message).toContain(`(${taken.join(', ')}); not sent`);
    expect(out.rows[1]?.result).toBe('subscribed');
    expect(out.failures.map((f) => f.exitCode)).toEqual([ExitCode.conflict]);
    expect(a.calls.filter((c) => c.op === 'subscribe' && c.event === 'prospect_replied')).toEqual([]);
  });

  it('failures of different kinds share exit code 1', async () => {
    const { a, acme, blue } = setup();
    a.faults.push({
      when: (c) => c.op === 'webhooks' && c.company === blue.id,
      error: () => new NetworkError('reset'),
    });
    a.faults.push({
      when: (c) => c.op === 'subscribe' && c.company === acme.id,
      error: () => new ApiError('forbidden', { status: 403 }),
    });
    const out = await changeWebhooks(a, base({ targets: [{ companyId: acme.id }, { companyId: blue.id }] }));
    expect(out.rows.filter((r) => r.result === 'failed')).toHaveLength(3);
    expect(sharedExitCode(out.failures.map((f) => f.exitCode))).toBe(ExitCode.failure);
    expect(sharedExitCode([])).toBe(ExitCode.ok);
  });

  it('bounded concurrency across companies, one write at a time within an account', async () => {
    const a = new FakeAgency();
    const targets = Array.from({ length: 12 }, (_, i) => ({ companyId: a.addCompany(`C${i}`).id }));
    let inFlight = 0;
    let peak = 0;
    const perAccount = new Map<number | undefined, number>();
    let perAccountPeak = 0;
    const slow =
      <T>(company: number | undefined, run: () => Promise<T>) =>
      async () => {
        inFlight++;
        perAccount.set(company, (perAccount.get(company) ?? 0) + 1);
        peak = Math.max(peak, inFlight);
        perAccountPeak = Math.max(perAccountPeak, perAccount.get(company) ?? 0);
        await new Promise((r) => setTimeout(r, 2));
        try {
          return await run();
        } finally {
          inFlight--;
          perAccount.set(company, (perAccount.get(company) ?? 0) - 1);
        }
      };
    const api = {
      webhooks: (cid?: number) => slow(cid, () => a.webhooks(cid))(),
      subscribeWebhook: (cid: number | undefined, e: string, u: string) =>
        slow(cid, () => a.subscribeWebhook(cid, e, u))(),
      unsubscribeWebhook: (cid: number | undefined, e: string, u: string) =>
        slow(cid, () => a.unsubscribeWebhook(cid, e, u))(),
    };
    const out = await changeWebhooks(api, base({ targets, concurrency: 3 }));
    expect(out.rows).toHaveLength(24);
    expect(peak).toBe(3);
    expect(perAccountPeak).toBe(1);
  });
});
