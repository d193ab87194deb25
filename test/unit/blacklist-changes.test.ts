import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import type { BlacklistKind } from '../../src/fleet/blacklist.js';
import { addMissingToBlacklist, summarizeBlacklistChange } from '../../src/fleet/blacklist-changes.js';

/** Records each POST; fails the POST numbered `failAt` (1-based) with a 400. */
function fakeService(failAt?: number) {
  const posts: { kind: BlacklistKind; values: string[] }[] = [];
  return {
    posts,
    async addToBlacklist(kind: BlacklistKind, values: string[]) {
      posts.push({ kind, values: [...values] });
      if (posts.length === failAt) throw new ApiError('Bad Request: invalid value', { status: 400 });
    },
  };
}

/** A read-back that must not happen (no answer was lost). */
const unread = async (): Promise<string[]> => {
  throw new Error('the list was read back although no answer was lost');
};

const domains = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `d${from + i}.com`);

describe('addMissingToBlacklist', () => {
  it('sends only values not listed yet, in chunks of at most 500, in order', async () => {
    const service = fakeService();
    const values = domains(1102);
    const { rows, failure } = await addMissingToBlacklist(
      service,
      'domains',
      values,
      ['D5.com', 'd700.com'],
      {
        dryRun: false,
        readBack: unread,
      },
    );
    expect(failure).toBeUndefined();
    expect(service.posts.map((p) => p.values.length)).toEqual([500, 500, 100]);
    expect(service.posts.flatMap((p) => p.values)).toEqual(
      values.filter((v) => v !== 'd5.com' && v !== 'd700.com'),
    );
    expect(rows[5]).toEqual({ value: 'd5.com', result: 'exists' });
    expect(rows[0]).toEqual({ value: 'd0.com', result: 'added' });
    expect(rows.length).toBe(1102);
  });

  it('sends nothing on a dry run and says what would be added', async () => {
    const service = fakeService();
    const { rows } = await addMissingToBlacklist(service, 'emails', ['a@x.com', 'b@x.com'], ['b@x.com'], {
      dryRun: true,
      readBack: unread,
    });
    expect(service.posts).toEqual([]);
    expect(rows).toEqual([
      { value: 'a@x.com', result: 'would-add' },
      { value: 'b@x.com', result: 'exists' },
    ]);
    expect(summarizeBlacklistChange('emails', rows)).toBe(
      'Would add 1 email (dry run, nothing sent); 1 already listed.',
    );
  });

  it('sends nothing when every value is listed already', async () => {
    const service = fakeService();
    const { rows } = await addMissingToBlacklist(service, 'domains', ['a.com'], ['a.com'], {
      dryRun: false,
      readBack: unread,
    });
    expect(service.posts).toEqual([]);
    expect(summarizeBlacklistChange('domains', rows)).toBe('Added 0 domains; 1 already listed.');
  });

  it('stops at the first failed chunk and reports exactly what was added', async () => {
    const service = fakeService(2);
    const { rows, failure } = await addMissingToBlacklist(service, 'domains', domains(1200), [], {
      dryRun: false,
      readBack: unread,
    });
    expect(service.posts.length).toBe(2);
    expect(failure?.exitCode).toBe(1);
    expect(rows.filter((r) => r.result === 'added').length).toBe(500);
    expect(rows[500]).toEqual({
      value: 'd500.com',
      result: 'failed',
      error: { status: 400, message: 'Bad Request: invalid value' },
    });
    expect(rows[1100]?.error).toEqual({ status: null, message: 'not sent: an earlier request failed' });
    expect(summarizeBlacklistChange('domains', rows)).toBe('Added 500 domains; 700 domains not added.');
  });
});

describe('addMissingToBlacklist on Ctrl-C', () => {
  it('lets the chunk in flight finish, sends no other, and reports the rest as not sent', async () => {
    const controller = new AbortController();
    const posts: number[] = [];
    const service = {
      async addToBlacklist(_kind: BlacklistKind, values: string[]) {
        posts.push(values.length);
        controller.abort();
      },
    };
    const { rows, failure } = await addMissingToBlacklist(service, 'domains', domains(1200), [], {
      dryRun: false,
      readBack: unread,
      signal: controller.signal,
    });
    expect(posts).toEqual([500]);
    expect(failure?.exitCode).toBe(130);
    expect(rows[499]).toEqual({ value: 'd499.com', result: 'added' });
    expect(rows[500]).toEqual({
      value: 'd500.com',
      result: 'failed',
      error: { status: null, message: 'not sent: interrupted' },
    });
  });
});
