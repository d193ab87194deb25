/**
 * Real terminals of given widths (tmux) whose shell finds `agency` on its PATH, as an installed tool,
 * with the harness's config directory: what the issue-14 tests type into at 60 and 100 columns.
 * Without tmux it starts none (the tests skip with TMUX_MISSING).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from './cli.js';
import { readOnce } from './read-once.js';
import { Terminal, TMUX_MISSING } from './tmux.js';

export interface AgencyTerminals {
  /** The terminal of each width asked for. */
  at(width: number): Terminal;
  /**
   * `run` of a command line in the terminal of a width, once: a second call with the same width and line
   * returns the first run's screen (for tests that read one screen, of a command whose output nothing in
   * between changes).
   */
  runOnce(width: number, commandLine: string): Promise<{ output: string; exit: number }>;
  /** A directory of the run's own (the shells' HOME), for files a test writes. */
  readonly tmp: string;
  close(): Promise<void>;
}

export async function startAgencyTerminals(
  configDir: string,
  widths: readonly number[],
  height = 50,
): Promise<AgencyTerminals> {
  const tmp = mkdtempSync(join(tmpdir(), 'agency-terminal-'));
  mkdirSync(join(tmp, 'bin'));
  writeFileSync(join(tmp, 'bin', 'agency'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, {
    mode: 0o755,
  });
  const terminals = new Map<number, Terminal>();
  if (!TMUX_MISSING) {
    for (const width of widths) {
      terminals.set(
        width,
        await Terminal.start({
          width,
          height,
          env: {
            PATH: `${join(tmp, 'bin')}:${process.env.PATH ?? '/usr/bin:/bin'}`,
            HOME: tmp,
            TERM: 'screen',
            LANG: 'C.UTF-8',
            AGENCY_CONFIG_DIR: configDir,
          },
        }),
      );
    }
  }
  const at = (width: number) => {
    const terminal = terminals.get(width);
    if (!terminal) throw new Error(`no terminal of width ${width} (${TMUX_MISSING ?? 'not started'})`);
    return terminal;
  };
  const screens = readOnce();
  return {
    tmp,
    at,
    runOnce: (width, commandLine) => screens(`${width} ${commandLine}`, () => at(width).run(commandLine)),
    close: async () => {
      // Each shell saves its history into HOME as it exits: the directory goes after them.
      await Promise.all([...terminals.values()].map((terminal) => terminal.close()));
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
