/** Reading a file argument, where '-' means standard input. */
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { InterruptedError, UsageError } from '../errors.js';

/** Where '-' reads from: stdin is a getter, created only when it is read. */
export interface StdinSource {
  readonly stdin: Readable;
  /** At a terminal, the person is told what is read and how to end it (else the tool seems to hang). */
  readonly stdinIsTTY?: boolean;
  readonly tell?: (message: string) => void;
}

/**
 * A file, or with '-' standard input. `what` names what is read, for the line shown when standard
 * input is a terminal: "company names, one per line".
 */
export async function readInput(
  path: string,
  source: StdinSource,
  signal: AbortSignal,
  what = 'the input',
): Promise<{ text: string; source: string }> {
  if (path === '-') {
    if (source.stdinIsTTY)
      source.tell?.(`Reading ${what} from the terminal; press Ctrl-D on a new line to finish.`);
    return { text: await readStdin(source, signal), source: 'stdin' };
  }
  try {
    return { text: await readFile(path, 'utf8'), source: path };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new UsageError(`Cannot read ${path}: ${why}.`);
  }
}

/** Whatever runs a command: its terminal stands behind '-', its signal ends a wait on it. */
export interface ReadingRun {
  readonly terminal: StdinSource;
  readonly ctx: { readonly signal: AbortSignal };
}

/** `readInput` for a command's file argument, read through the run that the command is part of. */
export function readRunInput(
  run: ReadingRun,
  path: string,
  what?: string,
): Promise<{ text: string; source: string }> {
  return readInput(path, run.terminal, run.ctx.signal, what);
}

/** All of standard input; Ctrl-C ends the wait (a `for await` over stdin would not notice it). */
export function readStdin(source: StdinSource, signal: AbortSignal): Promise<string> {
  const { stdin } = source;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer | string) =>
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    const done = (error?: Error) => {
      stdin.off('data', onData).off('end', onEnd).off('error', done);
      signal.removeEventListener('abort', onAbort);
      stdin.pause();
      if (error) reject(error);
      else resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onEnd = () => done();
    const onAbort = () => done(new InterruptedError());
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    stdin.on('data', onData).once('end', onEnd).once('error', done);
    stdin.resume();
  });
}
