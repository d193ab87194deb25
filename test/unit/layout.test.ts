/**
 * Tables fitted to 60, 80, 100 and 200 columns with rows like the sandbox's: what is hidden, what is
 * cut, and that ids, names and addresses keep their space before counters do.
 */
import { describe, expect, it } from 'vitest';
import { type CellKind, type ColumnSpec, fitTable, GAP } from '../../src/output/layout.js';
import { hiddenNote } from '../../src/output/writer.js';

type Def = { header: string; kind: CellKind; priority: number };
const col = (header: string, kind: CellKind, priority: number): Def => ({ header, kind, priority });

function specs(defs: readonly Def[], rows: readonly (readonly unknown[])[]): ColumnSpec[] {
  return defs.map((d, i) => ({
    header: d.header.toUpperCase(),
    kind: d.kind,
    priority: d.priority,
    content: Math.max(0, ...rows.map((r) => String(r[i] ?? '').length)),
  }));
}

/** What a layout prints per row: total width, and each shown column's header and width. */
function describeLayout(columns: readonly ColumnSpec[], width: number) {
  const layout = fitTable(columns, width);
  const used = layout.shown.reduce((sum, c) => sum + c.width, 0) + GAP * (layout.shown.length - 1);
  return {
    used,
    shown: Object.fromEntries(layout.shown.map((c) => [columns[c.index]?.header, c.width])),
    hidden: layout.hidden,
  };
}

const COMPANY_COLUMNS: Def[] = [
  col('id', 'id', 0),
  col('name', 'name', 0),
  col('owner', 'text', 2),
  col('active', 'text', 1),
  col('campaigns', 'count', 3),
  col('email slots', 'count', 3),
  col('linkedin slots', 'count', 3),
];
const COMPANIES = [
  [1001, 'Acme Ltd', 'Olivia Owner', true, 0, 1, 1],
  [1005, 'Lighthouse Outfitters GmbH', 'Tom Teammate', true, 4, 2, 1],
  [1007, 'Blue Harbor Dental Ltd', 'Olivia Owner', false, 0, 2, 0],
  [1114, 'Red Fox Design Studio Partners', 'Olivia Owner', true, 3, 1, 0],
];

/** inventory's columns, as src/commands/inventory/index.ts defines them. */
const INVENTORY_COLUMNS: Def[] = [
  col('id', 'id', 0),
  col('name', 'name', 0),
  col('active', 'text', 3),
  col('keys', 'count', 3),
  col('mailboxes', 'count', 3),
  col('mailbox types', 'list', 4),
  col('mailbox errors', 'count', 3),
  col('webhooks', 'list', 4),
  col('email accounts', 'count', 4),
  col('campaigns', 'list', 4),
  col('campaign errors', 'count', 3),
  col('problems', 'problem', 0),
];

const MAILBOX_COLUMNS: Def[] = [
  col('id', 'id', 0),
  col('type', 'text', 2),
  col('email', 'email', 0),
  col('from name', 'text', 3),
  col('daily limit', 'count', 4),
  col('sent today', 'count', 4),
  col('error', 'text', 1),
];
const MAILBOXES = [
  [10010, 'SMTP', 'sales@acmeltd.example', 'Jack Wilson', 200, 197, ''],
  [10011, 'IMAP', 'outreach.team@lighthouse-outfitters.example', 'Marguerite Delacroix-Smith', 100, 72, ''],
  [
    10012,
    'SMTP',
    'hello@redfox.example',
    'David Nowak',
    50,
    0,
    'Authentication failed for smtp.redfox.example',
  ],
];

describe('fitTable: companies list', () => {
  const columns = specs(COMPANY_COLUMNS, COMPANIES);

  it('at 200 columns shows every column at its full width', () => {
    const t = describeLayout(columns, 200);
    expect(t.hidden).toEqual([]);
    expect(t.shown).toEqual({
      ID: 4,
      NAME: 30,
      OWNER: 12,
      ACTIVE: 6,
      CAMPAIGNS: 9,
      'EMAIL SLOTS': 11,
      'LINKEDIN SLOTS': 14,
    });
  });

  it('at 100 columns still fits every column whole', () => {
    const t = describeLayout(columns, 100);
    expect(t.hidden).toEqual([]);
    expect(t.used).toBeLessThanOrEqual(100);
    expect(t.shown.NAME).toBe(30);
  });

  it('at 80 columns hides counters (rightmost first) and keeps names whole', () => {
    const t = describeLayout(columns, 80);
    expect(t.hidden).toEqual(['EMAIL SLOTS', 'LINKEDIN SLOTS']);
    expect(t.shown).toEqual({ ID: 4, NAME: 30, OWNER: 12, ACTIVE: 6, CAMPAIGNS: 9 });
    expect(t.used).toBeLessThanOrEqual(80);
  });

  it('at 60 columns hides every counter before cutting a name', () => {
    const t = describeLayout(columns, 60);
    expect(t.hidden).toEqual(['CAMPAIGNS', 'EMAIL SLOTS', 'LINKEDIN SLOTS']);
    expect(t.shown).toEqual({ ID: 4, NAME: 30, OWNER: 12, ACTIVE: 6 });
    expect(t.used).toBeLessThanOrEqual(60);
  });

  it('at 40 columns keeps id, name and active (the name wraps, readable); narrower, id and name', () => {
    const t = describeLayout(columns, 40);
    expect(Object.keys(t.shown)).toEqual(['ID', 'NAME', 'ACTIVE']);
    expect(t.shown.ID).toBe(4);
    expect(t.shown.NAME).toBeGreaterThanOrEqual(20);
    expect(t.used).toBeLessThanOrEqual(40);
    const tiny = describeLayout(columns, 24);
    expect(tiny.shown).toEqual({ ID: 4, NAME: 18 });
  });

  it('never narrows an id, however narrow; a name wraps down to 12 columns at most', () => {
    const t = describeLayout(specs(COMPANY_COLUMNS, [[123456789012, 'A very long company name indeed']]), 12);
    expect(t.shown.ID).toBe(12);
    expect(t.shown.NAME).toBe(12);
  });
});

describe('fitTable: mailboxes (addresses before counters)', () => {
  const columns = specs(MAILBOX_COLUMNS, MAILBOXES);

  it('at 200 columns shows everything whole', () => {
    const t = describeLayout(columns, 200);
    expect(t.hidden).toEqual([]);
    expect(t.shown.EMAIL).toBe(43);
    expect(t.shown.ERROR).toBe(45);
  });

  it('at 100 columns keeps every address whole and hides counters before wrapping it', () => {
    const t = describeLayout(columns, 100);
    expect(t.shown.EMAIL).toBe(43);
    expect(t.used).toBeLessThanOrEqual(100);
    // The error wraps rather than the address, and counters are hidden before the error wraps short.
    expect(t.shown.ERROR).toBeGreaterThanOrEqual(12);
    expect(t.hidden).toEqual(['DAILY LIMIT', 'SENT TODAY']);
  });

  it('at 80 columns hides the sender name and counters, and the address stays whole', () => {
    const t = describeLayout(columns, 80);
    expect(t.hidden).toEqual(['FROM NAME', 'DAILY LIMIT', 'SENT TODAY']);
    expect(t.shown.EMAIL).toBe(43);
    expect(t.used).toBeLessThanOrEqual(80);
  });

  it('at 60 columns keeps the type and the error beside the address, wrapping what is long', () => {
    const t = describeLayout(columns, 60);
    expect(Object.keys(t.shown)).toEqual(['ID', 'TYPE', 'EMAIL', 'ERROR']);
    expect(t.hidden).toEqual(['FROM NAME', 'DAILY LIMIT', 'SENT TODAY']);
    expect(t.shown.EMAIL).toBeGreaterThanOrEqual(20);
    expect(t.used).toBeLessThanOrEqual(60);
  });
});

describe('fitTable: general rules', () => {
  it('brings back a column hidden early only while every more important one is shown', () => {
    const columns: ColumnSpec[] = [
      { header: 'ID', kind: 'id', priority: 0, content: 4 },
      { header: 'NAME', kind: 'name', priority: 0, content: 20 },
      { header: 'NOTES', kind: 'name', priority: 2, content: 40 },
      { header: 'N', kind: 'count', priority: 3, content: 2 },
    ];
    // N (hidden first) would fit beside ID and NAME, but NOTES matters more and is hidden: N stays
    // hidden, so that what is hidden is always what matters least.
    expect(describeLayout(columns, 40).hidden).toEqual(['NOTES', 'N']);
    // Once the more important column is back, the next one comes back too.
    const wider = describeLayout(columns, 80);
    expect(Object.keys(wider.shown)).toEqual(['ID', 'NAME', 'NOTES', 'N']);
  });

  it('never hides an error count while a description of lower rank is shown (inventory at 100 columns)', () => {
    const inventory = specs(INVENTORY_COLUMNS, [
      [
        1063,
        'x'.repeat(35),
        true,
        10,
        10,
        'IMAP:3,SMTP:3',
        1,
        'CAMPAIGN_COMPLETED,PROSPECT_REPLIED',
        10,
        'RUNNING:4,PAUSED:2,STOPPED:3',
        1,
        '2 campaign errors',
      ],
    ]);
    for (const width of [80, 100, 120, 140, 160, 200]) {
      const t = describeLayout(inventory, width);
      const shown = (header: string) => header in t.shown;
      if (shown('MAILBOX TYPES')) expect(shown('MAILBOX ERRORS'), `width ${width}`).toBe(true);
      if (shown('WEBHOOKS') || shown('CAMPAIGNS')) {
        expect(shown('MAILBOX ERRORS') && shown('CAMPAIGN ERRORS'), `width ${width}`).toBe(true);
      }
      expect(t.used).toBeLessThanOrEqual(width);
    }
  });

  it('never returns a layout wider than the width while something can still give way', () => {
    for (const width of [20, 30, 45, 60, 73, 80, 99, 100, 120, 200]) {
      for (const [defs, rows] of [
        [COMPANY_COLUMNS, COMPANIES],
        [MAILBOX_COLUMNS, MAILBOXES],
      ] as const) {
        const t = describeLayout(specs(defs, rows), width);
        expect(t.used, `width ${width}`).toBeLessThanOrEqual(width);
      }
    }
  });

  it('hides a column that is empty in every row before one with content', () => {
    const columns: ColumnSpec[] = [
      { header: 'ID', kind: 'id', priority: 0, content: 6 },
      { header: 'NAME', kind: 'name', priority: 0, content: 16 },
      { header: 'FROM EMAIL', kind: 'email', priority: 2, content: 21 },
      { header: 'ERROR', kind: 'text', priority: 1, content: 0 },
    ];
    const layout = fitTable(columns, 50);
    expect(layout.hidden).toEqual(['ERROR']);
    expect(layout.shown.map((c) => c.width)).toEqual([6, 16, 21]);
  });

  it('says how many columns are hidden, by the names --columns takes, and how to see them', () => {
    expect(hiddenNote([])).toBeUndefined();
    expect(hiddenNote(['linkedin_slots'])).toBe(
      '1 column hidden (linkedin_slots) — widen the window, or use --columns',
    );
    expect(hiddenNote(['email_slots', 'linkedin_slots'])).toBe(
      '2 columns hidden (email_slots, linkedin_slots) — widen the window, or use --columns',
    );
    // --columns chose them already: only a wider window shows them.
    expect(hiddenNote(['linkedin_slots'], true)).toBe('1 column hidden (linkedin_slots) — widen the window');
    // An error column hidden for being empty is said apart: no error is out of sight.
    expect(hiddenNote(['created', 'per_day', 'error'], false, ['error'])).toBe(
      '2 columns hidden (created, per_day) — widen the window, or use --columns; error is hidden too: it is empty in every row',
    );
    expect(hiddenNote(['error'], false, ['error'])).toBe('error is hidden: it is empty in every row');
  });
});

describe('what a reader came for (issue 21)', () => {
  const MAILBOX: Def[] = [
    col('id', 'id', 0),
    col('type', 'text', 2),
    col('email', 'email', 0),
    col('from name', 'text', 3),
    col('daily limit', 'count', 4),
    col('error', 'problem', 0),
  ];
  const error = 'SMTP authentication failed: 535 5.7.8 Username and Password not accepted';
  const rows = [[10052, 'SMTP', 'hello@lighthouseoutfittersgmbh.example', 'Chloe Martin', 200, error]];

  it('hides counters and descriptions before an error, and cuts the error last but readable', () => {
    for (const width of [60, 80, 100]) {
      const layout = describeLayout(specs(MAILBOX, rows), width);
      expect(layout.hidden).toEqual(expect.arrayContaining(['DAILY LIMIT', 'FROM NAME']));
      expect(layout.shown.ERROR).toBeGreaterThanOrEqual(20);
      expect(layout.shown.ID).toBe(5);
      expect(layout.used).toBeLessThanOrEqual(width);
    }
    expect(describeLayout(specs(MAILBOX, rows), 100).shown.EMAIL).toBe(38);
  });

  it('keeps an error column empty in every row (it says "none") before counters and descriptions, not before a type', () => {
    const clean = [[10050, 'SMTP', 'sales@lighthouseoutfittersgmbh.example', 'Chloe Martin', 200, '']];
    // Room for the empty ERROR, not for FROM NAME beside it: the description goes, the error stays.
    expect(describeLayout(specs(MAILBOX, clean), 60).shown).toEqual({ ID: 5, TYPE: 4, EMAIL: 38, ERROR: 5 });
    // Narrower, it goes before the type (it has nothing to say), and the layout says it was empty.
    const layout = fitTable(specs(MAILBOX, clean), 52);
    expect(layout.hidden).toEqual(['FROM NAME', 'DAILY LIMIT', 'ERROR']);
    expect(layout.empty).toEqual(['ERROR']);
    expect(layout.shown.map((c) => c.width)).toEqual([5, 4, 38]);
  });

  it('inventory of rows with no problems at 80 columns keeps PROBLEMS and hides the descriptions (README tour)', () => {
    const clean = [
      [
        1001,
        'Acme Ltd',
        true,
        2,
        2,
        'IMAP:2,SMTP:2',
        0,
        'CAMPAIGN_COMPLETED,PROSPECT_REPLIED',
        2,
        'EDITED:1',
        0,
        '',
      ],
      [1002, 'Blue Harbor Dental', true, 1, 3, 'IMAP:3,SMTP:3', 0, '', 3, 'RUNNING:1,PAUSED:2', 0, ''],
    ];
    const inventory = specs(INVENTORY_COLUMNS, clean);
    const t = describeLayout(inventory, 80);
    expect(Object.keys(t.shown)).toEqual([
      'ID',
      'NAME',
      'ACTIVE',
      'KEYS',
      'MAILBOXES',
      'MAILBOX ERRORS',
      'PROBLEMS',
    ]);
    expect(t.used).toBeLessThanOrEqual(80);
    expect(fitTable(inventory, 80).empty).toEqual([]);
  });

  it('never cuts the header of an id column', () => {
    const columns = specs(
      [col('company', 'id', 0), col('reason', 'problem', 0)],
      [[1007, 'Company 1007 is inactive, and a long explanation follows here']],
    );
    expect(describeLayout(columns, 30).shown.COMPANY).toBe(7);
  });
});

describe('wrapping rather than cutting (issue 21, third pass)', () => {
  const HEALTH: Def[] = [
    col('company', 'id', 0),
    col('name', 'name', 0),
    col('severity', 'count', 0),
    col('check', 'text', 1),
    col('detail', 'problem', 0),
  ];
  const problems = [
    [
      1005,
      'Lighthouse Outfitters GmbH',
      'critical',
      'mailbox_error',
      `hello@lighthouse.example (SMTP): ${'x'.repeat(60)}`,
    ],
    [1001, 'Acme Ltd', 'info', 'no_running_campaign', 'none of its 1 campaign is running'],
  ];

  it.each([80, 100])('health at %i columns: company, name, severity, check and detail all stay', (width) => {
    const t = describeLayout(specs(HEALTH, problems), width);
    expect(t.hidden).toEqual([]);
    expect(t.shown.COMPANY).toBe(7);
    expect(t.shown.SEVERITY).toBe(8);
    expect(t.shown.CHECK).toBeGreaterThanOrEqual(11);
    expect(t.shown.DETAIL).toBeGreaterThanOrEqual(20);
    expect(t.used).toBeLessThanOrEqual(width);
    // The detail, what the reader came for, gets at least as much room as the name.
    expect(t.shown.DETAIL).toBeGreaterThanOrEqual(t.shown.NAME ?? 0);
  });

  it('health at 60 columns: CHECK (it repeats the detail) goes before the detail wraps below 20 (second pass, finding 1)', () => {
    const t = describeLayout(specs(HEALTH, problems), 60);
    expect(t.hidden).toEqual(['CHECK']);
    expect(t.shown.COMPANY).toBe(7);
    expect(t.shown.SEVERITY).toBe(8);
    expect(t.shown.DETAIL).toBeGreaterThanOrEqual(20);
    expect(t.shown.NAME).toBeGreaterThanOrEqual(12);
    expect(t.used).toBeLessThanOrEqual(60);
    // Piped and --json keep it; with --columns it is shown, wrapped.
    expect(fitTable(specs(HEALTH, problems), 60, { hideNone: true }).hidden).toEqual([]);
  });

  it('health from 100 columns up: a check name (an identifier) whole; name and detail wrap instead (finding 2)', () => {
    for (const width of [100, 120, 160]) {
      const t = describeLayout(specs(HEALTH, problems), width);
      expect(t.shown.CHECK, `width ${width}`).toBe('no_running_campaign'.length);
      expect(t.used).toBeLessThanOrEqual(width);
    }
    // Narrower, it is all or nothing: wrapped to its floor, not cut one character short; the detail
    // (what went wrong) keeps the room a whole check would take from it.
    expect(describeLayout(specs(HEALTH, problems), 80).shown.CHECK).toBe(11);
  });

  const SUBSCRIBE: Def[] = [
    col('company', 'id', 0),
    col('event', 'name', 2),
    col('target url', 'email', 1),
    col('result', 'count', 0),
    col('reason', 'problem', 0),
  ];
  const url = 'https://hooks.crm-integration4.example.com/webhooks/woodpecker/link-clicked';
  const results = [
    [1004, 'LINK_CLICKED', url, 'failed', 'An event can be subscribed to at most 3 URLs per account.'],
    [1007, 'LINK_CLICKED', url, 'failed', 'Company 1007 is inactive'],
  ];

  it('webhooks subscribe: the URL stays (wrapped) at 60, 80 and 100 columns; the event goes first', () => {
    const at60 = describeLayout(specs(SUBSCRIBE, results), 60);
    expect(at60.hidden).toEqual(['EVENT']);
    for (const width of [60, 80, 100]) {
      const t = describeLayout(specs(SUBSCRIBE, results), width);
      expect(t.shown['TARGET URL']).toBeGreaterThanOrEqual(20);
      expect(t.shown.REASON).toBeGreaterThanOrEqual(12);
      expect(t.used).toBeLessThanOrEqual(width);
    }
    expect(describeLayout(specs(SUBSCRIBE, results), 80).hidden).toEqual([]);
  });

  it('a short URL stays whole at 60 columns while the reason beside it wraps (below 20 if it must)', () => {
    const short = [
      [1001, 'PROSPECT_REPLIED', 'https://h.example/d', 'subscribed', ''],
      [1007, 'PROSPECT_REPLIED', 'https://h.example/d', 'failed', 'Company 1007 is inactive'],
    ];
    const t = describeLayout(specs(SUBSCRIBE, short), 60);
    expect(t.shown['TARGET URL']).toBe('https://h.example/d'.length);
    expect(t.shown.REASON).toBeGreaterThanOrEqual(12);
    expect(t.used).toBeLessThanOrEqual(60);
    // So it is down to 55 columns, the reason on lines of 12.
    const at55 = describeLayout(specs(SUBSCRIBE, short), 55);
    expect(at55.shown).toEqual({ COMPANY: 7, 'TARGET URL': 19, RESULT: 10, REASON: 13 });
  });

  it('a short URL a row is about: the event (said in the command line) is hidden before the URL splits', () => {
    const done = [
      [1001, 'TASK_DONE', 'https://t.example/hook-for-crm', 'subscribed', ''],
      [1002, 'TASK_DONE', 'https://t.example/hook-for-crm', 'subscribed', ''],
    ];
    const t = describeLayout(specs(SUBSCRIBE, done), 60);
    expect(t.hidden).toEqual(['EVENT', 'REASON']);
    expect(t.shown['TARGET URL']).toBe(30);
    // A sender's address (a description, priority 2) still wraps rather than hide a column.
    const campaigns = specs(
      [col('id', 'id', 0), col('name', 'name', 0), col('status', 'text', 1), col('from email', 'email', 2)],
      [[100200, 'Follow-up: trade show 5', 'RUNNING', 'sales@blueharbordental.example']],
    );
    expect(describeLayout(campaigns, 60).hidden).toEqual([]);
  });

  it('an address keeps its width while a problem beside it wraps to readable lines', () => {
    const columns = specs(
      [col('id', 'id', 0), col('type', 'text', 2), col('email', 'email', 0), col('error', 'problem', 0)],
      [[10052, 'SMTP', 'hello@lighthouseoutfittersgmbh.example', 'x'.repeat(72)]],
    );
    expect(describeLayout(columns, 80).shown).toEqual({ ID: 5, TYPE: 4, EMAIL: 38, ERROR: 27 });
  });

  it('the roles a filter is about stay whole at 60 columns; the name and the address wrap (N3)', () => {
    const users = specs(
      [col('id', 'id', 0), col('name', 'name', 0), col('email', 'email', 0), col('roles', 'text', 1)],
      [[1004001, 'Julia Nowak', 'zoe.dubois1@guest-pinecrestroboticsltd.example', 'authorized_team_member']],
    );
    const t = describeLayout(users, 60);
    expect(t.hidden).toEqual([]);
    expect(t.shown.ROLES).toBe('authorized_team_member'.length);
    expect(t.shown.EMAIL).toBeGreaterThanOrEqual(12);
    expect(t.used).toBeLessThanOrEqual(60);
    // Where even the address's floor does not fit beside it, the roles wrap to theirs.
    expect(describeLayout(users, 50).shown.ROLES).toBe(11);
  });

  it('a long list (webhook events) wraps at 35 columns before an error count is hidden for it (finding 5)', () => {
    const inventory = specs(
      [
        col('id', 'id', 0),
        col('name', 'name', 0),
        col('mailbox errors', 'count', 3),
        col('webhooks', 'list', 4),
        col('campaign errors', 'count', 3),
        col('problems', 'problem', 0),
      ],
      [
        [
          1001,
          'Acme Ltd',
          0,
          'CAMPAIGN_COMPLETED,EMAIL_OPENED,PROSPECT_BOUNCED,PROSPECT_OPT_OUT',
          1,
          '1 campaign error',
        ],
      ],
    );
    const t = describeLayout(inventory, 102);
    expect(t.hidden).toEqual([]);
    expect(t.shown.WEBHOOKS).toBe(35);
    // Narrower, the list goes before the error counts.
    expect(describeLayout(inventory, 80).hidden).toEqual(['WEBHOOKS']);
  });

  it('with --columns (hideNone) columns wrap, headers too, and only what cannot fit then is hidden', () => {
    const columns = specs(COMPANY_COLUMNS, COMPANIES);
    expect(fitTable(columns, 80).hidden).toEqual(['EMAIL SLOTS', 'LINKEDIN SLOTS']);
    const asked = fitTable(columns, 80, { hideNone: true });
    expect(asked.hidden).toEqual([]);
    // `EMAIL SLOTS` over a one-digit count may take 5 columns: its header wraps between the words.
    expect(asked.shown.find((c) => c.index === 5)?.width).toBeGreaterThanOrEqual(5);
    expect(fitTable(columns, 60, { hideNone: true }).hidden).toEqual(['LINKEDIN SLOTS']);
  });
});
