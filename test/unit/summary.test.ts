/** Counts, capped lists and grouped failures, as they read on stderr. */
import { describe, expect, it } from 'vitest';
import {
  countLine,
  exists,
  failureReason,
  groupFailures,
  inlineList,
  listLines,
  NOUNS,
  plural,
} from '../../src/output/summary.js';

const COMPANIES = ['company', 'companies'] as const;

describe('countLine', () => {
  it('says what --limit left out', () => {
    expect(countLine({ shown: 8, total: 123, limit: 8, noun: COMPANIES })).toBe(
      '8 of 123 companies (--limit 8)',
    );
    expect(countLine({ shown: 1, limit: 1, noun: COMPANIES })).toBe('1 company (--limit 1)');
    // A limit larger than the list cut nothing.
    expect(countLine({ shown: 5, total: 5, limit: 8, noun: COMPANIES })).toBe('5 companies');
  });

  it('names the page of a --page listing', () => {
    expect(countLine({ shown: 24, page: 4, totalPages: 4, total: 174, noun: COMPANIES })).toBe(
      '24 companies (page 4 of 4; 174 in all)',
    );
    expect(countLine({ shown: 1, page: 2, totalPages: 2, total: 1, noun: COMPANIES })).toBe(
      '1 company (page 2 of 2)',
    );
  });

  it('says how many matched a search out of how many were read', () => {
    expect(countLine({ shown: 3, read: 123, search: 'acme', noun: COMPANIES })).toBe(
      '3 of 123 companies match "acme"',
    );
    expect(countLine({ shown: 1, read: 123, search: 'acme', noun: COMPANIES })).toBe(
      '1 of 123 companies matches "acme"',
    );
  });

  it('a search stopped at --limit says it shows the first matches, not how many match', () => {
    expect(countLine({ shown: 2, read: 3, search: 'Acme', limit: 2, noun: COMPANIES })).toBe(
      'first 2 companies matching "Acme" (--limit 2)',
    );
    // Everything read before the limit was reached: the whole count is known.
    expect(countLine({ shown: 7, read: 172, search: 'Acme', limit: 10, noun: COMPANIES })).toBe(
      '7 of 172 companies match "Acme"',
    );
  });

  it('is a plain count otherwise', () => {
    expect(countLine({ shown: 1, noun: COMPANIES })).toBe('1 company');
    expect(countLine({ shown: 120, total: 120, noun: COMPANIES })).toBe('120 companies');
  });
});

describe('lists that fit a screen', () => {
  const names = Array.from({ length: 30 }, (_, i) => `Company ${i + 1}`);

  it('lists at most 20, one per line, then "and N more"', () => {
    const lines = listLines(names);
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe('  Company 1');
    expect(lines[19]).toBe('  Company 20');
    expect(lines[20]).toBe('  and 10 more');
  });

  it('never hides a single line behind "and 1 more"', () => {
    expect(listLines(names.slice(0, 21))).toHaveLength(21);
    expect(listLines(names.slice(0, 21)).at(-1)).toBe('  Company 21');
  });

  it('agrees in number', () => {
    expect(exists(1)).toBe('1 exists');
    expect(exists(2)).toBe('2 exist');
  });

  it('keeps a list of ids on one line', () => {
    expect(inlineList([1, 2, 3])).toBe('1, 2, 3');
    expect(
      inlineList(
        Array.from({ length: 85 }, (_, i) => 1000 + i),
        3,
      ),
    ).toBe('1000, 1001, 1002 and 82 more');
  });
});

describe('groupFailures', () => {
  it('groups by reason, the commonest first, with the subjects below', () => {
    const failures = [
      ...Array.from({ length: 85 }, (_, i) => ({
        subject: 1001 + i,
        reason: '403 Forbidden — no access to these companies',
      })),
      { subject: 1200, reason: '409 Conflict — inactive' },
    ];
    const lines = groupFailures(failures);
    expect(lines).toEqual([
      '85 failed: 403 Forbidden — no access to these companies',
      `  companies ${Array.from({ length: 20 }, (_, i) => 1001 + i).join(', ')} and 65 more`,
      '1 failed: 409 Conflict — inactive',
      '  company 1200',
    ]);
  });
});

describe('groupFailures: a subject that failed twice the same way', () => {
  it('counts both failures and names the subject once', () => {
    const inactive = '409 Conflict — Company is inactive';
    expect(
      groupFailures([
        { subject: 1007, reason: inactive },
        { subject: 1007, reason: inactive },
        { subject: 1014, reason: inactive },
      ]),
    ).toEqual([`3 failed: ${inactive}`, '  companies 1007, 1014']);
  });
});

describe('plural', () => {
  it('one is singular; zero and many are plural', () => {
    expect(plural(1, NOUNS.company)).toBe('1 company');
    expect(plural(0, NOUNS.company)).toBe('0 companies');
    expect(plural(2, NOUNS.guest)).toBe('2 guests');
  });
});

describe('failureReason', () => {
  it('groups by status where the status says it all, else keeps the message', () => {
    expect(failureReason({ status: 403, message: 'Forbidden — no access to company 1001' })).toBe(
      failureReason({ status: 403, message: 'Forbidden — no access to company 1003' }),
    );
    expect(failureReason({ status: 403, message: 'x' })).toBe('403 Forbidden — no access to these companies');
    expect(failureReason({ status: 500, message: 'Internal error' })).toBe('500 — Internal error');
    expect(failureReason({ status: null, message: 'connection refused' })).toBe('connection refused');
  });

  it('takes the company id out of every reason: the companies are listed under it', () => {
    const lost = (id: number) => ({
      status: null,
      message: `Could not list the webhooks of company ${id}: connection refused (tried 4 times)`,
    });
    expect(failureReason(lost(1005))).toBe(
      'Could not list the webhooks of the company: connection refused (tried 4 times)',
    );
    expect(failureReason(lost(1005))).toBe(failureReason(lost(1006)));
    expect(
      failureReason({ status: 500, message: 'GET /v2/agency/companies/1005/api_keys failed: boom' }),
    ).toBe('500 — GET /v2/agency/companies/{id}/api_keys failed: boom');
  });
});
