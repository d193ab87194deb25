import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/errors.js';
import { readHidden } from '../../src/input/prompt.js';
import type { Terminal } from '../../src/output/terminal.js';

/** A terminal whose stdin records raw-mode changes and whose stderr records writes, in one ordered log. */
function recordingTerminal() {
  const log: string[] = [];
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode(mode: boolean) {
      log.push(mode ? 'raw on' : 'raw off');
    },
  });
  const stderr = new Writable({
    write(chunk: Buffer, _encoding, done) {
      log.push(`write ${JSON.stringify(chunk.toString('utf8'))}`);
      done();
    },
  });
  const terminal = {
    stdin,
    stdinIsTTY: true,
    stdoutIsTTY: true,
    stderrIsTTY: true,
    stderr,
  } as unknown as Terminal;
  return { terminal, stdin, log };
}

describe('readHidden', () => {
  it('turns echo off before the question shows, and echoes nothing that is typed', async () => {
    const { terminal, stdin, log } = recordingTerminal();
    const answer = readHidden(terminal, 'API key: ');
    stdin.write('wpk_secx\u007fret\r');
    await expect(answer).resolves.toBe('wpk_secret');
    expect(log).toEqual(['raw on', 'write "API key: "', 'raw off', 'write "\\n"']);
  });

  it('Ctrl-C interrupts and leaves the terminal as it was', async () => {
    const { terminal, stdin, log } = recordingTerminal();
    const answer = readHidden(terminal, 'API key: ');
    stdin.write('wpk\u0003');
    await expect(answer).rejects.toBeInstanceOf(InterruptedError);
    expect(log.at(-2)).toBe('raw off');
  });
});
