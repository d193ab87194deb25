/** `blacklist check` splitting: every request URL within the service's limit, as few requests as fit. */
import { describe, expect, it } from 'vitest';
import { blacklistCheckPath, blacklistFilterQuery } from '../../src/api/resources/blacklist.js';
import { requestUrl } from '../../src/api/url.js';
import { UsageError } from '../../src/errors.js';
import { checkBlacklist, filterBatches } from '../../src/fleet/blacklist-check.js';

const BASE = 'https://api.woodpecker.co/rest';
const url = (kind: 'emails' | 'domains', values: string[]) =>
  requestUrl(BASE, blacklistCheckPath(kind), blacklistFilterQuery(values)).href;

describe('filterBatches', () => {
  it('fills each request up to 4,100 characters, counting the encoded @, in order', () => {
    const values = Array.from({ length: 300 }, (_, i) => `someone.${i}@split.example`);
    const batches = filterBatches(BASE, 'emails', values);
    expect(batches.flat()).toEqual(values);
    for (const batch of batches) expect(url('emails', batch).length).toBeLessThanOrEqual(4100);
    for (const [i, batch] of batches.slice(0, -1).entries()) {
      const next = batches[i + 1]?.[0] as string;
      expect(url('emails', [...batch, next]).length).toBeGreaterThan(4100);
    }
    expect(url('emails', ['a@b.example'])).toContain('a%40b.example');
  });

  it('never more values in one request than one page holds (1,000)', () => {
    const values = Array.from({ length: 1500 }, (_, i) => `d${i}.io`);
    const batches = filterBatches(BASE, 'domains', values, 1_000_000);
    expect(batches.map((b) => b.length)).toEqual([1000, 500]);
  });

  it('a base URL so long that one value cannot fit is a usage error', () => {
    expect(() => filterBatches(`${BASE}/${'x'.repeat(4100)}`, 'domains', ['a.io'])).toThrow(UsageError);
  });
});

describe('checkBlacklist', () => {
  it('asks each value of the list its form names and answers in the order given', async () => {
    const asked: [string, string[]][] = [];
    const api = {
      async blacklisted(kind: 'emails' | 'domains', values: readonly string[]) {
        asked.push([kind, [...values]]);
        return values.filter((v) => v.startsWith('bad'));
      },
    };
    const rows = await checkBlacklist(api, BASE, ['bad.io', 'x@bad.io', 'bad@x.io', 'ok.io']);
    expect(rows).toEqual([
      { value: 'bad.io', listed: true, blocked: true, by: 'domain' },
      // Not listed itself; its domain is: blocked by the domain.
      { value: 'x@bad.io', listed: false, blocked: true, by: 'domain' },
      { value: 'bad@x.io', listed: true, blocked: true, by: 'email' },
      { value: 'ok.io', listed: false, blocked: false, by: null },
    ]);
    // The addresses' domains are asked after the domains given, each once.
    expect(asked).toEqual([
      ['emails', ['x@bad.io', 'bad@x.io']],
      ['domains', ['bad.io', 'ok.io', 'x.io']],
    ]);
  });
});
