/**
 * Terminals of given widths whose shell finds `agency` on its PATH, as an installed tool, with the
 * harness's config directory: what the issue-14 tests type into at 60 and 100 columns. Real ones (tmux)
 * run the built binary; the widths named `inProcess` are virtual terminals (virtual-terminal.ts) that run
 * the program in this process and show the same screen, for the reads of a table at its other widths.
 * Without tmux it starts no real one (the tests skip with TMUX_MISSING).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from './cli.js';
import { readOnce } from './read-once.js';
import { Terminal, TMUX_MISSING } from './tmux.js';
import { runInVirtualTerminal } from './virtual-terminal.js';

export interface AgencyTerminals {
  /** The real terminal of a width. */
  at(width: number): Terminal;
  /** A command line run in the terminal of a width, real or virtual: what it showed, and the exit code. */
  run(width: number, commandLine: string): Promise<{ output: string; exit: number }>;
  /** The same in a virtual terminal of that width, whichever the width's terminal is. */
  runInProcess(width: number, commandLine: string): Promise<{ output: string; exit: number }>;
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
  inProcess: readonly number[] = [],
): Promise<AgencyTerminals> {
  const tmp = mkdtempSync(join(tmpdir(), 'agency-terminal-'));
  mkdirSync(join(tmp, 'bin'));
  writeFileSync(join(tmp, 'bin', 'agency'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, {
    mode: 0o755,
  });
  const env = {
    PATH: `${join(tmp, 'bin')}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: tmp,
    TERM: 'screen',
    LANG: 'C.UTF-8',
    AGENCY_CONFIG_DIR: configDir,
    AGENCY_NO_HISTORY: '1',
  };
  const terminals = new Map<number, Terminal>();
  if (!TMUX_MISSING) {
    for (const width of widths) terminals.set(width, await Terminal.start({ width, height, env }));
  }
  const at = (width: number) => {
    const terminal = terminals.get(width);
    if (!terminal) throw new Error(`no terminal of width ${width} (${TMUX_MISSING ?? 'not started'})`);
    return terminal;
  };
  const runInProcess = (width: number, commandLine: string) =>
    runInVirtualTerminal(commandLine, { width, env });
  const run = (width: number, commandLine: string) =>
    inProcess.includes(width) ? runInProcess(width, commandLine) : at(width).run(commandLine);
  const screens = readOnce();
  return {
    tmp,
    at,
    run,
    runInProcess,
    runOnce: (width, commandLine) => screens(`${width} ${commandLine}`, () => run(width, commandLine)),
    close: async () => {
      // Each shell saves its history into HOME as it exits: the directory goes after them.
      await Promise.all([...terminals.values()].map((terminal) => terminal.close()));
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
