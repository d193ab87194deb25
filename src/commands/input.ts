/** Reading a file argument, where '-' means standard input. */
import { readFile } from 'node:fs/promises';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';

export async function readInput(ctx: Context, path: string): Promise<{ text: string; source: string }> {
  if (path === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.io.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    return { text: Buffer.concat(chunks).toString('utf8'), source: 'stdin' };
  }
  try {
    return { text: await readFile(path, 'utf8'), source: path };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new UsageError(`Cannot read ${path}: ${why}.`);
  }
}
