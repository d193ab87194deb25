/** Questions on a terminal: a hidden key prompt and a yes/no. Both write to stderr, never stdout. */

import { InterruptedError, UsageError } from '../errors.js';
import type { Terminal } from '../output/terminal.js';

interface RawStdin extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?: (mode: boolean) => unknown;
}

/**
 * Reads one line without echoing it (raw mode: the terminal shows nothing as it is typed or pasted).
 * Enter or Ctrl-D ends it, Ctrl-C interrupts, backspace and Ctrl-U edit; escape sequences (arrow keys,
 * the markers of a bracketed paste) are dropped rather than becoming part of the key.
 */
export function readHidden(terminal: Terminal, question: string): Promise<string> {
  const stdin = terminal.stdin as unknown as RawStdin;
  if (typeof stdin.setRawMode !== 'function')
    throw new UsageError('Cannot read a hidden key: stdin is not a terminal.');
  // Echo off before the question shows: a key typed or pasted as soon as the prompt appears is never
  // echoed by the terminal, however soon it comes.
  stdin.setRawMode(true);
  terminal.stderr.write(question);
  return new Promise((resolve, reject) => {
    let value = '';
    // 0: text; 1: just after ESC; 2: inside a CSI/SS3 sequence, until its final byte.
    let state: 0 | 1 | 2 = 0;
    const finish = (error?: Error) => {
      stdin.setRawMode?.(false);
      stdin.removeListener('data', onData);
      stdin.pause();
      terminal.stderr.write('\n');
      if (error) reject(error);
      else resolve(value.trim());
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of chunk.toString('utf8')) {
        if (state === 1) state = char === '[' || char === 'O' ? 2 : 0;
        else if (state === 2) state = char >= '@' && char <= '~' ? 0 : 2;
        else if (char === '\u001b') state = 1;
        else if (char === '\r' || char === '\n' || char === '\u0004') return finish();
        else if (char === '\u0003') return finish(new InterruptedError());
        else if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else if (char === '\u0015') value = '';
        else if (char >= ' ') value += char;
      }
    };
    stdin.resume();
    stdin.on('data', onData);
  });
}

/**
 * A yes/no question; Enter (or Ctrl-D) takes the default. Ctrl-C, or a stop signal while it waits, is an
 * interruption like Ctrl-C anywhere else (exit 130), never an internal error: readline reports both as an
 * AbortError, which is translated here.
 */
export async function confirm(
  terminal: Pick<Terminal, 'stdin' | 'stderr'>,
  question: string,
  defaultYes: boolean,
  signal?: AbortSignal,
): Promise<boolean> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: terminal.stdin, output: terminal.stderr, terminal: true });
  try {
    const prompt = `${question} ${defaultYes ? '[Y/n]' : '[y/N]'} `;
    const answer = (await rl.question(prompt, signal ? { signal } : {})).trim().toLowerCase();
    if (answer === '') return defaultYes;
    return answer === 'y' || answer === 'yes';
  } catch (error) {
    if (!isAbort(error)) throw error;
    // The answer's line was not ended by Enter: end it, so the next message starts on its own line.
    terminal.stderr.write('\n');
    // Ctrl-D (end of input) is the empty answer, as in the hidden prompt above.
    if (!signal?.aborted && (error as Error).message.includes('Ctrl+D')) return defaultYes;
    throw new InterruptedError();
  } finally {
    rl.close();
  }
}

function isAbort(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'AbortError' || (error as { code?: unknown }).code === 'ABORT_ERR')
  );
}
