/**
 * `webhooks move` logic with a fake agency that keeps the service's 3-URL cap: the order of writes
 * per event, the run cut short between the two writes, restore and its failure, a second run.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { type MoveRow, moveWebhooks } from '../../src/fleet/webhook-move.js';
import { FakeAgency } from './fleet-fake.js';

const FROM = 'https://old.example.com/h';
const TO = 'https://new.example.com/h';
const other = (n: number) => `https://other${n}.example.com/h`;

function agency(hooks: [string, string][]) {
  const a = new FakeAgency();
  const c = a.addCompany('Acme Ltd');
  a.hooks.set(
    c.id,
    hooks.map(([event, target_url]) => ({ event, target_url })),
  );
  return { a, id: c.id };
}
const move = (a: FakeAgency, id: number, extra: { events?: string[]; dryRun?: boolean } = {}) =>
  moveWebhooks(a, {
    from: FROM,
    to: TO,
    events: extra.events ?? [],
    targets: [{ companyId: id }],
    dryRun: extra.dryRun,
    concurrency: 2,
  });
const writes = (a: FakeAgency) =>
  a.posts().map((c) => ('url' in c ? `${c.op} ${c.event.toUpperCase()} ${c.url}` : c.op));

describe('moveWebhooks', () => {
  it('fewer than 3 URLs: subscribe --to, then unsubscribe --from; again: already-moved, nothing sent', async () => {
    const { a, id } = agency([
      ['PROSPECT_REPLIED', FROM],
      ['PROSPECT_REPLIED', other(1)],
    ]);
    const first = await move(a, id);
    expect(first.rows.map((r) => r.result)).toEqual(['moved']);
    expect(writes(a)).toEqual([`subscribe PROSPECT_REPLIED ${TO}`, `unsubscribe PROSPECT_REPLIED ${FROM}`]);
    a.calls = [];
    const second = await move(a, id);
    expect(second.rows.map((r) => r.result)).toEqual(['already-moved']);
    expect(writes(a)).toEqual([]);
  });

  it('3 URLs: unsubscribe --from first; a refused --to is restored; a failed restore names what is missing', async () => {
    const hooks: [string, string][] = [
      ['EMAIL_OPENED', other(1)],
      ['EMAIL_OPENED', FROM],
      ['EMAIL_OPENED', other(2)],
    ];
    const ok = agency(hooks);
    expect((await move(ok.a, ok.id)).rows[0]?.result).toBe('moved');
    expect(writes(ok.a)).toEqual([`unsubscribe EMAIL_OPENED ${FROM}`, `subscribe EMAIL_OPENED ${TO}`]);

    const refused = agency(hooks);
    const boom = () => new ApiError('Internal Server Error', { status: 500 });
    refused.a.faults.push({ when: (c) => c.op === 'subscribe' && c.url === TO, error: boom });
    const restored = await move(refused.a, refused.id);
    expect(restored.rows[0]).toMatchObject({ result: 'restored', error: { status: 500 } });
    expect(restored.failures.map((f) => f.exitCode)).toEqual([1]);
    expect(refused.a.hooks.get(refused.id)?.map((w) => w.target_url)).toContain(FROM);

    const lost = agency(hooks);
    lost.a.faults.push({ when: (c) => c.op === 'subscribe', error: boom, once: false });
    const failed = await move(lost.a, lost.id);
    expect(failed.rows[0]?.result).toBe('failed');
    expect(failed.rows[0]?.error?.message).toContain(
      `EMAIL_OPENED is now subscribed at neither URL: ${FROM} was removed and could not be restored`,
    );
    expect(failed.lost.get(failed.rows[0] as MoveRow)).toMatch(/^now subscribed at neither URL: /);
    expect(failed.failures[0]?.reason).toContain(`EMAIL_OPENED now subscribed at neither URL: ${FROM}`);
  });

  it('both URLs present (a run cut short): only --from is unsubscribed', async () => {
    const { a, id } = agency([
      ['PROSPECT_REPLIED', FROM],
      ['PROSPECT_REPLIED', TO],
      ['PROSPECT_REPLIED', other(1)],
    ]);
    expect((await move(a, id)).rows.map((r) => r.result)).toEqual(['moved']);
    expect(writes(a)).toEqual([`unsubscribe PROSPECT_REPLIED ${FROM}`]);
  });

  it('--event given: absent where neither URL is; an account with neither URL is one absent row; dry run sends nothing', async () => {
    const { a, id } = agency([['PROSPECT_REPLIED', FROM]]);
    const named = await move(a, id, { events: ['prospect_bounced', 'prospect_replied'], dryRun: true });
    expect(named.rows.map((r) => [r.event, r.result])).toEqual([
      ['PROSPECT_BOUNCED', 'absent'],
      ['PROSPECT_REPLIED', 'would-move'],
    ]);
    expect(writes(a)).toEqual([]);
    const empty = agency([['PROSPECT_REPLIED', other(3)]]);
    expect((await move(empty.a, empty.id)).rows).toEqual([
      { company_id: empty.id, event: null, from: FROM, to: TO, result: 'absent' },
    ]);
  });
});
