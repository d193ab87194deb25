/** RFC 4180 output and the --columns choice, as a spreadsheet and a script see them. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { columnName, csvField, csvValue, pickFields, rowLine, selectColumns } from '../../src/output/csv.js';

/** A whole CSV document, as the writer makes one: the header row, then a record per row. */
const toCsv = (headers: readonly string[], rows: readonly (readonly unknown[])[]) =>
  [headers, ...rows].map((row) => rowLine(row, true)).join('');

/** A small RFC 4180 reader, to prove the text parses back to the same fields. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i++;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
    i++;
  }
  expect(quoted, 'an unterminated quote').toBe(false);
  expect(field === '' && row.length === 0, 'the last record ends in CRLF').toBe(true);
  return rows;
}

describe('CSV', () => {
  it('writes a header row, then one CRLF-terminated record per row', () => {
    const text = toCsv(
      ['id', 'name', 'active'],
      [
        [1001, 'Acme Ltd', true],
        [1002, 'Blue Harbor Dental', false],
      ],
    );
    expect(text).toBe('id,name,active\r\n1001,Acme Ltd,true\r\n1002,Blue Harbor Dental,false\r\n');
  });

  it('quotes commas, quotes, newlines and edge spaces, and round-trips them', () => {
    const names = [
      'Smith, Jones & Co',
      'The "Best" Bakery',
      'Line one\nline two',
      'CR\r\nLF',
      ' leading space',
      'trailing ',
      'plain',
      '',
      'Zoë 日本 🎉',
    ];
    const text = toCsv(
      ['id', 'name'],
      names.map((n, i) => [i + 1, n]),
    );
    expect(text).toContain('"Smith, Jones & Co"');
    expect(text).toContain('"The ""Best"" Bakery"');
    expect(text).toContain('"Line one\nline two"');
    expect(text).toContain(',plain\r\n');
    expect(parseCsv(text)).toEqual([['id', 'name'], ...names.map((n, i) => [String(i + 1), n])]);
  });

  it('renders null as empty, booleans as words, arrays joined with "; ", objects as JSON', () => {
    expect(csvValue(null)).toBe('');
    expect(csvValue(undefined)).toBe('');
    expect(csvValue(true)).toBe('true');
    expect(csvValue(false)).toBe('false');
    expect(csvValue(0)).toBe('0');
    expect(csvValue(['PROSPECT_REPLIED', 'LINK_CLICKED'])).toBe('PROSPECT_REPLIED; LINK_CLICKED');
    expect(csvValue([])).toBe('');
    expect(csvValue({ count: 2 })).toBe('{"count":2}');
    expect(csvField({ a: 1, b: 2 })).toBe('"{""a"":1,""b"":2}"');
  });

  it("does not alter a value that only looks like a formula (the data is the API's)", () => {
    expect(csvField('=SUM(A1)')).toBe('=SUM(A1)');
    expect(csvField(-3)).toBe('-3');
  });
});

describe('--columns', () => {
  const columns = ['id', 'name', 'owner', 'active', 'email slots', 'linkedin slots'].map((header) => ({
    header,
  }));

  it('names columns as the API spells fields', () => {
    expect(columnName('email slots')).toBe('email_slots');
    expect(columnName('ID')).toBe('id');
  });

  it('without --columns keeps every column in order', () => {
    expect(selectColumns(columns, undefined).map((c) => c.header)).toEqual(columns.map((c) => c.header));
  });

  it('chooses and orders, in any spelling, once each', () => {
    const chosen = selectColumns(columns, 'name, ID,Email-Slots,linkedin slots,name');
    expect(chosen.map((c) => c.header)).toEqual(['name', 'id', 'email slots', 'linkedin slots']);
  });

  it('refuses an unknown column, naming it and every valid one', () => {
    let error: unknown;
    try {
      selectColumns(columns, 'id,nmae,foo');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    expect((error as Error).message).toBe(
      'Unknown columns "nmae", "foo" in --columns; valid columns: id, name, owner, active, email_slots, linkedin_slots.',
    );
  });

  it('refuses an empty list', () => {
    expect(() => selectColumns(columns, ' , ')).toThrow(/needs at least one column name; valid columns: id,/);
    expect(() => selectColumns(columns, '')).toThrow(UsageError);
  });
});

describe('--json --columns (pickFields)', () => {
  const columns = [
    { header: 'id' },
    { header: 'email', field: 'details.email' },
    { header: 'campaigns', name: 'running_campaigns', aliases: ['campaigns'] },
    { header: 'mailbox errors', field: 'mailboxes.errors' },
  ];

  it('keeps the chosen fields where the API put them, in the chosen order', () => {
    const chosen = selectColumns(columns, 'campaigns,email,id');
    const item = {
      id: 1,
      running_campaigns: 3,
      details: { email: 'a@b.example', from_name: 'A' },
      owner: 'x',
    };
    expect(pickFields([item], chosen)).toEqual([
      { running_campaigns: 3, details: { email: 'a@b.example' }, id: 1 },
    ]);
    expect(Object.keys(pickFields([item], chosen)[0] as object)).toEqual([
      'running_campaigns',
      'details',
      'id',
    ]);
  });

  it('keeps the error of a part that could not be read', () => {
    const chosen = selectColumns(columns, 'id,mailbox_errors');
    expect(pickFields([{ id: 2, mailboxes: { error: { status: 409 } } }], chosen)).toEqual([
      { id: 2, mailboxes: { error: { status: 409 } } },
    ]);
  });
});
