/** The --debug trace's pieces: header and body redaction, the 2 KB cut. */
import { describe, expect, it } from 'vitest';
import { bodyLines, headerLines, TRACE_BODY_BYTES, target } from '../../src/api/trace.js';

describe('trace', () => {
  it('redacts secret headers, whatever their case, and keeps the others', () => {
    expect(
      headerLines({
        'X-Api-Key': 'k',
        authorization: 'Basic x',
        'set-cookie': ['a=1', 'b=2'],
        accept: 'json',
      }),
    ).toEqual([
      '  X-Api-Key: [redacted]',
      '  authorization: [redacted]',
      '  set-cookie: [redacted]',
      '  set-cookie: [redacted]',
      '  accept: json',
    ]);
  });

  it.each([
    ['{"api_key":"wpk_1"}', '{"api_key":"[redacted]"}'],
    ['{"api_key" : "wpk_\\"quoted\\"_1", "label":"x"}', '{"api_key" : "[redacted]", "label":"x"}'],
    [
      '[{"apiKey":"a"},{"token":"b"},{"password":"c"}]',
      '[{"apiKey":"[redacted]"},{"token":"[redacted]"},{"password":"[redacted]"}]',
    ],
    ['{"label":"api_key"}', '{"label":"api_key"}'],
  ])('redacts key-like JSON fields: %s', (body, shown) => {
    expect(bodyLines(body)).toEqual([`  | ${shown}`]);
  });

  it('shows nothing for an empty body, and cuts a long one at 2 KB saying how much is left', () => {
    expect(bodyLines('')).toEqual([]);
    expect(bodyLines(undefined)).toEqual([]);
    const lines = bodyLines('x'.repeat(TRACE_BODY_BYTES + 100));
    expect(lines[0]).toBe(`  | ${'x'.repeat(TRACE_BODY_BYTES)}`);
    expect(lines[1]).toBe('  | … (100 more characters not shown)');
  });

  it('names the target with its query string', () => {
    expect(target(new URL('http://h/rest/v2/agency/companies?page=2&active=true'))).toBe(
      '/rest/v2/agency/companies?page=2&active=true',
    );
  });
});
