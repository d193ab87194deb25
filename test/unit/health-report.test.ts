/**
 * The health report as a value (src/fleet/health-report.ts), built from data: no sandbox, no clock.
 * The verdict's precedence (exit 7 before a named inactive client's 5), what --severity and --check
 * keep and what the verdict then judges, the counts and summary, and the deliverability rows of the
 * clients checked.
 */
import { describe, expect, it } from 'vitest';
import type { Deliverability } from '../../src/api/types.js';
import type { ClientResult } from '../../src/fleet/health.js';
import { type HealthFilter, type HealthRun, healthReport } from '../../src/fleet/health-report.js';
import type { Problem, Severity } from '../../src/reports/health.js';
import { render } from '../../src/terms.js';

const NOW = new Date('2026-06-30T12:00:00');
const pair = (current_period: number, previous_period: number) => ({ current_period, previous_period });

function problem(company_id: number, severity: Severity, check: Problem['check'] = 'no_webhook'): Problem {
  return {
    company_id,
    name: `Client ${company_id}`,
    severity,
    check,
    subject: '',
    detail: `${check} of ${company_id}`,
  };
}

function checked(id: number, ...problems: Problem[]): ClientResult {
  return { client: { id, name: `Client ${id}` }, state: 'checked', problems };
}

function inactive(id: number): ClientResult {
  return { client: { id, name: `Client ${id}` }, state: 'inactive', problems: [] };
}

function run(results: ClientResult[], more: Partial<HealthRun> = {}): HealthRun {
  return { period: {}, now: NOW, results, listing: [], named: false, ...more };
}

const CRITICAL: HealthFilter = { failOn: 'critical' };

describe('the health report', () => {
  it('problems worst first, then in the clients’ order; counts and the summary line', () => {
    const report = healthReport(
      run([
        checked(2, problem(2, 'info'), problem(2, 'critical', 'campaign_error')),
        checked(1, problem(1, 'warning', 'mailbox_not_in_slot'), problem(1, 'critical', 'mailbox_error')),
      ]),
      CRITICAL,
    );
    expect(report.problems.map((p) => `${p.company_id} ${p.severity}`)).toEqual([
      '2 critical',
      '1 critical',
      '1 warning',
      '2 info',
    ]);
    expect(report.counts).toEqual({ critical: 2, warning: 1, info: 1 });
    expect(report.summary).toBe('2 critical, 1 warning, 1 info across 2 clients.');
    expect(report.period).toEqual({ from: '2026-06-01', to: '2026-06-30' });
    expect(report.periodLabel).toBe('2026-06-01 to 2026-06-30 (the last 30 days)');
    // The verdict names the option as a reference (src/terms.ts): each host says it in its terms.
    const { verdict } = report;
    expect('message' in verdict ? { ...verdict, message: render(verdict.message) } : verdict).toEqual({
      exit: 7,
      message: '2 problems at or above critical (--fail-on critical).',
    });
  });

  it('exit 7 takes precedence over a named inactive client, which is then in not_checked only', () => {
    const results = [checked(1, problem(1, 'critical', 'mailbox_error')), inactive(2)];
    const report = healthReport(run(results, { named: true }), CRITICAL);
    expect(report.verdict.exit).toBe(7);
    expect(report.notChecked).toEqual([{ company_id: 2, name: 'Client 2', reason: 'inactive' }]);
    expect(report.summary).toBe('1 critical, 0 warnings, 0 info across 1 client; 1 inactive not checked.');
    // Below --fail-on, the named inactive client is what the exit says (5), never a silent pass.
    const calm = healthReport(run([checked(1, problem(1, 'info')), inactive(2)], { named: true }), CRITICAL);
    expect(calm.verdict).toEqual({
      exit: 5,
      message: 'A client named is inactive and could not be checked (the service answers 409): 2 "Client 2".',
    });
    // Not named (every client was asked for): an inactive one is no failure.
    expect(healthReport(run([inactive(2)]), CRITICAL).verdict).toEqual({ exit: 0 });
    expect(healthReport(run(results, { named: true }), { failOn: 'none' }).verdict.exit).toBe(5);
  });

  it('--severity and --check keep some problems; the verdict judges only those', () => {
    const results = [
      checked(1, problem(1, 'critical', 'mailbox_error'), problem(1, 'warning', 'bounce_rate')),
      checked(2, problem(2, 'info', 'no_webhook'), problem(2, 'warning', 'reply_rate_drop')),
    ];
    const warnings = healthReport(run(results), { failOn: 'critical', severity: 'warning' });
    expect(warnings.problems.map((p) => p.check)).toEqual([
      'mailbox_error',
      'bounce_rate',
      'reply_rate_drop',
    ]);
    expect(render(warnings.summary)).toBe(
      '1 critical, 2 warnings, 0 info across 2 clients; 1 other problem left out (--severity, --check).',
    );
    const someChecks = healthReport(run(results), {
      failOn: 'critical',
      checks: ['no_webhook', 'bounce_rate'],
    });
    expect(someChecks.problems.map((p) => p.check)).toEqual(['bounce_rate', 'no_webhook']);
    // The critical mailbox error was left out: nothing kept is at or above critical.
    expect(someChecks.verdict).toEqual({ exit: 0 });
    expect(someChecks.counts).toEqual({ critical: 0, warning: 1, info: 1 });
  });

  it('deliverability rows for the clients checked, with the rates of both periods, a quiet one as zeros', () => {
    const item: Deliverability = {
      id: 1,
      name: 'Client 1',
      emails_sent: pair(1000, 800),
      delivered_emails: pair(980, 800),
      views: pair(400, 300),
      replies: pair(49, 80),
      bounces: pair(20, 0),
    };
    const report = healthReport(run([checked(1), checked(3), inactive(2)], { listing: [item] }), CRITICAL);
    expect(report.deliverability.map((r) => r.id)).toEqual([1, 3]);
    const [busy, quiet] = report.deliverability;
    expect(busy).toMatchObject({
      reply_rate: 0.05,
      reply_rate_previous: 0.1,
      reply_rate_change: 0.05 - 0.1,
      bounce_rate: 0.02,
      bounce_rate_previous: 0,
      bounce_rate_change: 0.02,
    });
    expect(quiet).toMatchObject({ emails_sent: pair(0, 0), reply_rate: null, reply_rate_change: null });
    expect(report.bounceMarks).toEqual([0.02, 0.05]);
  });

  it('with the history: new or since; --new keeps the new ones and the verdict judges only those', () => {
    const T0 = '2026-06-29T06:00:00.000Z';
    const AT = '2026-06-30T06:00:00.000Z';
    const clients = new Map([
      [
        '1',
        {
          at: T0,
          problems: [
            { ...problem(1, 'critical', 'mailbox_error'), first_seen: T0 },
            { ...problem(1, 'info'), first_seen: T0 },
          ],
        },
      ],
    ]);
    const results = [
      checked(1, problem(1, 'critical', 'mailbox_error')),
      checked(2, problem(2, 'warning', 'mailbox_not_in_slot')),
    ];
    const all = healthReport(run(results, { memory: { clients, at: AT, onlyNew: false } }), CRITICAL);
    expect(all.problems.map((p) => [p.company_id, p.new, p.first_seen])).toEqual([
      [1, false, T0],
      [2, true, AT],
    ]);
    expect(all.memory?.resolved).toEqual([
      expect.objectContaining({ company_id: 1, check: 'no_webhook', last_seen: T0 }),
    ]);
    expect(all.memory?.since).toBe(T0);
    expect(all.verdict.exit).toBe(7);
    expect(all.summary).toMatch(/ 1 new, 1 ongoing, 1 resolved since the last run\.$/);
    // --new: the ongoing critical is left out and fails nothing; the record still has every problem.
    const fresh = healthReport(run(results, { memory: { clients, at: AT, onlyNew: true } }), CRITICAL);
    expect(fresh.problems.map((p) => p.company_id)).toEqual([2]);
    expect(fresh.verdict).toEqual({ exit: 0 });
    expect(fresh.memory?.record?.problems).toHaveLength(2);
    expect(
      healthReport(run(results, { memory: { clients, at: AT, onlyNew: true } }), { failOn: 'warning' })
        .verdict.exit,
    ).toBe(7);
    // Without the history: no marks, no memory.
    const plain = healthReport(run(results), CRITICAL);
    expect(plain.memory).toBeUndefined();
    expect(plain.problems.length).toBeGreaterThan(0);
    expect(plain.problems.filter((p) => 'new' in p)).toEqual([]);
  });

  it('an interrupted run says after how many clients', () => {
    const report = healthReport(run([checked(1)], { stopped: { of: 'of 120 clients' } }), CRITICAL);
    expect(report.interrupted).toEqual({ clientsDone: 1, of: 'of 120 clients' });
    expect(healthReport(run([checked(1)]), CRITICAL).interrupted).toBeUndefined();
  });
});
