import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { parseCsv } from '../../src/input/csv.js';

describe('parseCsv', () => {
  it('reads RFC 4180: quoted commas, doubled quotes, line breaks in quotes, CRLF, a BOM, blank lines', () => {
    const text = '\uFEFFemail,name\r\n"a@x.io","Lee, ""Bo"""\r\n\r\nb@x.io,"two\nlines"\nc@x.io,\n';
    expect(parseCsv(text, 'g.csv')).toEqual([
      { fields: ['email', 'name'], line: 1 },
      { fields: ['a@x.io', 'Lee, "Bo"'], line: 2 },
      { fields: ['b@x.io', 'two\nlines'], line: 4 },
      { fields: ['c@x.io', ''], line: 6 },
    ]);
  });

  it('a quote left open is a usage error naming the line', () => {
    expect(() => parseCsv('email\n"a@x.io\n', 'g.csv')).toThrow(UsageError);
    expect(() => parseCsv('email\n"a@x.io\n', 'g.csv')).toThrow(/g.csv line 2/);
  });
});
