/**
 * The shape docs/architecture.md promises, kept by a test: no source file over 400 lines, and src/cli.ts
 * (the process: signals, text and exit code) at most 150 and imported by no other source file (the MCP
 * host runs commands through src/program.ts too), so that a command's logic lives in its
 * own file and shared logic in src/fleet/, src/api/ and src/output/. And no two types (interfaces, type
 * aliases, classes, enums) share a name: a reader who meets one should not have to ask which it is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
/** A declaration of a named type, at any indentation: `export interface X {`, `type X<T> =`, `class X extends`. */
const DECLARATION =
  /^[ \t]*(?:export )?(?:declare )?(?:abstract )?(?:interface|type|class|enum) ([A-Z]\w*)\s*(?:=|\{|<|extends|implements)/gm;
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

  it('src/cli.ts is at most 150 lines', () => {
    expect(lines(join(root, 'src/cli.ts'))).toBeLessThanOrEqual(150);
  });

  it('no file in src/ imports src/cli.ts (a host sits on top; nothing below imports it)', () => {
    const importers = sourceFiles(join(root, 'src'))
      .filter((file) =>
        /from '(?:\.\.?\/)+cli\.js'|import\('(?:\.\.?\/)+cli\.js'\)/.test(readFileSync(file, 'utf8')),
      )
      .map((file) => relative(root, file));
    expect(importers).toEqual([]);
  });

  it('no two types in src/ have one name', () => {
    const declared = new Map<string, string[]>();
    for (const file of sourceFiles(join(root, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const [, name] of text.matchAll(DECLARATION)) {
        declared.set(name as string, [...(declared.get(name as string) ?? []), relative(root, file)]);
      }
    }
    // The pattern does find the declarations (a type, an interface, a class).
    expect([...declared.keys()]).toEqual(expect.arrayContaining(['Column', 'Runtime', 'Writer']));
    const twice = [...declared]
      .filter(([, files]) => files.length > 1)
      .map(([name, files]) => `${name}: ${files.join(', ')}`);
    expect(twice).toEqual([]);
  });
});
