/**
 * The rules of `health` at their thresholds: each check fires at its boundary and not below it, a
 * check whose read failed is not run, and problems sort by severity then client.
 */
import { describe, expect, it } from 'vitest';
import type { Deliverability } from '../../src/api/types.js';
import { withRates } from '../../src/fleet/deliverability.js';
import { type ClientFacts, checkClient, THRESHOLDS } from '../../src/fleet/health-checks.js';
import { sortProblems } from '../../src/fleet/health-report.js';

const pair = (current_period: number, previous_period = current_period) => ({
  current_period,
  previous_period,
});

function listed(
  sent: number,
  bounces: number,
  replies: [now: number, before: number],
  delivered = sent - bounces,
) {
  return withRates({
    id: 7,
    name: 'Acme',
    emails_sent: pair(sent),
    delivered_emails: pair(delivered, 1000),
    views: pair(0),
    replies: pair(replies[0], replies[1]),
    bounces: pair(bounces, 0),
  } satisfies Deliverability);
}

function facts(overrides: Partial<ClientFacts> = {}): ClientFacts {
  return {
    id: 7,
    name: 'Acme',
    mailboxes: [],
    campaigns: [{ id: 1, name: 'Q3', status: 'RUNNING', error: null }],
    webhooks: [{ event: 'PROSPECT_REPLIED' }],
    deliverability: undefined,
    ...overrides,
  };
}

const found = (f: ClientFacts) => checkClient(f).map((p) => `${p.severity} ${p.check}`);

describe('health checks at their thresholds', () => {
  it('bounce rate: below 2% nothing, 2% a warning, 5% critical, under 20 emails sent nothing', () => {
    expect(THRESHOLDS).toMatchObject({ bounceWarning: 0.02, bounceCritical: 0.05, minimumEmails: 20 });
    const at = (sent: number, bounces: number) =>
      found(facts({ deliverability: listed(sent, bounces, [50, 50]) }));
    expect(at(1000, 19)).toEqual([]);
    expect(at(1000, 20)).toEqual(['warning bounce_rate']);
    expect(at(1000, 49)).toEqual(['warning bounce_rate']);
    expect(at(1000, 50)).toEqual(['critical bounce_rate']);
    expect(at(19, 10)).toEqual([]);
  });

  it('bounce rate: its detail writes counts as the HTML report does (1,170, not 1170)', () => {
    const [problem] = checkClient(facts({ deliverability: listed(1170, 33, [50, 50]) }));
    expect(problem?.detail).toBe('bounce rate 2.8% (33 of 1,170 sent), at or above 2.0%');
  });

  it('reply rate: a drop to half or less of the previous period is a warning; less of a drop is not', () => {
    const with_ = (now: number, before: number) =>
      found(facts({ deliverability: listed(1000, 0, [now, before], 1000) }));
    expect(with_(50, 100)).toEqual(['warning reply_rate_drop']);
    expect(with_(51, 100)).toEqual([]);
    expect(with_(0, 0)).toEqual([]);
    expect(with_(0, 100)).toEqual(['warning reply_rate_drop']);
  });

  it('mailboxes: an error is critical (once per SMTP/IMAP pair), "Connected conditionally." a warning, in_slot false a warning', () => {
    const pairOf = (smtpError: string | null, imapError: string | null, in_slot = true) => [
      { id: 1, type: 'SMTP', details: { email: 'a@x.example', error: smtpError, imap_id: 2, in_slot } },
      { id: 2, type: 'IMAP', details: { email: 'a@x.example', error: imapError } },
    ];
    expect(found(facts({ mailboxes: pairOf('535 auth failed', 'IMAP timed out') }))).toEqual([
      'critical mailbox_error',
    ]);
    expect(found(facts({ mailboxes: pairOf('Connected conditionally.', null) }))).toEqual([
      'warning mailbox_warning',
    ]);
    expect(found(facts({ mailboxes: pairOf('', null, false) }))).toEqual(['warning mailbox_not_in_slot']);
    expect(found(facts({ mailboxes: pairOf(null, null) }))).toEqual([]);
  });

  it('campaigns and webhooks: an error is critical; nothing running and no webhook are info', () => {
    expect(
      found(
        facts({
          campaigns: [{ id: 3, name: 'Spring', status: 'PAUSED', error: 'Sending limit reached' }],
          webhooks: [],
        }),
      ),
    ).toEqual(['critical campaign_error', 'info no_running_campaign', 'info no_webhook']);
  });

  it('no running campaign: its detail counts the campaigns in words that fit the count', () => {
    const detail = (statuses: string[]) =>
      checkClient(
        facts({ campaigns: statuses.map((status, id) => ({ id, name: 'C', status, error: null })) }),
      )
        .filter((p) => p.check === 'no_running_campaign')
        .map((p) => p.detail);
    expect(detail([])).toEqual(['no campaign at all']);
    expect(detail(['PAUSED'])).toEqual(['its one campaign is not running']);
    expect(detail(['PAUSED', 'DRAFT'])).toEqual(['none of its 2 campaigns is running']);
  });

  it('a read that failed runs none of its checks (no "no webhook" for a list that could not be read)', () => {
    expect(found(facts({ campaigns: undefined, webhooks: undefined, mailboxes: undefined }))).toEqual([]);
  });

  it("sorts by severity, then by the clients' order, keeping a client's own order", () => {
    const p = (
      company_id: number,
      severity: 'critical' | 'warning' | 'info',
      check = 'no_webhook' as const,
    ) => ({
      company_id,
      name: String(company_id),
      severity,
      check,
      subject: '',
      detail: '',
    });
    const sorted = sortProblems([p(2, 'info'), p(1, 'warning'), p(2, 'critical'), p(1, 'critical')], [2, 1]);
    expect(sorted.map((x) => `${x.company_id} ${x.severity}`)).toEqual([
      '2 critical',
      '1 critical',
      '1 warning',
      '2 info',
    ]);
  });
});
