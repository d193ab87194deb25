import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import {
  BLACKLIST_CHUNK_SIZE,
  chunked,
  isDomain,
  isEmailAddress,
  normalizeBlacklistEntries,
  planBlacklistAdd,
} from '../../src/fleet/blacklist.js';

const args = (...values: string[]) => values.map((value, i) => ({ value, where: `argument ${i + 1}` }));

function usageError(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('expected a UsageError');
}

describe('blacklist values', () => {
  it('recognises domains', () => {
    for (const ok of [
      'example.com',
      'mail.example.co.uk',
      'a-b.io',
      'xn--bcher-kva.example',
      '1st.example',
    ]) {
      expect(isDomain(ok), ok).toBe(true);
    }
    for (const bad of [
      'example',
      '-a.com',
      'a-.com',
      'a..com',
      '.com',
      'a.com.',
      'a b.com',
      '1.2.3.4',
      'a.c',
    ]) {
      expect(isDomain(bad), bad).toBe(false);
    }
    expect(isDomain(`${'a'.repeat(64)}.com`)).toBe(false);
  });

  it('recognises e-mail addresses', () => {
    for (const ok of ['jane@example.com', 'j.doe+tag@mail.example.org', "o'neil@example.ie"]) {
      expect(isEmailAddress(ok), ok).toBe(true);
    }
    for (const bad of [
      '@example.com',
      'jane@',
      'jane',
      'ja ne@example.com',
      'jane@example',
      'a..b@example.com',
    ]) {
      expect(isEmailAddress(bad), bad).toBe(false);
    }
  });

  it('lower-cases and trims, keeping the order first given', () => {
    expect(normalizeBlacklistEntries('domains', args(' Example.COM ', 'acme.io'))).toEqual({
      values: ['example.com', 'acme.io'],
      notes: [],
    });
  });

  it('sends a value given twice once, with a note saying where', () => {
    const result = normalizeBlacklistEntries('emails', [
      { value: 'Jane@Example.com', where: 'argument 1' },
      { value: 'bob@example.com', where: 'argument 2' },
      { value: 'jane@example.com', where: 'list.txt line 3' },
    ]);
    expect(result.values).toEqual(['jane@example.com', 'bob@example.com']);
    expect(result.notes).toEqual([
      'jane@example.com is given 2 times (argument 1, list.txt line 3); sent once.',
    ]);
  });

  it('names every bad value and where it came from in one usage error', () => {
    const error = usageError(() =>
      normalizeBlacklistEntries('domains', args('good.com', 'jane@bad.com', 'not a domain', '')),
    );
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain('3 values');
    expect(error.message).toContain(
      '"jane@bad.com" (argument 2) is an e-mail address, not a domain (use --emails)',
    );
    expect(error.message).toContain('"not a domain" (argument 3)');
    expect(error.message).toContain('"" (argument 4) is empty');
    expect(error.message).not.toContain('good.com');
  });

  it('points a domain given to --emails at --domains', () => {
    expect(usageError(() => normalizeBlacklistEntries('emails', args('example.com'))).message).toBe(
      '"example.com" (argument 1) is a domain, not an e-mail address (use --domains).',
    );
  });

  it('refuses an empty input', () => {
    expect(usageError(() => normalizeBlacklistEntries('emails', [])).message).toMatch(/No emails to add/);
  });
});

describe('planBlacklistAdd', () => {
  it('leaves out values already listed, compared without case', () => {
    expect(planBlacklistAdd(['a.com', 'b.com', 'c.com'], ['B.com', 'z.com'])).toEqual({
      toAdd: ['a.com', 'c.com'],
      present: ['b.com'],
    });
  });
});

describe('chunked', () => {
  it('cuts 1,201 values into 500, 500 and 201, in order', () => {
    const values = Array.from({ length: 1201 }, (_, i) => `d${i}.com`);
    const chunks = chunked(values);
    expect(BLACKLIST_CHUNK_SIZE).toBe(500);
    expect(chunks.map((c) => c.length)).toEqual([500, 500, 201]);
    expect(chunks.flat()).toEqual(values);
    expect(chunked([])).toEqual([]);
    expect(chunked(values.slice(0, 500)).length).toBe(1);
  });
});
