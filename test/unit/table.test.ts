/** The rendered table: hidden columns, whole names, long cells wrapped (never cut), no trailing spaces. */
import { Chalk } from 'chalk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GAP } from '../../src/output/layout.js';
import { fixedTable, renderTable, type TableColumn } from '../../src/output/table.js';
import { wrapToWidth } from '../../src/output/text.js';

type Company = { id: number; name: string; owner: string; active: boolean; campaigns: number; slots: number };
const columns: TableColumn<Company>[] = [
  { header: 'id', value: (c) => c.id },
  { header: 'name', value: (c) => c.name },
  { header: 'owner', value: (c) => c.owner },
  { header: 'active', value: (c) => c.active, priority: 1 },
  { header: 'campaigns', value: (c) => c.campaigns, kind: 'count' },
  { header: 'email slots', value: (c) => c.slots, kind: 'count' },
];
const rows: Company[] = [
  { id: 1001, name: 'Acme Ltd', owner: 'Olivia Owner', active: true, campaigns: 0, slots: 1 },
  {
    id: 1114,
    name: 'Red Fox Design Studio Partners',
    owner: 'Olivia Owner',
    active: false,
    campaigns: 3,
    slots: 2,
  },
];
const plain = new Chalk({ level: 0 });
/** The lines of a table printed without colour at `width` columns. */
const printed = <T>(rows: readonly T[], defs: readonly TableColumn<T>[], width: number, hideNone = false) =>
  renderTable(rows, defs, { width, chalk: plain, hideNone }).text.split('\n');

describe('renderTable', () => {
  it('at 100 columns shows everything', () => {
    const t = renderTable(rows, columns, { width: 100, chalk: plain });
    expect(t.hidden).toEqual([]);
    expect(t.text.split('\n')).toEqual([
      'ID    NAME                            OWNER         ACTIVE  CAMPAIGNS  EMAIL SLOTS',
      '1001  Acme Ltd                        Olivia Owner  true    0          1',
      '1114  Red Fox Design Studio Partners  Olivia Owner  false   3          2',
    ]);
  });

  it('at 60 columns hides counters and keeps names whole', () => {
    const t = renderTable(rows, columns, { width: 60, chalk: plain });
    expect(t.hidden).toEqual(['campaigns', 'email_slots']);
    expect(t.text.split('\n')[2]).toBe('1114  Red Fox Design Studio Partners  Olivia Owner  false');
  });

  it('at 30 columns wraps the name between its words, never cutting it or the id', () => {
    const t = renderTable(rows, columns, { width: 30, chalk: plain });
    const lines = t.text.split('\n');
    expect(lines[0]).toMatch(/^ID {4}NAME/);
    expect(lines[2]).toMatch(/^1114 {2}Red Fox Design /);
    expect(lines[3]).toMatch(/^ {6}Studio Partners/);
    expect(t.text).not.toContain('…');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(30);
  });

  it('wraps a coloured cell line by line, each line coloured alone', () => {
    const chalk = new Chalk({ level: 1 });
    const styled: TableColumn<Company>[] = [
      columns[0] as TableColumn<Company>,
      { header: 'name', value: (c) => c.name, style: (_v, k) => k.red },
    ];
    const t = renderTable(rows, styled, { width: 24, chalk });
    const lines = t.text.split('\n');
    expect(lines[2]).toBe('1114  \u001b[31mRed Fox Design\u001b[39m');
    expect(lines[3]).toBe('      \u001b[31mStudio Partners\u001b[39m');
  });

  it('pads by what a terminal shows: a coloured cell and wide characters leave the next column aligned', () => {
    const chalk = new Chalk({ level: 1 });
    const styled: TableColumn<Company>[] = [
      { header: 'name', value: (c) => c.name, style: (v, k) => (v === 'Acme Ltd' ? k.green : undefined) },
      { header: 'owner', value: (c) => c.owner },
    ];
    const wide = [rows[0], { ...rows[1], name: '東京ロボ 株式会社' }] as Company[];
    const lines = renderTable(wide, styled, { width: 80, chalk }).text.split('\n');
    // 東京ロボ 株式会社 takes 17 columns (the widest name): OWNER starts after it and the gap.
    expect(lines).toEqual([
      '\u001b[1mNAME\u001b[22m               \u001b[1mOWNER\u001b[22m',
      '\u001b[32mAcme Ltd\u001b[39m           Olivia Owner',
      '東京ロボ 株式会社  Olivia Owner',
    ]);
  });

  it('colours cells with the column style only', () => {
    const chalk = new Chalk({ level: 1 });
    const styled: TableColumn<Company>[] = [
      columns[0] as TableColumn<Company>,
      { header: 'active', value: (c) => c.active, style: (v, k) => (v ? k.green : k.red) },
    ];
    const t = renderTable(rows, styled, { width: 80, chalk });
    expect(t.text).toContain('\u001b[32mtrue\u001b[39m');
    expect(t.text).toContain('\u001b[31mfalse\u001b[39m');
  });
});

describe('renderTable: a wrapped column is as wide as its widest line', () => {
  type Row = { id: number; name: string; webhooks: string };
  const listColumns: TableColumn<Row>[] = [
    { header: 'id', value: (r) => r.id },
    { header: 'name', value: (r) => r.name },
    { header: 'webhooks', value: (r) => r.webhooks, kind: 'list' },
  ];
  const listRows: Row[] = [
    { id: 1001, name: 'Lighthouse Outfitters GmbH', webhooks: 'CAMPAIGN_COMPLETED,PROSPECT_REPLIED' },
    { id: 1002, name: 'Redwood Marketing Partners', webhooks: 'PROSPECT_REPLIED,PROSPECT_BOUNCED' },
  ];

  it('a list wrapped after its commas gives the width its lines leave unused to the name beside it', () => {
    expect(printed(listRows, listColumns, 54, true)).toEqual([
      'ID    NAME                        WEBHOOKS',
      '1001  Lighthouse Outfitters GmbH  CAMPAIGN_COMPLETED,',
      '                                  PROSPECT_REPLIED',
      '1002  Redwood Marketing Partners  PROSPECT_REPLIED,',
      '                                  PROSPECT_BOUNCED',
    ]);
  });

  it('the width goes to a column it makes wrap onto fewer lines, not to a more important one it does not', () => {
    type Result = { company: number; url: string; result: string; reason: string };
    // As `webhooks subscribe` prints them (src/commands/webhooks/change.ts, reasonColumn()).
    const resultColumns: TableColumn<Result>[] = [
      { header: 'company', value: (r) => r.company, kind: 'id' },
      { header: 'target url', value: (r) => r.url, kind: 'email', priority: 1 },
      { header: 'result', value: (r) => r.result, kind: 'count', priority: 0 },
      { header: 'reason', value: (r) => r.reason, kind: 'problem' },
    ];
    const url = 'https://crm.example.com/hooks/woodpecker';
    const results: Result[] = [
      { company: 1001, url, result: 'subscribed', reason: '' },
      { company: 1007, url, result: 'failed', reason: 'Company 1007 is inactive' },
    ];
    // REASON matters more, but 6 more columns would not unwrap it; TARGET URL takes them: 2 lines, not 3.
    expect(printed(results, resultColumns, 60)).toEqual([
      'COMPANY  TARGET URL            RESULT      REASON',
      '1001     https://crm.example.  subscribed',
      '         com/hooks/woodpecker',
      '1007     https://crm.example.  failed      Company 1007 is',
      '         com/hooks/woodpecker              inactive',
    ]);
  });

  const kinds = ['name', 'email', 'problem', 'text', 'list', 'count'] as const;
  const word = fc.constantFrom(
    'Acme',
    'Harbor',
    'Dental',
    'error,',
    'IMAP:2,',
    'x',
    'hello@h.example',
    'a/b/c',
  );
  const cell = fc
    .tuple(fc.array(word, { maxLength: 6 }), fc.constantFrom(' ', ','))
    .map(([words, separator]) => words.join(separator));
  const table = fc.record({
    kinds: fc.array(fc.constantFrom(...kinds), { minLength: 1, maxLength: 5 }),
    rows: fc.array(fc.array(cell, { minLength: 5, maxLength: 5 }), { minLength: 1, maxLength: 6 }),
    width: fc.integer({ min: 30, max: 160 }),
  });

  it('any table, any width: no column keeps blank width right of all its lines, header included', () => {
    fc.assert(
      fc.property(table, ({ kinds: columnKinds, rows: cells, width }) => {
        const defs: TableColumn<string[]>[] = [
          { header: 'id', value: (_r) => 1001 },
          ...columnKinds.map((kind, i) => ({ header: `c${i}`, kind, value: (r: string[]) => r[i] })),
        ];
        const lines = printed(cells, defs, width);
        const header = lines[0] ?? '';
        const starts = [...header.matchAll(/\S+/g)].map((m) => m.index);
        // Each column but the last ends GAP before the next one starts; its widest line fills it.
        for (let k = 0; k + 1 < starts.length; k++) {
          const [from, to] = [starts[k] as number, (starts[k + 1] as number) - GAP];
          const widest = Math.max(...lines.map((line) => line.slice(from, to).trimEnd().length));
          expect(widest, lines.join('\n')).toBe(to - from);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('renderTable: a column gives width to one that wraps while the table gets shorter', () => {
  type Company = { id: number; name: string; owner: string; campaigns: number; slots: number };
  // As `companies list --columns all` prints them: an owner, a description, wraps only when named.
  const companyColumns: TableColumn<Company>[] = [
    { header: 'id', value: (c) => c.id },
    { header: 'name', value: (c) => c.name },
    { header: 'owner', value: (c) => c.owner },
    { header: 'campaigns', value: (c) => c.campaigns, kind: 'count' },
    { header: 'email slots', value: (c) => c.slots, kind: 'count' },
    { header: 'linkedin slots', value: (c) => c.slots, kind: 'count' },
  ];
  const companies: Company[] = [
    ['Acme Ltd', 'Olivia Owner'],
    ['Blue Harbor Dental', 'Tom Teammate'],
    ['Pinecrest Robotics Ltd', 'Olivia Owner'],
    ['Lighthouse Outfitters GmbH', 'Tom Teammate'],
  ].map(([name = '', owner = ''], i) => ({ id: 1001 + i, name, owner, campaigns: i, slots: 2 }));

  it('an owner on two lines in every row gets the width of a name that then wraps in one', () => {
    expect(printed(companies, companyColumns, 72, true)).toEqual([
      'ID    NAME                    OWNER         CAMPAIGNS  EMAIL  LINKEDIN',
      '                                                       SLOTS  SLOTS',
      '1001  Acme Ltd                Olivia Owner  0          2      2',
      '1002  Blue Harbor Dental      Tom Teammate  1          2      2',
      '1003  Pinecrest Robotics Ltd  Olivia Owner  2          2      2',
      '1004  Lighthouse Outfitters   Tom Teammate  3          2      2',
      '      GmbH',
    ]);
  });

  type Hook = { company: number; event: string; url: string };
  /** A webhook's company, its event or the company's name (both kind 'name'), and its URL. */
  const hookColumns = (second: 'event' | 'name'): TableColumn<Hook>[] => [
    { header: 'company', value: (h) => h.company, kind: 'id' },
    { header: second, value: (h) => h.event, kind: 'name' },
    { header: 'target url', value: (h) => h.url, kind: 'email' },
  ];
  const crm = 'https://crm.acme.example/webhooks/woodpecker?event=';
  const hooksOf = (first: string, ...others: string[]): Hook[] => [
    { company: 1001, event: first, url: 'https://hooks.zapier.com/hooks/catch/1001/' },
    ...others.map((event, i) => ({
      company: 1002 + i,
      event,
      url: i % 2 ? `${crm}email_opened&to=10` : `${crm}campaign_completed`,
    })),
  ];

  it('a name gives what the line has left the width to hold three URLs whole: one name wrapped, two lines saved', () => {
    const hooks = hooksOf('Lighthouse Outfitters Co', 'Acme Ltd', 'Acme Law', 'Acme Tax');
    expect(printed(hooks, hookColumns('name'), 101)).toEqual([
      // (Co, short, is not left alone on its line: Outfitters goes down with it.)
      'COMPANY  NAME           TARGET URL',
      '1001     Lighthouse     https://hooks.zapier.com/hooks/catch/1001/',
      '         Outfitters Co',
      `1002     Acme Ltd       ${crm}campaign_completed`,
      `1003     Acme Law       ${crm}email_opened&to=10`,
      `1004     Acme Tax       ${crm}campaign_completed`,
    ]);
  });

  it('no name is wrapped for less than two lines: two URLs stay wrapped beside a whole name', () => {
    const hooks = hooksOf('Lighthouse Outfitters Co', 'Acme Ltd', 'Acme Law');
    expect(printed(hooks, hookColumns('name'), 101)).toEqual([
      'COMPANY  NAME                      TARGET URL',
      '1001     Lighthouse Outfitters Co  https://hooks.zapier.com/hooks/catch/1001/',
      `1002     Acme Ltd                  ${crm}campaign_`,
      '                                   completed',
      `1003     Acme Law                  ${crm}email_opened&`,
      '                                   to=10',
    ]);
  });

  it('never breaks a word it did not break before: an event name stays whole beside wrapped URLs', () => {
    const hooks = hooksOf('PROSPECT_NOT_INTERESTED', 'CAMPAIGN_COMPLETED', 'EMAIL_OPENED');
    // Five columns of EVENT would unwrap both URLs (one line fewer) by breaking PROSPECT_ / NOT_INTERESTED.
    expect(printed(hooks, hookColumns('event'), 100)).toEqual([
      'COMPANY  EVENT                    TARGET URL',
      '1001     PROSPECT_NOT_INTERESTED  https://hooks.zapier.com/hooks/catch/1001/',
      `1002     CAMPAIGN_COMPLETED       ${crm}campaign_`,
      '                                  completed',
      `1003     EMAIL_OPENED             ${crm}email_opened&`,
      '                                  to=10',
    ]);
  });

  it('never cuts a word at the width: an address broken after its dot stays so beside a wrapped name', () => {
    type Problem = { name: string; detail: string };
    const problemColumns: TableColumn<Problem>[] = [
      { header: 'name', value: (p) => p.name },
      { header: 'detail', value: (p) => p.detail, kind: 'problem' },
    ];
    const failed = '(SMTP): SMTP authentication failed';
    const problems: Problem[] = [
      { name: 'Pinecrest Robotics Corp', detail: 'Mailbox disconnected' },
      { name: 'Cedar Ridge Clinic Corp', detail: `hello@lighthouseoutfittersgmbh.example ${failed}` },
    ];
    // Four columns of DETAIL would unwrap both names (two lines fewer) by cutting lighthouseoutfittersgmb / h.
    expect(printed(problems, problemColumns, 47)).toEqual([
      'NAME                DETAIL',
      'Pinecrest Robotics  Mailbox disconnected',
      'Corp',
      'Cedar Ridge Clinic  hello@',
      'Corp                lighthouseoutfittersgmbh.',
      '                    example (SMTP): SMTP',
      '                    authentication failed',
    ]);
  });
});

describe('fixedTable (a table printed a row at a time)', () => {
  const plain = new Chalk({ level: 0 });

  it('lays out from the sample, prints rows alike, and wraps a later cell wider than its column', () => {
    const whole = renderTable(rows, columns, { width: 100, chalk: plain });
    const table = fixedTable(rows, columns, { width: 100, chalk: plain });
    // The same rows give the same text as the table printed whole.
    expect([table.header, ...rows.map(table.row)].join('\n')).toBe(whole.text);
    const wider = { ...rows[0], owner: 'A much longer owner name than any in the sample' } as Company;
    const [first, ...rest] = table.row(wider).split('\n');
    expect(first).toMatch(/^1001 {2}Acme Ltd +A much {2,}true/);
    expect(rest.map((line) => line.trim()).join(' ')).toBe('longer owner name than any in the sample');
    // Wrapped at 30, the two agree but for the wrapped NAME's width: the whole table narrows it to its
    // widest line; the streamed one keeps what the sample got, as its later rows may need it.
    const narrow = fixedTable(rows, columns, { width: 30, chalk: plain });
    const oneSpace = (text: string) => text.replace(/ +/g, ' ');
    const streamed = [narrow.header, ...rows.map(narrow.row)].join('\n');
    expect(oneSpace(streamed)).toBe(oneSpace(renderTable(rows, columns, { width: 30, chalk: plain }).text));
    expect(streamed.split('\n')[0]).toBe('ID    NAME              ACTIVE');
  });

  it("gives the last column the rest of the line: a real cell longer than the sample's wraps at the edge", () => {
    const table = fixedTable(rows, columns.slice(0, 3), { width: 60, chalk: plain });
    const wider = { ...rows[0], owner: 'A much longer owner name than any in the sample' } as Company;
    const printed = table.row(wider).split('\n');
    // OWNER starts after ID (4) and NAME (30) and their gaps: 22 columns are left for it, not 12.
    expect(printed[0]).toBe('1001  Acme Ltd                        A much longer owner');
    expect(printed.map((line) => line.trim()).slice(1)).toEqual(['name than any in the', 'sample']);
  });

  it("keeps the widths the sample got: a real cell the sample's lines would not hold still wraps only where it may", () => {
    type Audit = { id: number; name: string; types: string; campaigns: string };
    const auditColumns: TableColumn<Audit>[] = [
      { header: 'id', value: (a) => a.id },
      { header: 'name', value: (a) => a.name },
      { header: 'mailbox types', value: (a) => a.types, kind: 'list' },
      { header: 'campaigns', value: (a) => a.campaigns, kind: 'list' },
    ];
    // Typical values (src/fleet/inventory.ts): wrapped, their lines are 7 and 10 wide.
    const sample = [
      { id: 1001, name: 'Acme Ltd', types: 'IMAP:3,SMTP:3', campaigns: 'RUNNING:2,PAUSED:1,STOPPED:1' },
    ];
    const table = fixedTable(sample, auditColumns, { width: 40, chalk: plain, hideNone: true });
    const row = table.row({ id: 1007, name: 'Acme Ltd', types: 'inactive', campaigns: 'COMPLETED:2' });
    // Both columns got their floor, 11: `inactive` and `COMPLETED:2` fit it whole.
    expect(row).toBe('1007  Acme Ltd  inactive     COMPLETED:2');
  });

  it('hides the same columns as the table printed whole', () => {
    const whole = renderTable(rows, columns, { width: 40, chalk: plain });
    expect(whole.hidden.length).toBeGreaterThan(0);
    expect(fixedTable(rows, columns, { width: 40, chalk: plain }).hidden).toEqual(whole.hidden);
  });
});

describe('wrapToWidth (a cell too long for its column)', () => {
  it('breaks prose at spaces, dropping them', () => {
    expect(wrapToWidth('SMTP authentication failed: 535 5.7.8', 16)).toEqual([
      'SMTP',
      'authentication',
      'failed: 535',
      '5.7.8',
    ]);
  });

  it('breaks an address or a URL after its punctuation, keeping every character', () => {
    expect(wrapToWidth('hello@lighthouseoutfitters.example', 28)).toEqual([
      'hello@lighthouseoutfitters.',
      'example',
    ]);
    const url = 'https://hooks.crm.example.com/webhooks/woodpecker';
    const lines = wrapToWidth(url, 20);
    expect(lines.join('')).toBe(url);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(20);
    expect(wrapToWidth('no_running_campaign', 11)).toEqual(['no_running_', 'campaign']);
  });

  it('breaks a list between its items before inside one', () => {
    expect(wrapToWidth('CAMPAIGN_COMPLETED,PROSPECT_BOUNCED,PROSPECT_REPLIED', 35)).toEqual([
      'CAMPAIGN_COMPLETED,',
      'PROSPECT_BOUNCED,PROSPECT_REPLIED',
    ]);
  });

  it('never splits a word that fits the line', () => {
    const text = 'hello@lighthouse.example (SMTP): SMTP authentication failed: 535 5.7.8 Username';
    for (let width = 14; width <= 40; width++) {
      const printed = wrapToWidth(text, width).flatMap((line) => line.split(' '));
      for (const word of text.split(' '))
        if (word.length <= width) expect(printed, `width ${width}`).toContain(word);
    }
  });

  it('breaks a word with nowhere to break at the width, and measures wide characters', () => {
    expect(wrapToWidth('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    const lines = wrapToWidth('東京ロボティクス株式会社', 10);
    expect(lines).toEqual(['東京ロボテ', 'ィクス株式', '会社']);
  });

  it('leaves text that fits alone', () => {
    expect(wrapToWidth('Acme Ltd', 8)).toEqual(['Acme Ltd']);
    expect(wrapToWidth('', 5)).toEqual(['']);
  });
});
