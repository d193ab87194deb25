/**
 * The memory of `health` as a pure function: a problem is its client, check and subject (whatever its
 * detail or severity); new against the client's latest earlier run, else ongoing since that run's
 * first_seen; the problems of that run that are gone are resolved; a client never checked has only new
 * problems, and a client not checked now resolves nothing.
 */
import { describe, expect, it } from 'vitest';
import { type HealthMemory, remember } from '../../src/history/health-memory.js';
import type { Problem } from '../../src/reports/health.js';

const problem = (company_id: number, check: Problem['check'], subject = '', detail = 'x'): Problem => ({
  company_id,
  name: `Client ${company_id}`,
  severity: 'warning',
  check,
  subject,
  detail,
});
const T0 = '2026-11-30T06:00:00.000Z';
const T1 = '2026-12-01T06:00:00.000Z';
const NOW = '2026-12-02T06:00:00.000Z';

describe('remember', () => {
  // Keyed by the ids' digits (idKey).
  const memory: HealthMemory = new Map([
    [
      '1',
      {
        at: T1,
        problems: [
          {
            ...problem(1, 'mailbox_error', 'a@x.example', 'old detail'),
            severity: 'critical',
            first_seen: T0,
          },
          { ...problem(1, 'no_webhook'), first_seen: T1 },
        ],
      },
    ],
    ['2', { at: T1, problems: [{ ...problem(2, 'no_webhook'), first_seen: T0 }] }],
  ]);

  it('same client, check and subject: ongoing since its first_seen, whatever the detail and severity', () => {
    const now = [
      problem(1, 'mailbox_error', 'a@x.example', 'new detail'),
      problem(1, 'mailbox_error', 'b@x.example'),
    ];
    const { problems, resolved } = remember(now, [1], memory, NOW);
    expect(problems.map((p) => [p.subject, p.new, p.first_seen])).toEqual([
      ['a@x.example', false, T0],
      ['b@x.example', true, NOW],
    ]);
    expect(resolved).toEqual([
      expect.objectContaining({ company_id: 1, check: 'no_webhook', first_seen: T1, last_seen: T1 }),
    ]);
  });

  it('a client never checked has only new problems; a client not checked now resolves nothing', () => {
    const { problems, resolved } = remember([problem(3, 'no_webhook')], [3], memory, NOW);
    expect(problems).toEqual([expect.objectContaining({ company_id: 3, new: true, first_seen: NOW })]);
    expect(resolved).toEqual([]);
  });

  it('the problems keep their order and every field', () => {
    const now = [problem(2, 'no_webhook'), problem(1, 'no_webhook')];
    const { problems } = remember(now, [1, 2], memory, NOW);
    expect(problems).toEqual([
      { ...now[0], new: false, first_seen: T0 },
      { ...now[1], new: false, first_seen: T1 },
    ]);
  });
});
