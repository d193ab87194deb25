/**
 * A table printed a row at a time (inventory of more than 20 companies on a terminal) is laid out from
 * typical rows before the real ones are in: a real cell longer than its column wraps, between words, and
 * never breaks one (`erro` / `r`). A part that could not be read shows `error <status>` in its count column
 * (KEYS is 4 wide in a typical row). Read at 60, 80 and 120 columns in a virtual terminal, which shows
 * what tmux shows (test/e2e/virtual-terminal.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgencyTerminals, startAgencyTerminals } from '../helpers/agency-terminals.js';
import { type Harness, startHarness } from '../helpers/cli.js';
import { readTable } from '../helpers/table-text.js';

/** More than 20 companies: the terminal table is printed a row at a time (inventory --help). */
const STREAMED = 21;
const WIDTHS = [60, 80, 120];
let h: Harness;
let terminals: AgencyTerminals;

interface Report {
  id: number;
  name: string;
  problems: string[];
}

beforeAll(async () => {
  h = await startHarness({ seed: { companies: STREAMED } }, { inProcess: true });
  terminals = await startAgencyTerminals(h.configDir, [], 60, WIDTHS);
});
afterAll(async () => {
  await terminals?.close();
  await h?.close();
});

describe('a streamed table wraps a longer cell between its words', () => {
  it.each(WIDTHS)('inventory at %i columns with every key list unreadable: no word broken', async (width) => {
    h.sandbox.addFault({
      kind: 'status',
      status: 501,
      method: 'GET',
      path: '/v2/agency/companies/*/api_keys',
      times: 0,
    });
    try {
      const reports = JSON.parse((await h.run(['inventory', '--json'])).stdout) as Report[];
      expect(reports).toHaveLength(STREAMED);
      const { output, exit } = await terminals.run(width, 'agency inventory');
      // Parts that could not be read: the run says so and exits 1, its rows all printed.
      expect(exit, output).toBe(1);
      const table = readTable(output, ['ID', 'NAME']);
      expect(table.rows).toHaveLength(STREAMED);
      // Every word on the screen is a whole word of a value (or a header, or the status).
      const words = new Set(
        [...reports.flatMap((r) => [String(r.id), r.name, ...r.problems]), 'error 501', 'true false inactive']
          .join(' ')
          .split(/[\s,]+/),
      );
      for (const [i, row] of table.rows.entries()) {
        const report = reports[i] as Report;
        expect(row.NAME?.join(' '), output).toBe(report.name);
        expect(row.PROBLEMS?.join(' '), output).toBe(report.problems.join(', '));
        if (row.KEYS) expect(row.KEYS.join(' '), output).toBe('error 501');
        for (const [header, cell] of Object.entries(row)) {
          if (['MAILBOX TYPES', 'WEBHOOKS', 'CAMPAIGNS'].includes(header)) continue; // lists, broken after commas
          for (const word of cell
            .join(' ')
            .split(/[\s,]+/)
            .filter(Boolean)) {
            expect(words.has(word) || /^\d+$/.test(word), `${header}: ${word}\n${output}`).toBe(true);
          }
        }
      }
      for (const line of table.lines) expect(line.length).toBeLessThanOrEqual(width);
      if (width >= 80) expect(Object.keys(table.rows[0] ?? {})).toContain('KEYS');
    } finally {
      h.sandbox.reset();
    }
  });
});
