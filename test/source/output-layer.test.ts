/**
 * Renderers take data (docs/architecture.md): no module of src/output/ imports src/fleet/, not even
 * for a type, so that a report is a value the output layer draws and never a computation it shares.
 * The shapes both sides need live in src/reports/, which imports neither.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
/** Every module specifier of an import or export, static or dynamic, type-only or not. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** `folder` → each imported module (as a path under src/) of its files that lies in one of `banned`. */
function importsInto(folder: string, banned: readonly string[]): string[] {
  return sourceFiles(join(root, 'src', folder)).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(SPECIFIER)]
      .map(([, specifier]) => specifier as string)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => relative(join(root, 'src'), resolve(dirname(file), specifier)))
      .filter((target) => banned.some((dir) => target.startsWith(`${dir}/`)))
      .map((target) => `${relative(root, file)} imports src/${target}`),
  );
}

describe('the output layer', () => {
  it('no src/output module imports src/fleet', () => {
    expect(importsInto('output', ['fleet'])).toEqual([]);
  });

  it('the report shapes (src/reports) import neither the fleet nor the output layer', () => {
    expect(importsInto('reports', ['fleet', 'output', 'commands'])).toEqual([]);
  });

  it('the rule sees the imports it forbids (a type import, an export, a dynamic import)', () => {
    // The pattern itself, on the forms it must catch: kept honest without breaking a real file.
    const text = [
      "import type { Problem } from '../fleet/health-checks.js';",
      "export { x } from '../fleet/x.js';",
      "const m = await import('../fleet/y.js');",
    ].join('\n');
    expect([...text.matchAll(SPECIFIER)].map(([, s]) => s)).toEqual([
      '../fleet/health-checks.js',
      '../fleet/x.js',
      '../fleet/y.js',
    ]);
  });
});
