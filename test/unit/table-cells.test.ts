/**
 * What a table cell reads as on a terminal: counts with their thousands grouped, ids as they are; a
 * wrapped cell never leaves a short last word alone on its line.
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { fixedTable, renderTable, type TableColumn } from '../../src/output/table.js';
import { wrapToWidth } from '../../src/output/text.js';

const plain = new Chalk({ level: 0 });

type Row = { id: number; campaign: number; sent: number; change: number; label: string; rate: number };
const columns: TableColumn<Row>[] = [
  { header: 'id', value: (r) => r.id },
  { header: 'campaign id', value: (r) => r.campaign, kind: 'count' },
  { header: 'sent', value: (r) => r.sent, kind: 'count' },
  { header: 'change', value: (r) => r.change, kind: 'count' },
  { header: 'label', value: (r) => r.label, kind: 'count' },
  { header: 'rate', value: (r) => r.rate, kind: 'count' },
];
const row: Row = {
  id: 1234567,
  campaign: 100401,
  sent: 1234567,
  change: -4096,
  label: '12345',
  rate: 0.1234,
};

describe('table cells', () => {
  it('groups the thousands of a whole number in a count column, never an id, a text or a fraction', () => {
    const [, line] = renderTable([row], columns, { width: 200, chalk: plain }).text.split('\n');
    expect(line?.split(/ {2,}/)).toEqual(['1234567', '100401', '1,234,567', '-4,096', '12345', '0.1234']);
    // A table printed a row at a time reads the same.
    expect(fixedTable([row], columns, { width: 200, chalk: plain }).row(row).split(/ {2,}/)).toEqual(
      line?.split(/ {2,}/),
    );
  });

  it('a short last word is not left alone: the word before goes down with it, or a hyphen breaks', () => {
    expect(wrapToWidth('Q4 outreach 2', 11)).toEqual(['Q4', 'outreach 2']);
    expect(wrapToWidth('Follow-up: trade show 5', 21)).toEqual(['Follow-up: trade', 'show 5']);
    expect(wrapToWidth('Cedar Ridge Clinic LLC', 18)).toEqual(['Cedar Ridge', 'Clinic LLC']);
    // A hyphenated word too long to come down whole breaks after its hyphen.
    expect(wrapToWidth('Re-engagement 4', 14)).toEqual(['Re-', 'engagement 4']);
    // A longer last word, or nothing that fits beside it, stays as it was.
    expect(wrapToWidth('Blue Harbor Dental', 12)).toEqual(['Blue Harbor', 'Dental']);
    expect(wrapToWidth('Acme Ltd', 4)).toEqual(['Acme', 'Ltd']);
    expect(wrapToWidth('Outfitters 7', 10)).toEqual(['Outfitters', '7']);
    // A list or an address broken inside is not a word alone after a space.
    expect(wrapToWidth('hello@acme.io', 11)).toEqual(['hello@acme.', 'io']);
  });
});
