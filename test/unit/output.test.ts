/**
 * The writer's terminal side without a terminal: fake streams that say they are (or are not) TTYs,
 * so that widths, truncation, colour, counts and the progress line can be checked exactly.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { progressLine } from '../../src/output/progress.js';
import { displayWidth, groupDigits, truncateToWidth } from '../../src/output/text.js';
import { type Column, Writer } from '../../src/output/writer.js';
import { readTable, wholeText } from '../helpers/table-text.js';

interface Fake {
  writer: Writer;
  stdout: () => string;
  stderr: () => string;
}

function fake(options: {
  tty: boolean;
  color?: boolean;
  columns?: number;
  json?: boolean;
  stderrTTY?: boolean;
}): Fake {
  const capture = () => {
    const stream = Object.assign(new PassThrough(), { columns: options.columns });
    let text = '';
    stream.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    return { stream, text: () => text };
  };
  const out = capture();
  const err = capture();
  const writer = new Writer(
    {
      stdout: out.stream,
      stderr: err.stream,
      stdoutIsTTY: options.tty,
      stderrIsTTY: options.stderrTTY ?? options.tty,
      columns: options.tty ? options.columns : undefined,
    },
    { json: options.json ?? false, color: options.color ?? false, stderrColor: options.color ?? false },
  );
  return { writer, stdout: out.text, stderr: err.text };
}

interface Row {
  id: number;
  name: string;
  active: boolean;
}

const columns: Column<Row>[] = [
  { header: 'id', value: (r) => r.id },
  { header: 'name', value: (r) => r.name },
  { header: 'active', value: (r) => r.active, style: (v, c) => (v ? c.green : c.red) },
];
const LONG = 'The Extraordinarily Long Company Name Of Northern Wisconsin Plumbing And Heating Incorporated';
const rows: Row[] = [
  { id: 1001, name: 'Acme Ltd', active: true },
  { id: 1002, name: LONG, active: false },
];
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding escape sequences is the point
const ESC = /\u001b\[/;

describe('tables on a terminal', () => {
  it('fit the width: a long name wraps within its column, never cut; short columns stay', async () => {
    const f = fake({ tty: true, columns: 40 });
    await f.writer.list(rows, columns, { noun: ['company', 'companies'] });
    const text = f.stdout();
    for (const line of text.trimEnd().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(40);
    expect(text).not.toContain('…');
    const table = readTable(text, ['ID', 'NAME', 'ACTIVE']);
    expect(table.rows.map((r) => r.ID)).toEqual([['1001'], ['1002']]);
    expect(table.rows[0]?.NAME).toEqual(['Acme Ltd']);
    expect(wholeText(table.rows[1]?.NAME, LONG)).toBe(true);
    expect(table.rows[1]?.NAME?.length).toBeGreaterThan(2);
    // Wrapped between words: every line of the name is whole words of it.
    for (const piece of table.rows[1]?.NAME ?? [])
      expect(LONG.split(' ')).toEqual(expect.arrayContaining(piece.split(' ')));
    expect(table.rows[1]?.ACTIVE).toEqual(['false']);
    expect(f.stderr()).toBe('2 companies\n');
  });

  it('show everything when it fits, with two spaces between columns', async () => {
    const f = fake({ tty: true, columns: 200 });
    await f.writer.list(rows, columns);
    expect(f.stdout()).toBe(
      `ID    NAME${' '.repeat(LONG.length - 4)}  ACTIVE\n1001  Acme Ltd${' '.repeat(LONG.length - 8)}  true\n1002  ${LONG}  false\n`,
    );
  });

  it('hide description columns before a name wraps, and wrap an outlier name before hiding for it', async () => {
    const detail = 'x'.repeat(40);
    const item = { id: 1001, name: LONG, a: detail, b: detail };
    const cols: Column<typeof item>[] = [
      { header: 'id', value: (r) => r.id },
      { header: 'name', value: (r) => r.name },
      { header: 'events', value: (r) => r.a, priority: 3 },
      { header: 'types', value: (r) => r.b, priority: 3 },
    ];
    const narrow = fake({ tty: true, columns: 50 });
    await narrow.writer.list([item], cols);
    const table = readTable(narrow.stdout(), ['ID', 'NAME']);
    expect(table.lines[0]).toBe('ID    NAME');
    expect(wholeText(table.rows[0]?.NAME, LONG)).toBe(true);
    // At 100 columns the 93-character name keeps 48 columns or more; a description is shown whole or
    // not at all (wrapped on every row it would push the rows apart): one fits, the other is hidden.
    const wide = fake({ tty: true, columns: 100 });
    await wide.writer.list([item], cols);
    const all = readTable(wide.stdout(), ['ID', 'NAME', 'EVENTS']);
    expect(wholeText(all.rows[0]?.NAME, LONG)).toBe(true);
    expect(all.rows[0]?.NAME?.[0]?.length).toBeGreaterThanOrEqual(48);
    expect(all.rows[0]?.EVENTS).toEqual([detail]);
    expect(wide.stderr()).toContain('1 column hidden (types)');
    for (const line of all.lines) expect(displayWidth(line)).toBeLessThanOrEqual(100);
    expect(wide.stdout()).not.toContain('…');
  });

  it('measure wide characters by the columns they take', async () => {
    const f = fake({ tty: true, columns: 30 });
    const name = '東京ロボティクス株式会社 東京本社 営業部';
    await f.writer.list([{ id: 7, name, active: true }], columns);
    for (const line of f.stdout().trimEnd().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(30);
    expect(wholeText(readTable(f.stdout(), ['ID', 'NAME']).rows[0]?.NAME, name)).toBe(true);
  });

  it('colour states only when told to, and never the padding', async () => {
    const coloured = fake({ tty: true, columns: 80, color: true });
    await coloured.writer.list(rows, columns);
    expect(coloured.stdout()).toContain('\u001b[32mtrue\u001b[39m');
    expect(coloured.stdout()).toContain('\u001b[31mfalse\u001b[39m');
    const plain = fake({ tty: true, columns: 80, color: false });
    await plain.writer.list(rows, columns);
    expect(plain.stdout()).not.toMatch(ESC);
  });

  it('are followed by a count on stderr, and an empty list by its message instead', async () => {
    const f = fake({ tty: true, columns: 80 });
    await f.writer.list(rows, columns, { noun: ['company', 'companies'], empty: 'No companies yet' });
    expect(f.stderr()).toBe('2 companies\n');
    const one = fake({ tty: true, columns: 80 });
    await one.writer.list(rows.slice(0, 1), columns, { noun: ['company', 'companies'] });
    expect(one.stderr()).toBe('1 company\n');
    const none = fake({ tty: true, columns: 80 });
    await none.writer.list([], columns, {
      noun: ['company', 'companies'],
      empty: 'No companies yet — create one',
    });
    expect(none.stdout()).toBe('');
    expect(none.stderr()).toBe('No companies yet — create one\n');
  });

  it('leave the count out when stderr is redirected', async () => {
    const f = fake({ tty: true, stderrTTY: false, columns: 80 });
    await f.writer.list(rows, columns, { noun: ['company', 'companies'] });
    expect(f.stdout()).toContain('Acme Ltd');
    expect(f.stderr()).toBe('');
  });

  it('make server text inert, and our own message colours survive', async () => {
    const f = fake({ tty: true, columns: 80, color: true });
    await f.writer.list([{ id: 1, name: '\u001b[2JEvil\u0007', active: true }], columns);
    expect(f.stdout()).toMatch(/^1 {3}Evil/m);
    f.writer.error('bad name \u001b]0;title\u0007here', 'try \u001b[31mthis');
    expect(f.stderr()).toBe('\u001b[31merror:\u001b[39m bad name here\n\u001b[2mhint:\u001b[22m try this\n');
  });
});

describe('piped and --json', () => {
  it('piped: tab-separated rows, no header, no count, no colour, nothing cut', async () => {
    const f = fake({ tty: false, color: false });
    await f.writer.list(rows, columns, { noun: ['company', 'companies'], empty: 'none' });
    expect(f.stdout()).toBe(`1001\tAcme Ltd\ttrue\n1002\t${LONG}\tfalse\n`);
    expect(f.stderr()).toBe('');
    const empty = fake({ tty: false });
    await empty.writer.list([], columns, { empty: 'No companies yet' });
    expect(empty.stdout() + empty.stderr()).toBe('');
  });

  it('--json: the items as given, even on a terminal', async () => {
    const f = fake({ tty: true, columns: 20, json: true });
    await f.writer.list(rows, columns, { noun: ['company', 'companies'] });
    expect(JSON.parse(f.stdout())).toEqual(rows);
    expect(f.stderr()).toBe('');
  });
});

// Column widths: test/unit/layout.test.ts (fitTable) and test/unit/table.test.ts.

describe('text width', () => {
  it('counts wide characters as two columns and combining marks as none', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('東京')).toBe(4);
    expect(displayWidth('é')).toBe(1);
    expect(displayWidth('🚀x')).toBe(3);
  });

  it('cuts to a width with … and never splits a wide character across the edge', () => {
    expect(truncateToWidth('Blue Harbor Dental', 20)).toBe('Blue Harbor Dental');
    expect(truncateToWidth('Blue Harbor Dental', 13)).toBe('Blue Harbor…');
    expect(truncateToWidth('東京ロボ', 6)).toBe('東京…');
    expect(displayWidth(truncateToWidth('東京ロボ', 6))).toBeLessThanOrEqual(6);
  });

  it('wraps an error between words and its indented continuation lines stay within the width', () => {
    const f = fake({ tty: true, columns: 60 });
    f.writer.error(
      'Could not list the keys of company 999999: the service answered 404 Not found — Company 999999 not found in agency Northwind Outreach',
    );
    const lines = f.stderr().trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(60);
    expect(lines.slice(1).every((line) => line.startsWith('  '))).toBe(true);
    expect(lines.join(' ').replace(/\s+/g, ' ')).toContain('not found in agency Northwind Outreach');
  });
});

describe('numbers with thousands separators', () => {
  it('writes an integer as toLocaleString("en-US") does, other numbers through it', () => {
    expect([0, 999, 1000, 2048, 10_000, 1_234_567, -1234].map(groupDigits)).toEqual([
      '0',
      '999',
      '1,000',
      '2,048',
      '10,000',
      '1,234,567',
      '-1,234',
    ]);
    for (let n = 1; n < Number.MAX_SAFE_INTEGER / 7; n = n * 7 + 3)
      expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
    expect(groupDigits(1234.5)).toBe('1,234.5');
  });
});

describe('progress line', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function progressContext(stderrIsTTY: boolean, debug = false) {
    const f = fake({ tty: stderrIsTTY, columns: 30 });
    Object.assign(f.writer.streams.stderr, { columns: 30 });
    return { ctx: { out: f.writer, ctx: { debug } }, f };
  }
  const page = (n: number, pages: number, total: number) => ({
    current_page_number: n,
    total_pages: pages,
    page_size: 50,
    total_elements: total,
  });

  it('draws nothing when stdout is piped, though stderr is the terminal (as gh and npm)', () => {
    const f = fake({ tty: false, stderrTTY: true, columns: 30 });
    const progress = progressLine({ out: f.writer, ctx: { debug: false } }, 'companies');
    progress.update(page(1, 3, 127), 50);
    progress.done();
    f.writer.clearProgress();
    expect(f.stderr()).toBe('');
  });

  it('rewrites one line on a terminal and clears it at the end', () => {
    const { ctx, f } = progressContext(true);
    const progress = progressLine(ctx, 'companies');
    progress.update(page(1, 3, 127), 50);
    progress.update(page(2, 3, 127), 100);
    progress.done();
    const text = f.stderr();
    expect(text).toMatch(
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the progress line is made of control sequences
      /^\r\u001b\[2K. 50 of 127 companies…\r\u001b\[2K. 100 of 127 companies…\r\u001b\[2K$/,
    );
    expect(text).not.toContain('\n');
  });

  it('is never wider than the terminal', () => {
    const { ctx, f } = progressContext(true);
    const progress = progressLine(ctx, 'companies audited in the whole agency');
    progress.update(undefined, 3);
    progress.done();
    const drawn = f.stderr().split('\r\u001b[2K').filter(Boolean);
    expect(drawn).toHaveLength(1);
    expect(displayWidth(drawn[0] ?? '')).toBeLessThan(30);
    expect(drawn[0]).toMatch(/…$/);
  });

  it('says nothing for a single page, when piped, or with --debug', () => {
    for (const [tty, debug] of [
      [true, false],
      [false, false],
      [true, true],
    ] as const) {
      const { ctx, f } = progressContext(tty, debug);
      const progress = progressLine(ctx, 'companies');
      progress.update(tty && !debug ? page(1, 1, 12) : page(1, 3, 127), 12);
      progress.done();
      expect(f.stderr()).toBe('');
    }
    // `--page 3` of 3: one request, nothing to show.
    const { ctx, f } = progressContext(true);
    const progress = progressLine(ctx, 'companies');
    progress.update(page(3, 3, 127), 27);
    progress.done();
    expect(f.stderr()).toBe('');
  });

  it('shows that it is waiting when the first answer is slow, and spins while it waits', () => {
    vi.useFakeTimers();
    const { ctx, f } = progressContext(true);
    const progress = progressLine(ctx, 'companies');
    vi.advanceTimersByTime(300);
    expect(f.stderr()).toBe('');
    vi.advanceTimersByTime(400);
    expect(f.stderr()).toContain('Waiting for the service…');
    const frames = new Set(
      f
        .stderr()
        .split('\r\u001b[2K')
        .filter(Boolean)
        .map((s) => s[0]),
    );
    vi.advanceTimersByTime(500);
    for (const s of f.stderr().split('\r\u001b[2K').filter(Boolean)) frames.add(s[0]);
    expect(frames.size).toBeGreaterThan(1);
    progress.done();
    expect(f.stderr().endsWith('\r\u001b[2K')).toBe(true);
    const after = f.stderr();
    vi.advanceTimersByTime(1000);
    expect(f.stderr()).toBe(after);
  });
});
