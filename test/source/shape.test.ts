/**
 * The shape docs/architecture.md promises, kept by a test: no source file over 400 lines, and src/cli.ts
 * (the program's options, signals and error mapping) at most 200, so that a command's logic lives in its
 * own file and shared logic in src/fleet/, src/api/ and src/output/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const lines = (file: string) => readFileSync(file, 'utf8').split('\n').length - 1;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('source shape', () => {
  it('no file in src/ is over 400 lines', () => {
    const long = sourceFiles(join(root, 'src'))
      .map((file) => `${relative(root, file)}: ${lines(file)}`)
      .filter((entry) => Number(entry.split(': ')[1]) > 400);
    expect(long).toEqual([]);
  });

  it('src/cli.ts is at most 200 lines', () => {
    expect(lines(join(root, 'src/cli.ts'))).toBeLessThanOrEqual(200);
  });
});
