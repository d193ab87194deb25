/**
 * Issue 14, items 1–4, as an operator sees them: tables that fit 60 and 100 columns by hiding
 * low-priority columns (said on stderr) instead of cutting names and addresses; --columns and --csv;
 * counts that say what --limit and --page left out; -q. In a terminal where the point is about one (two
 * checks in tmux, the others in a virtual terminal that shows the same screen), and the program run in
 * this process (test/helpers/in-process.ts) for pipes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { type AgencyTerminals, startAgencyTerminals } from '../helpers/agency-terminals.js';
import { type Harness, startHarness } from '../helpers/cli.js';
import { activeCompany, direct, lines, sent } from '../helpers/core.js';
import { readTable, wholeText } from '../helpers/table-text.js';
import { TMUX_MISSING } from '../helpers/tmux.js';

const COMMA_NAME = 'Smith, Jones & "Partners"';
let h: Harness;
let terminals: AgencyTerminals;

beforeAll(async () => {
  // 58 companies, not 120: the first seed that holds the longest active name of the default 120 (1058, 32
  // characters: inventory's NAME column as wide), more than 20 (inventory streams its table) and more
  // than one page of 50 (--page). Each company costs inventory 5 requests.
  h = await startHarness({ seed: { companies: 58 } }, { inProcess: true });
  const created = await direct(h.sandbox, '/v2/agency/companies', {
    body: { companies: [{ name: COMMA_NAME }] },
  });
  expect(created.status).toBe(201);
  h.sandbox.reset();
  // Two checks read a real terminal (tmux); the others a virtual one (test/helpers/virtual-terminal.ts),
  // which shows the same screen (test/e2e/virtual-terminal.test.ts).
  terminals = await startAgencyTerminals(h.configDir, [60], 50, [60, 100]);
});
afterAll(async () => {
  await terminals?.close();
  await h?.close();
});

const companies = () => h.sandbox.store.companies(MAIN_AGENCY_ID);

describe.skipIf(Boolean(TMUX_MISSING))(
  TMUX_MISSING ? `tables (skipped: ${TMUX_MISSING})` : 'tables in a terminal',
  () => {
    it('at 60 columns: id, name, owner, active whole; counters hidden and said so', async () => {
      const t = terminals.at(60);
      const { output, exit } = await t.run('agency companies list --limit 8');
      expect(exit).toBe(0);
      const rows = lines(output);
      expect(rows[0]).toMatch(/^ID {2,}NAME {2,}OWNER {2,}ACTIVE$/);
      for (const company of companies().slice(0, 8)) {
        expect(output).toMatch(new RegExp(`^${company.id} {2}${escapeRegExp(company.name)} {2,}\\S`, 'm'));
      }
      expect(output).not.toContain('…');
      // The note is wrapped at the width (between words) by the tool itself.
      expect(output.replace(/\n/g, ' ')).toContain(
        '3 columns hidden (running_campaigns, email_slots, linkedin_slots) — widen the window, or use --columns',
      );
      for (const line of lines(output)) expect(line.length).toBeLessThanOrEqual(60);
    });

    it('at 60 columns: a webhooks subscribe result is never cut, the URL gives way', async () => {
      const { output, exit } = await terminals.run(
        60,
        'agency webhooks subscribe --event prospect_replied --url https://crm.example.com/h --company 1001 --dry-run',
      );
      expect(exit).toBe(0);
      expect(output).toMatch(/ would-subscribe$/m);
      for (const line of lines(output)) expect(line.length).toBeLessThanOrEqual(60);
    });

    it('at 100 columns: every column of companies list, nothing hidden, nothing cut', async () => {
      const { output, exit } = await terminals.runOnce(100, 'agency companies list --limit 8');
      expect(exit).toBe(0);
      expect(lines(output)[0]).toMatch(/^ID +NAME +OWNER +ACTIVE +CAMPAIGNS +EMAIL SLOTS +LINKEDIN SLOTS$/);
      expect(output).not.toContain('hidden');
      expect(output).not.toContain('…');
    });

    it('inventory at 60 columns keeps ids and names whole (a long name on two lines of its column)', async () => {
      const { output, exit } = await terminals.run(60, 'agency inventory --active');
      expect(exit).toBe(0);
      const table = readTable(output, ['ID', 'NAME']);
      const active = companies().filter((c) => c.active);
      expect(table.rows.map((r) => r.ID?.join(''))).toEqual(active.map((c) => String(c.id)));
      active.forEach((company, i) => {
        expect(wholeText(table.rows[i]?.NAME, company.name), output).toBe(true);
      });
      expect(output).not.toContain('…');
      expect(output.replace(/\n/g, ' ')).toMatch(
        /\d+ columns? hidden \(.*\) — widen the window, or use --columns/,
      );
    });

    it('mailboxes at 60 and 100 columns show every address whole (wrapped at 60)', async () => {
      const company = activeCompany(h.sandbox);
      const mailboxes = await direct(h.sandbox, '/v2/mailboxes', { company: company.id });
      expect(mailboxes.body.length).toBeGreaterThan(0);
      for (const width of [60, 100]) {
        const { output, exit } = await terminals.runOnce(width, `agency mailboxes --company ${company.id}`);
        expect(exit).toBe(0);
        const table = readTable(output, ['ID', 'EMAIL']);
        mailboxes.body.forEach((m: { details: { email: string } }, i: number) => {
          expect(wholeText(table.rows[i]?.EMAIL, m.details.email), output).toBe(true);
        });
        if (width === 100) for (const m of mailboxes.body) expect(output).toContain(m.details.email);
      }
    });

    it('--columns all shows the columns a table hides by default, wrapped (headers too) to fit', async () => {
      const company = activeCompany(h.sandbox);
      const plain = await terminals.runOnce(60, `agency mailboxes --company ${company.id}`);
      expect(plain.output).toMatch(/columns? hidden \(.*sent_today/);
      const { output, exit } = await terminals.run(
        60,
        `agency mailboxes --company ${company.id} --columns all`,
      );
      expect(exit).toBe(0);
      expect(output).not.toContain('hidden');
      const header = lines(output).slice(0, 2).join(' ');
      for (const word of [
        'ID',
        'TYPE',
        'EMAIL',
        'FROM',
        'NAME',
        'DAILY',
        'LIMIT',
        'SENT',
        'TODAY',
        'ERROR',
      ]) {
        expect(header).toContain(word);
      }
      for (const line of lines(output)) expect(line.length).toBeLessThanOrEqual(60);
      // At 60 columns only what cannot fit even wrapped is hidden, and said.
      const narrow = await terminals.run(60, 'agency companies list --limit 3 --columns all');
      expect(lines(narrow.output)[0]).toMatch(/^ID +NAME +OWNER +ACTIVE +CAMPAIGNS/);
      expect(narrow.output.replace(/\s+/g, ' ')).toMatch(
        /1 column hidden \(linkedin_slots\) — widen the window \d/,
      );
      for (const line of lines(narrow.output)) expect(line.length).toBeLessThanOrEqual(60);
    });

    it('--columns chooses and orders the table, and hides nothing it was asked for', async () => {
      const { output, exit } = await terminals.run(
        60,
        'agency companies list --limit 3 --columns name,linkedin_slots,id',
      );
      expect(exit).toBe(0);
      expect(lines(output)[0]).toMatch(/^NAME +LINKEDIN SLOTS +ID$/);
      expect(output).not.toContain('hidden');
    });

    it('counts tell the truth about --limit and --page', async () => {
      const total = companies().length;
      const limited = await terminals.runOnce(100, 'agency companies list --limit 8');
      expect(lines(limited.output).at(-1)).toBe(`8 of ${total} companies (--limit 8)`);
      // A search stopped at --limit has not read the rest: it cannot say how many match.
      const matching = companies().filter((c) => c.name.toLowerCase().includes('e')).length;
      expect(matching).toBeGreaterThan(2);
      const searched = await terminals.run(100, 'agency companies list --search e --limit 2');
      expect(lines(searched.output).at(-1)).toBe('first 2 companies matching "e" (--limit 2)');
      const whole = await terminals.run(100, 'agency companies list --search e');
      expect(lines(whole.output).at(-1)).toBe(`${matching} of ${total} companies match "e"`);
      const lastPage = Math.ceil(total / 50);
      const onLast = total - (lastPage - 1) * 50;
      const paged = await terminals.run(100, `agency companies list --page ${lastPage}`);
      expect(lines(paged.output).at(-1)).toBe(
        `${onLast} companies (page ${lastPage} of ${lastPage}; ${total} in all)`,
      );
    });

    it('messages on stderr are wrapped at 60 columns between words, never cut by the terminal', async () => {
      const company = activeCompany(h.sandbox);
      const { output, exit } = await terminals.at(60).run(`agency keys list ${company.id}`);
      expect(exit).toBe(0);
      for (const line of lines(output)) expect(line.length).toBeLessThanOrEqual(60);
      // The sentence is whole once its lines are joined with spaces: no word was split at the edge.
      expect(output.replace(/\s+/g, ' ')).toContain(
        'Keys are masked; use --reveal to show them, or pipe the output.',
      );
    });

    it('keys list says keys are masked only when a masked key is on the screen', async () => {
      const company = activeCompany(h.sandbox);
      const key = h.sandbox.store.keysOf(company.id)[0]?.key as string;
      expect(key).toBeDefined();
      const table = await terminals.run(100, `agency keys list ${company.id}`);
      expect(table.output).not.toContain(key);
      expect(table.output).toContain('Keys are masked');
      // --json carries whole keys, and a table without the key column shows none: nothing to say.
      const json = await terminals.run(100, `agency keys list ${company.id} --json --columns api_key`);
      expect(json.exit).toBe(0);
      expect(json.output).toContain(key);
      expect(json.output).not.toContain('masked');
      const labels = await terminals.run(100, `agency keys list ${company.id} --columns label`);
      expect(labels.exit).toBe(0);
      expect(labels.output).not.toContain('masked');
    });

    it('-q drops counts and notes; the table stays', async () => {
      const { output, exit } = await terminals.run(60, 'agency -q companies list --limit 3');
      expect(exit).toBe(0);
      expect(lines(output)).toHaveLength(4);
      expect(output).not.toMatch(/companies|hidden/);
    });
  },
);

describe('--columns and --csv piped', () => {
  it('--columns applies to TSV: the chosen fields in the chosen order', async () => {
    const r = await h.run(['companies', 'list', '--limit', '2', '--columns', 'name,id']);
    expect(r.code).toBe(0);
    const [a, b] = companies();
    expect(lines(r.stdout)).toEqual([`${a?.name}\t${a?.id}`, `${b?.name}\t${b?.id}`]);
  });

  it('an unknown column: exit 2, the valid ones named, nothing sent', async () => {
    h.sandbox.reset();
    const r = await h.run(['companies', 'list', '--columns', 'id,nmae']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      'Unknown column "nmae" in --columns; valid columns: id, name, owner, active, running_campaigns, email_slots, linkedin_slots.',
    );
    expect(sent(h.sandbox)).toEqual([]);
  });

  // Every command that prints a list checks --columns before its first request (and before any write).
  it.each([
    ['companies list', ['companies', 'list']],
    ['companies create', ['companies', 'create', '--name', 'Columns Check Ltd']],
    ['companies create --dry-run', ['companies', 'create', '--name', 'Columns Check Ltd', '--dry-run']],
    ['companies users', ['companies', 'users', '1001']],
    ['companies email-accounts', ['companies', 'email-accounts', '1001']],
    ['keys list', ['keys', 'list', '1001']],
    ['keys create (several)', ['keys', 'create', '1001', '1002', '--label', 'cols']],
    ['mailboxes', ['mailboxes']],
    ['webhooks list', ['webhooks', 'list']],
    [
      'webhooks subscribe',
      ['webhooks', 'subscribe', '--event', 'prospect_replied', '--url', 'https://x.example/h'],
    ],
    ['campaigns', ['campaigns']],
    ['inventory', ['inventory']],
    ['blacklist list', ['blacklist', 'list', '--domains']],
    ['blacklist add', ['blacklist', 'add', '--domains', 'columns-check.example']],
  ])('%s: an unknown --columns name is exit 2 with nothing sent', async (_, args) => {
    h.sandbox.reset();
    const r = await h.run([...args, '--columns', 'nosuch']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Unknown column "nosuch" in --columns; valid columns:');
    expect(sent(h.sandbox)).toEqual([]);
  });

  it('--columns all: every column in TSV and CSV, every field with --json; alone or not at all', async () => {
    const plain = await h.run(['companies', 'list', '--limit', '3']);
    const all = await h.run(['companies', 'list', '--limit', '3', '--columns', 'all']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toBe(plain.stdout);
    const csv = await h.run(['companies', 'list', '--limit', '1', '--csv', '--columns', 'ALL']);
    expect(csv.stdout.split('\r\n')[0]).toBe(
      'id,name,owner,active,running_campaigns,email_slots,linkedin_slots',
    );
    const json = await h.run(['mailboxes', '--json']);
    const jsonAll = await h.run(['mailboxes', '--json', '--columns', 'all']);
    expect(jsonAll.code).toBe(0);
    expect(JSON.parse(jsonAll.stdout)).toEqual(JSON.parse(json.stdout));
    expect(JSON.parse(jsonAll.stdout)[0].details).toHaveProperty('email');
    h.sandbox.reset();
    const mixed = await h.run(['companies', 'list', '--columns', 'id,all']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('--columns all stands alone (every column); valid columns: id, name,');
    expect(sent(h.sandbox)).toEqual([]);
  });

  it('the help of a list command offers --columns <names|all>; a command without a list offers neither', async () => {
    const list = await h.run(['mailboxes', '--help']);
    expect(list.stdout.replace(/\s+/g, ' ')).toContain('--json, --csv, --columns <names|all>, -q/--quiet');
    const me = await h.run(['me', '--help']);
    expect(me.stdout.replace(/\s+/g, ' ')).toContain(
      'Global options: -p/--profile, --base-url, --json, -q/--quiet',
    );
    expect(me.stdout).not.toMatch(/--csv|--columns/);
  });

  // Commands that print no list refuse --csv and --columns before anything is read or sent.
  it.each([
    ['me', ['me']],
    ['companies view', ['companies', 'view', '1001']],
    ['api', ['api', '/v1/me']],
    ['plan', ['plan', '-f', 'no-such-file.yaml']],
    ['apply', ['apply', '-f', 'no-such-file.yaml', '--yes']],
    ['profiles use', ['profiles', 'use', 'default']],
    ['logout', ['logout', '--profile', 'nosuch']],
    ['completion', ['completion', 'bash']],
  ])('%s: --csv or --columns is exit 2, said, with nothing sent', async (name, args) => {
    for (const [flags, said] of [
      [['--csv'], '--csv is'],
      [['--columns', 'id'], '--columns is'],
      [['--csv', '--columns', 'all'], '--csv and --columns are'],
    ] as const) {
      h.sandbox.reset();
      const r = await h.run([...args, ...flags]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        `error: ${said} for commands that print a list, and \`agency ${name}\` prints none.`,
      );
      expect(sent(h.sandbox)).toEqual([]);
    }
  });

  it('keys create for one company honours --csv and --columns (a one-row list), else prints the key alone', async () => {
    const company = activeCompany(h.sandbox);
    const alone = await h.run(['keys', 'create', String(company.id), '--label', 'cols-alone']);
    expect(alone.stdout).toMatch(/^wpk_\w+\n$/);
    const csv = await h.run(['keys', 'create', String(company.id), '--label', 'cols-csv', '--csv']);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toMatch(
      new RegExp(`^company_id,label,api_key,result\r\n${company.id},cols-csv,wpk_\\w+,created\r\n$`),
    );
    const tsv = await h.run([
      'keys',
      'create',
      String(company.id),
      '--label',
      'cols-tsv',
      '--columns',
      'label,api_key',
    ]);
    expect(tsv.stdout).toMatch(/^cols-tsv\twpk_\w+\n$/);
    const json = await h.run([
      'keys',
      'create',
      String(company.id),
      '--label',
      'cols-json',
      '--json',
      '--columns',
      'api_key',
    ]);
    expect(Object.keys(JSON.parse(json.stdout))).toEqual(['api_key']);
  });

  it('--json --columns keeps only those fields, named as in JSON (an old short name too)', async () => {
    const r = await h.run(['companies', 'list', '--limit', '2', '--json', '--columns', 'name,id,campaigns']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(
      companies()
        .slice(0, 2)
        .map((c) => ({ name: c.name, id: c.id, running_campaigns: expect.any(Number) })),
    );
    const company = activeCompany(h.sandbox);
    const boxes = await h.run([
      'mailboxes',
      '--company',
      String(company.id),
      '--json',
      '--columns',
      'id,email',
    ]);
    const mailboxes = await direct(h.sandbox, '/v2/mailboxes', { company: company.id });
    expect(JSON.parse(boxes.stdout)).toEqual(
      (mailboxes.body as { id: number; details: { email: string } }[]).map((m) => ({
        id: m.id,
        details: { email: m.details.email },
      })),
    );
  });

  it('--json --columns on inventory: a part that failed keeps its error', async () => {
    const inactive = companies().find((c) => !c.active);
    const active = companies().find((c) => c.active);
    const r = await h.run([
      'inventory',
      '--company',
      String(active?.id),
      '--company',
      String(inactive?.id),
      '--json',
      '--columns',
      'id,mailbox_errors,problems',
    ]);
    expect(r.code).toBe(5);
    const [a, b] = JSON.parse(r.stdout);
    expect(a).toEqual({
      id: active?.id,
      mailboxes: { errors: expect.any(Number) },
      problems: expect.any(Array),
    });
    expect(b).toEqual({
      id: inactive?.id,
      mailboxes: { error: { status: 409, message: expect.stringContaining('inactive') } },
      problems: ['inactive'],
    });
  });

  it('--json --columns on health keeps only those fields of each problem', async () => {
    const r = await h.run(['health', '--limit', '5', '--json', '--columns', 'company_id,check']);
    expect([0, 7]).toContain(r.code);
    const report = JSON.parse(r.stdout) as { companies_checked: number; problems: object[] };
    expect(report.companies_checked).toBe(5);
    expect(report.problems.length).toBeGreaterThan(0);
    for (const problem of report.problems) expect(Object.keys(problem)).toEqual(['company_id', 'check']);
  });

  it('--json with an unknown --columns name: exit 2, nothing sent', async () => {
    h.sandbox.reset();
    const r = await h.run(['companies', 'list', '--json', '--columns', 'id,nmae']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(sent(h.sandbox)).toEqual([]);
  });

  it('--csv: RFC 4180 with a header row, quotes where needed, CRLF', async () => {
    const r = await h.run(['companies', 'list', '--csv']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const rows = r.stdout.split('\r\n');
    expect(rows[0]).toBe('id,name,owner,active,running_campaigns,email_slots,linkedin_slots');
    expect(rows.at(-1)).toBe('');
    expect(rows).toHaveLength(companies().length + 2);
    const comma = companies().find((c) => c.name === COMMA_NAME);
    expect(r.stdout).toContain(`\r\n${comma?.id},"Smith, Jones & ""Partners""",`);
  });

  it('--csv with --columns, and --csv on a terminal-less single page', async () => {
    const r = await h.run(['companies', 'list', '--csv', '--columns', 'id,active', '--limit', '2']);
    expect(r.stdout).toBe(
      `id,active\r\n${companies()
        .slice(0, 2)
        .map((c) => `${c.id},${c.active}\r\n`)
        .join('')}`,
    );
  });

  it('--csv and --json together are a usage error', async () => {
    h.sandbox.reset();
    const r = await h.run(['companies', 'list', '--csv', '--json']);
    expect(r.code).toBe(2);
    expect(sent(h.sandbox)).toEqual([]);
  });

  it('-q keeps errors', async () => {
    const r = await h.run(['-q', 'companies', 'list', '--limit', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: Invalid --limit/);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
