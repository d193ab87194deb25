/**
 * Streams that say they are (or are not) a terminal, of a given width, and keep what is written: the
 * output side of a run, checked exactly, without tmux. With the HTTP registry (http-mock.ts) a command
 * runs in-process from argv to exit code: runCommand().
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { main } from '../../src/cli.js';
import type { HttpMock } from './http-mock.js';

export interface TerminalOptions {
  /** stdout and stderr are terminals (a table, colour if allowed, progress, counts). */
  tty?: boolean;
  /** Only stderr is a terminal (`agency ... | cut -f1` at a prompt). */
  stderrTTY?: boolean;
  columns?: number;
  /** Written to stdin, then stdin is closed. */
  input?: string;
  /** stdin says it is a terminal (what is typed there: `--file -` at a prompt). */
  stdinTTY?: boolean;
  /** Also given what stdout and stderr are written, in the order it is written (one screen). */
  onWrite?: (text: string) => void;
}

export function fakeTerminal(options: TerminalOptions = {}) {
  const stdout = capture(options.tty === true, options.columns, options.onWrite);
  const stderr = capture(options.stderrTTY ?? options.tty === true, options.columns, options.onWrite);
  const stdin = Object.assign(new PassThrough(), { isTTY: options.stdinTTY === true });
  stdin.end(options.input ?? '');
  return {
    streams: { stdin, stdout: stdout.stream, stderr: stderr.stream },
    stdout: stdout.text,
    stderr: stderr.text,
  };
}

/**
 * A stream that says whether it is a terminal (and how wide), and keeps what is written to it (and hands
 * it to `onWrite` as it comes).
 */
export function capture(isTTY: boolean, columns: number | undefined, onWrite?: (text: string) => void) {
  const chunks: Buffer[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        onWrite?.(chunk.toString('utf8'));
        done();
      },
    }),
    { isTTY, columns },
  );
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
  /** config.json as the run left it. */
  config: { current: string; profiles: Record<string, { api_key?: string; base_url?: string }> };
}

/**
 * `agency <argv>` in this process against the registry's declared answers, with a profile holding `key`
 * (and no other settings of the user's), on the given fake terminal.
 */
export async function runCommand(
  argv: string[],
  http: HttpMock,
  options: TerminalOptions & { env?: Record<string, string>; key?: string } = {},
): Promise<CommandResult> {
  const dir = mkdtempSync(join(tmpdir(), 'agency-handler-'));
  try {
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        current: 'test',
        profiles: { test: { api_key: options.key ?? 'wpk_test_0123456789' } },
      }),
      // As the tool writes it: a file holding a key that others can read is tightened, with a notice.
      { mode: 0o600 },
    );
    const terminal = fakeTerminal(options);
    const code = await main(
      argv,
      { ...terminal.streams, env: { AGENCY_CONFIG_DIR: dir, AGENCY_NO_HISTORY: '1', ...options.env } },
      http.transport,
    );
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    return { code, stdout: terminal.stdout(), stderr: terminal.stderr(), config };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
