/**
 * The virtual terminal (test/helpers/virtual-terminal.ts), which the table tests use for the widths they
 * do not read in tmux, shows what a real terminal shows: the same command lines, run by the built binary
 * in tmux and by the program in this process, give the same screen and exit code — tables that wrap and
 * hide columns (with the note on stderr between them), a streamed table whose progress line is drawn and
 * erased, wide characters, help laid out to the width, and an error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { type AgencyTerminals, startAgencyTerminals } from '../helpers/agency-terminals.js';
import { type Harness, startHarness } from '../helpers/cli.js';
import { direct, inactiveCompany } from '../helpers/core.js';
import { TMUX_MISSING } from '../helpers/tmux.js';
import { Screen, shellWords } from '../helpers/virtual-terminal.js';

const WIDTH = 60;
let h: Harness;
let terminals: AgencyTerminals;
let broken: number;

beforeAll(async () => {
  // 30 companies: more than the 20 a terminal table is laid out for before it streams its rows.
  h = await startHarness({ seed: { companies: 30 } }, { inProcess: true });
  const active = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true });
  // Wide characters take two columns: a name of them, one that starts beside the edge.
  (active[1] as { name: string }).name = '東京デンタルクリニック株式会社 Tokyo Dental Clinic Holdings';
  for (const company of active) {
    const answer = await direct(h.sandbox, '/v2/mailboxes', { company: company.id });
    const mailboxes = answer.body as { details: { error?: string | null } }[];
    if (mailboxes.some((m) => (m.details.error ?? '').length > 40)) {
      broken = company.id;
      break;
    }
  }
  expect(broken).toBeDefined();
  terminals = await startAgencyTerminals(h.configDir, [WIDTH]);
});
afterAll(async () => {
  await terminals?.close();
  await h?.close();
});

describe.skipIf(Boolean(TMUX_MISSING))(
  TMUX_MISSING ? `the virtual terminal (skipped: ${TMUX_MISSING})` : 'the virtual terminal',
  () => {
    const commandLines = () => [
      'agency companies list --columns all --limit 6',
      `agency mailboxes --company ${broken}`,
      'agency inventory --limit 25',
      `agency inventory --company ${broken} --company ${inactiveCompany(h.sandbox).id}`,
      'agency companies list --search "tokyo dental"',
      'agency keys create --help',
      'agency companies view 99999',
    ];

    it(`shows what tmux shows at ${WIDTH} columns`, async () => {
      for (const line of commandLines()) {
        const real = await terminals.run(WIDTH, line);
        expect(real.output, line).not.toBe('');
        expect(await terminals.runInProcess(WIDTH, line), line).toEqual(real);
      }
    });
  },
);

describe('a screen', () => {
  const shown = (width: number, ...writes: string[]) => {
    const screen = new Screen(width);
    for (const text of writes) screen.write(text);
    return screen.text();
  };

  it('wraps at the edge, and a line that fills it takes one line', () => {
    expect(shown(5, 'abcde\nabcdefg\n')).toBe('abcde\nabcde\nfg');
  });

  it('redraws a line after \\r and erase-line, and shows no colour codes', () => {
    expect(shown(20, 'working 3/9', '\r\u001b[2K', '\u001b[1mID\u001b[22m  NAME\n')).toBe('ID  NAME');
    // An escape sequence split between two writes.
    expect(shown(20, 'a\u001b[3', '1mb\u001b[39m\n')).toBe('ab');
  });

  it('puts a wide character that does not fit on the next line, and keeps no trailing blanks', () => {
    expect(shown(5, 'abcd東\n', 'x   \n')).toBe('abcd\n東\nx');
  });

  it('stops tabs every 8 columns', () => {
    expect(shown(20, 'a\tb\n')).toBe('a       b');
  });
});

describe('command lines run without a shell', () => {
  it('split into words as a shell splits them', () => {
    expect(shellWords(`agency companies view "Blue Harbor Dental" --x 'a b' c\\ d`)).toEqual([
      'agency',
      'companies',
      'view',
      'Blue Harbor Dental',
      '--x',
      'a b',
      'c d',
    ]);
  });

  it.each(['agency me | cut -f1', 'agency me > out', 'agency keys create $ID', 'agency me; echo'])(
    'refuse what needs a shell: %s',
    (line) => {
      expect(() => shellWords(line)).toThrow(/needs a shell/);
    },
  );
});
