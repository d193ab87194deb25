/**
 * docs/performance.md's table of bundle sizes is the build's, not a figure from an older build (issue 18
 * found it quoting 124 kB where the build made 200 kB). The suite runs after `npm run build`, so dist/
 * is the build being tested.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/** The table's rows: each file it names (one or two per row) and the size it says, in kB. */
function documentedSizes(): { file: string; kB: number }[] {
  const text = readFileSync(join(ROOT, 'docs/performance.md'), 'utf8');
  const table = text.split('| bundle | size | read by |')[1]?.split('\n\n')[0] ?? '';
  return [...table.matchAll(/^\| (.+?) \| (\d+) kB(?: each)? \|/gm)].flatMap(([, files, kB]) =>
    [...(files as string).matchAll(/`([^`]+)`/g)].map(([, file]) => ({
      file: file as string,
      kB: Number(kB),
    })),
  );
}

/** As the table rounds: to 10 kB, or to 1 kB under 10 kB. */
function rounded(bytes: number): number {
  const kB = bytes / 1000;
  return kB < 10 ? Math.round(kB) : Math.round(kB / 10) * 10;
}

describe("docs/performance.md's bundle sizes", () => {
  it('are the sizes of the files the build made', () => {
    const rows = documentedSizes();
    // The table was found and read: the program, undici and the two parsers are in it.
    expect(rows.map((row) => row.file)).toEqual(
      expect.arrayContaining(['cli.cjs', 'undici.cjs', 'llhttp.wasm', 'llhttp_simd.wasm']),
    );
    const built = rows.map(({ file }) => ({ file, kB: rounded(statSync(join(ROOT, 'dist', file)).size) }));
    expect(rows).toEqual(built);
  });

  it('name every bundle of the build (all but the few-hundred-byte loaders)', () => {
    const bundles = readdirSync(join(ROOT, 'dist')).filter(
      (file) => /\.(cjs|wasm)$/.test(file) && statSync(join(ROOT, 'dist', file)).size >= 1000,
    );
    expect(bundles).toContain('cli.cjs');
    expect(
      documentedSizes()
        .map((row) => row.file)
        .sort(),
    ).toEqual(bundles.sort());
  });

  it('rounds as the table says', () => {
    expect([rounded(1_637), rounded(54_013), rounded(327_713), rounded(325_000)]).toEqual([2, 50, 330, 330]);
  });
});
