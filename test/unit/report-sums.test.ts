/**
 * The arithmetic of `agency report` (src/fleet/report.ts): a campaign's rows (one per sending mailbox)
 * summed, campaigns by id, a client's totals, rates from the counts whatever the service's rate fields
 * say (strings with % or numbers), and a count that is not a number making the report unreadable.
 */
import { describe, expect, it } from 'vitest';
import { ExactInteger } from '../../src/api/json.js';
import { clientResults, UnreadableRow } from '../../src/fleet/report.js';

function row(id: unknown, sentFrom: string, n: number, rates: Record<string, unknown> = {}) {
  return {
    id,
    name: `Campaign ${String(id)}`,
    status: 'RUNNING',
    sent_from: sentFrom,
    contacted_prospects: 10 * n,
    bounced: n,
    opened: 5 * n,
    clicked: n,
    opt_out: 0,
    delivered: 9 * n,
    responded: 2 * n,
    interested: n,
    maybe_later: 0,
    not_interested: 0,
    bounced_rate: '10.0%',
    open_rate: '55.6%',
    response_rate: '22.2%',
    ...rates,
  };
}

describe('report sums', () => {
  it("sums a campaign's mailbox rows, orders campaigns by id and computes the rates from the sums", () => {
    const result = clientResults(1001, 'Acme Ltd', [row(7, 'b@x', 2), row(3, 'a@x', 1), row(7, 'c@x', 1)]);
    expect(result.campaigns.map((c) => c.id)).toEqual([3, 7]);
    const seven = result.campaigns[1];
    expect(seven).toMatchObject({
      contacted: 30,
      delivered: 27,
      replied: 6,
      interested: 3,
      mailboxes: ['b@x', 'c@x'],
    });
    expect(seven?.bounce_rate).toBe(3 / 30);
    expect(seven?.reply_rate).toBe(6 / 27);
    expect(result.totals).toMatchObject({ campaigns: 2, contacted: 40, interested: 4 });
    expect(result.totals.interested_rate).toBe(4 / 36);
  });

  it("never trusts the service's rates: strings, numbers or nonsense give the same result", () => {
    const strings = clientResults(1, 'a', [row(1, 'a@x', 1)]);
    const numbers = clientResults(1, 'a', [
      row(1, 'a@x', 1, { bounced_rate: 0.5, open_rate: 5.2, response_rate: 99 }),
    ]);
    const odd = clientResults(1, 'a', [row(1, 'a@x', 1, { bounced_rate: 'n/a', open_rate: null })]);
    expect(numbers).toEqual(strings);
    expect(odd).toEqual(strings);
  });

  it('a count that is not a number makes the report unreadable, never a silent 0', () => {
    expect(() => clientResults(1, 'a', [row(1, 'a@x', 1, { interested: '3' })])).toThrow(UnreadableRow);
    expect(() => clientResults(1, 'a', [row(1, 'a@x', 1, { responded: undefined })])).toThrow(/"responded"/);
    expect(() => clientResults(1, 'a', ['nope'])).toThrow(UnreadableRow);
  });

  it('nothing to divide by is null; no row is a client of zeros; ids beyond 2^53 stay exact and ordered', () => {
    expect(clientResults(1, 'a', []).totals).toMatchObject({ campaigns: 0, contacted: 0, reply_rate: null });
    const big = new ExactInteger('9007199254740993');
    const result = clientResults(1, 'a', [row(big, 'a@x', 1), row(12, 'a@x', 1)]);
    expect(result.campaigns.map((c) => String(c.id))).toEqual(['12', '9007199254740993']);
  });
});
