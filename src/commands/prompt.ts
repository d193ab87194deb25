/** Questions on a terminal: a hidden key prompt and a yes/no. Both write to stderr, never stdout. */
import type { Context } from '../context.js';
import { InterruptedError, UsageError } from '../errors.js';

interface RawStdin extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?: (mode: boolean) => unknown;
}

/** Reads one line without echoing it. Ctrl-C interrupts; backspace works. */
export function readHidden(ctx: Context, question: string): Promise<string> {
  const stdin = ctx.io.stdin as unknown as RawStdin;
  if (typeof stdin.setRawMode !== 'function') throw new UsageError('Cannot read a hidden key: stdin is not a terminal.');
  ctx.io.stderr.write(question);
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (error?: Error) => {
      stdin.setRawMode?.(false);
      stdin.removeListener('data', onData);
      stdin.pause();
      ctx.io.stderr.write('\n');
      if (error) reject(error);
      else resolve(value.trim());
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return finish();
        if (char === '\u0003') return finish(new InterruptedError());
        if (char === '\u0004') return finish();
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else if (char >= ' ') value += char;
      }
    };
    stdin.setRawMode?.(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

export async function confirm(ctx: Context, question: string, defaultYes: boolean): Promise<boolean> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: ctx.io.stdin, output: ctx.io.stderr, terminal: true });
  try {
    const answer = (await rl.question(`${question} ${defaultYes ? '[Y/n]' : '[y/N]'} `)).trim().toLowerCase();
    if (answer === '') return defaultYes;
    return answer === 'y' || answer === 'yes';
  } finally {
    rl.close();
  }
}
