/**
 * A streamed terminal table (inventory of more than 20 companies, laid out before its rows are in)
 * and a table fitted to its real rows show the same columns for the same names, at 80, 100 and 200
 * columns (second new-user pass, findings 4 and 5). Read back in real terminals (tmux) at 80 and 200
 * columns, and at 100 in a virtual terminal that shows the same screen (test/e2e/virtual-terminal.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { type AgencyTerminals, startAgencyTerminals } from '../helpers/agency-terminals.js';
import { type Harness, startHarness } from '../helpers/cli.js';
import { lines } from '../helpers/core.js';
import { readTable, wholeText } from '../helpers/table-text.js';
import { TMUX_MISSING } from '../helpers/tmux.js';

/** More than 20 companies: the terminal table is printed a row at a time (inventory --help). */
const STREAMED = 21;
/**
 * The longest name among the default 120 companies (35 characters, company 1063): the whole-agency
 * checks below need their longest name, not 120 rows; a streamed table is laid out from the names alone.
 */
const LONGEST_NAME = 'Maple Leaf Coffee Roasters Partners';
let h: Harness;
let terminals: AgencyTerminals;

interface Report {
  id: number;
  name: string;
  problems: string[];
}

beforeAll(async () => {
  // STREAMED companies plus one of the longest name: the whole agency is streamed (more than 20) and laid
  // out as wide as the default 120 (from the names alone), at 5 requests a company, not 120 x 5.
  h = await startHarness({ seed: { companies: STREAMED } }, { inProcess: true });
  const created = await h.run(['companies', 'create', '--name', LONGEST_NAME]);
  expect(created.code, created.stderr).toBe(0);
  // 100 columns in a virtual terminal (test/helpers/virtual-terminal.ts): it shows what tmux shows.
  terminals = await startAgencyTerminals(h.configDir, [80, 200], 50, [100]);
});

/** The first STREAMED companies' reports (--json), read once for both widths: nothing changes them between. */
let reportsRead: Promise<Report[]> | undefined;
function streamedReports(): Promise<Report[]> {
  reportsRead ??= h
    .run(['inventory', '--limit', String(STREAMED), '--json'])
    .then((json) => JSON.parse(json.stdout) as Report[]);
  return reportsRead;
}
afterAll(async () => {
  await terminals?.close();
  await h?.close();
});

/** The column headers of a table's header line. */
function headers(output: string): string[] {
  return (lines(output)[0] ?? '').trim().split(/ {2,}/);
}

describe.skipIf(Boolean(TMUX_MISSING))(
  TMUX_MISSING ? `streamed tables (skipped: ${TMUX_MISSING})` : 'streamed tables in a terminal',
  () => {
    it.each([80, 100])(
      'inventory at %i columns: the same columns streamed or not, given the same names (finding 4)',
      async (width) => {
        const reports = await streamedReports();
        const longest = reports.reduce((a, b) => (b.name.length > a.name.length ? b : a));
        // Four of the same companies, the longest name among them, each with one kind of problem at most
        // (a column empty in every row would be hidden first: the three others have one).
        const short = (r: Report) => r.problems.join(', ').length <= '2 campaign errors'.length;
        expect(short(longest)).toBe(true);
        const others = reports.filter((r) => r !== longest && r.problems.length > 0 && short(r));
        const few = [longest, ...others.slice(0, 3)];
        const fitted = await terminals.run(
          width,
          `agency inventory ${few.map((r) => `--company ${r.id}`).join(' ')}`,
        );
        const streamed = await terminals.run(width, `agency inventory --limit ${STREAMED}`);
        // Named, an inactive company is a failure (exit 5); its row is printed all the same.
        expect([0, 5]).toContain(fitted.exit);
        expect(streamed.exit).toBe(0);
        expect(headers(streamed.output), streamed.output).toEqual(headers(fitted.output));
        expect(headers(streamed.output)).toEqual(expect.arrayContaining(['ID', 'NAME', 'ACTIVE', 'KEYS']));
      },
    );

    it('inventory of the whole agency at 80 columns keeps ACTIVE and KEYS beside the longest name', async () => {
      const longest = Math.max(...h.sandbox.store.companies(MAIN_AGENCY_ID).map((c) => c.name.length));
      expect(longest).toBeGreaterThan(30);
      expect(h.sandbox.store.companies(MAIN_AGENCY_ID).length).toBeGreaterThan(20);
      const { output, exit } = await terminals.at(80).run('agency inventory');
      expect(exit).toBe(0);
      expect(headers(output)).toEqual(['ID', 'NAME', 'ACTIVE', 'KEYS', 'PROBLEMS']);
      for (const line of lines(output)) expect(line.length).toBeLessThanOrEqual(80);
    });

    it.each([100])(
      'inventory of the whole agency at %i columns: no error count hidden while a description is shown',
      async (width) => {
        const { output, exit } = await terminals.run(width, 'agency inventory');
        expect(exit).toBe(0);
        const shown = headers(output);
        const descriptions = ['MAILBOX TYPES', 'WEBHOOKS', 'CAMPAIGNS'].filter((d) => shown.includes(d));
        for (const error of ['MAILBOX ERRORS', 'CAMPAIGN ERRORS']) {
          if (!shown.includes(error)) expect(descriptions, output).toEqual([]);
        }
        expect(shown).toEqual(expect.arrayContaining(['ID', 'NAME', 'PROBLEMS']));
      },
    );

    it('inventory at 200 columns: a long webhook list wraps, no error column is hidden for it (finding 5)', async () => {
      const first = h.sandbox.store.companies(MAIN_AGENCY_ID)[0];
      for (const event of ['prospect_bounced', 'prospect_opt_out', 'email_opened']) {
        const r = await h.run([
          'webhooks',
          'subscribe',
          '--event',
          event,
          '--url',
          'https://hooks.example.com/crm',
          '--company',
          String(first?.id),
        ]);
        expect(r.code, r.stderr).toBe(0);
      }
      const json = await h.run(['inventory', '--company', String(first?.id), '--json']);
      const events =
        (JSON.parse(json.stdout) as { webhooks: { events: string[] } }[])[0]?.webhooks.events ?? [];
      expect(events.join(',').length).toBeGreaterThan(70);
      const fitted = await terminals.at(200).run('agency inventory --limit 4');
      const streamed = await terminals.at(200).run(`agency inventory --limit ${STREAMED}`);
      for (const { output, exit } of [fitted, streamed]) {
        expect(exit).toBe(0);
        expect(headers(output), output).toEqual(
          expect.arrayContaining(['WEBHOOKS', 'MAILBOX ERRORS', 'CAMPAIGN ERRORS', 'PROBLEMS']),
        );
        const table = readTable(output, ['ID', 'WEBHOOKS']);
        const cell = table.rows[0]?.WEBHOOKS;
        // Whole, on more than one line, broken between events.
        expect(wholeText(cell, events.join(',')), output).toBe(true);
        expect(cell?.length, output).toBeGreaterThan(1);
        for (const line of cell ?? []) expect(line).toMatch(/^[A-Z_]+(,[A-Z_]+)*,?$/);
        for (const line of lines(output)) expect(line.length).toBeLessThanOrEqual(200);
      }
      // The two layouts agree.
      expect(headers(streamed.output)).toEqual(headers(fitted.output));
    });
  },
);
