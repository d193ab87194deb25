/** Help text at 60 and 100 columns: nothing wider than the screen, no word broken, examples intact. */
import { Command } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { formatItem, helpWidth, wrapText, wrapWords } from '../../src/output/help-wrap.js';

const AFTER = `
Prints the created companies (id, name, owner, active). Names are checked
before anything is sent: none empty, none twice. With more than 10 names, all
existing companies are checked first so that a name clash cannot leave a
half-done run; if a chunk still fails, the output says exactly what was
created.

Examples:
  $ agency companies create --name "Acme Ltd" --name "Blue Harbor Dental" --json
  $ agency companies create --file clients.txt --skip-existing

Environment:
  AGENCY_API_KEY     API key; overrides the profile's key (there is no key flag: argv is visible to other users)
  AGENCY_CONFIG_DIR  directory of the config file (now /home/olivia/.config/agency/config.json)`;

/** Every word of the text, in order: wrapping may only move line breaks and spaces. */
function words(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

function widest(text: string): number {
  return Math.max(...text.split('\n').map((l) => [...l].length));
}

describe.each([60, 100])('wrapText at %i columns', (width) => {
  const wrapped = wrapText(AFTER, width);

  it('keeps every word, whole and in order (plus the " \\" of a continued command)', () => {
    expect(words(wrapped).filter((w) => w !== '\\')).toEqual(words(AFTER));
  });

  it('fits the width, except a single word wider than what is left', () => {
    for (const line of wrapped.split('\n')) {
      if (!/\S\s+\S/.test(line.trim())) continue;
      expect(line.length, line).toBeLessThanOrEqual(width);
    }
  });

  it('continues a long example command with " \\" between shell words, never inside quotes', () => {
    const command = '$ agency companies create --name "Acme Ltd" --name "Blue Harbor Dental" --json';
    const lines = wrapped.split('\n');
    const at = lines.findIndex((l) => l.startsWith('  $ agency companies create --name'));
    const block: string[] = [];
    for (let i = at; ; i++) {
      block.push(lines[i] ?? '');
      if (!lines[i]?.endsWith(' \\')) break;
    }
    if (width >= command.length + 2) expect(block).toEqual([`  ${command}`]);
    else expect(block.length).toBeGreaterThan(1);
    for (const line of block) expect(line.length).toBeLessThanOrEqual(width);
    expect(block.map((l) => l.replace(/ \\$/, '').trim()).join(' ')).toBe(command);
    for (const line of block) expect((line.match(/"/g) ?? []).length % 2).toBe(0);
  });

  it("hangs a list item's description under itself", () => {
    const lines = wrapped.split('\n');
    const at = lines.findIndex((l) => l.startsWith('  AGENCY_API_KEY'));
    expect(lines[at]).toMatch(/^ {2}AGENCY_API_KEY {5}API key;/);
    expect(lines[at + 1]).toMatch(/^ {21}\S/);
  });
});

describe('wrapping primitives', () => {
  it('reflows a paragraph written for 80 columns to fill 100', () => {
    const wrapped = wrapText(AFTER, 100).split('\n');
    expect(wrapped[1]).toBe(
      'Prints the created companies (id, name, owner, active). Names are checked before anything is sent:',
    );
  });

  it('keeps a word wider than the line whole', () => {
    expect(wrapWords('see https://example.com/a/very/long/path/that/does/not/fit ok', 20)).toEqual([
      'see',
      'https://example.com/a/very/long/path/that/does/not/fit',
      'ok',
    ]);
  });

  it('puts a description under its term when too little space is left beside it', () => {
    expect(
      formatItem('companies email-accounts', 24, "list a company's email accounts (with the HQ key)", 40),
    ).toBe("  companies email-accounts\n      list a company's email accounts\n      (with the HQ key)");
  });

  it('wraps at the terminal width when stdout is a terminal, else at 80', () => {
    expect(helpWidth({ isTTY: true, columns: 60 })).toBe(60);
    expect(helpWidth({ isTTY: true, columns: 0 })).toBe(80);
    expect(helpWidth({ isTTY: false, columns: 60 })).toBe(80);
  });

  it("plugged into commander's Help, option descriptions wrap at 60 columns without cutting words", () => {
    let text = '';
    const program = new Command('agency')
      .configureOutput({
        writeOut: (s) => {
          text += s;
        },
        getOutHelpWidth: () => 60,
      })
      .configureHelp({
        formatItem: (term, termWidth, description, helper) =>
          formatItem(term, termWidth, description, helper.helpWidth ?? 80),
      })
      .option(
        '--debug',
        'log each HTTP request and response to stderr, secrets redacted (env AGENCY_DEBUG=1)',
      )
      .option('--timeout <seconds>', 'deadline per HTTP request, default 30 (env AGENCY_TIMEOUT)');
    program.outputHelp();
    expect(widest(text)).toBeLessThanOrEqual(60);
    expect(text).toContain('  --debug              log each HTTP request and response to\n');
    expect(words(text)).toContain('AGENCY_DEBUG=1)');
  });
});
