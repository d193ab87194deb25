/**
 * Every console example in README.md and docs/ is the output of a real run (scripts/gen-examples.mjs:
 * a fresh sandbox per file, each command in an 80-column tmux terminal). Checked in, they must be what
 * a run prints now: the pages whose fingerprint changed since `npm run docs` recorded it are run again
 * (scripts/docs/fingerprints.mjs), and .ci/run runs every page. Without tmux the examples cannot be run,
 * and these tests say so.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fingerprinter, readFingerprints, writeFingerprints } from '../../scripts/docs/fingerprints.mjs';
import { ROOT } from '../helpers/cli.js';
import { TMUX_MISSING } from '../helpers/tmux.js';

/** The examples run in tmux, and some pipe into jq or call the sandbox with curl. */
const TOOLS_MISSING =
  TMUX_MISSING ??
  ['jq', 'curl']
    .filter((tool) => spawnSync(tool, ['--version']).error !== undefined)
    .map(
      (tool) =>
        `${tool} is not installed (apt-get install -y ${tool}); the docs' console examples are not run`,
    )[0];

function genExamples(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // The generator works under /tmp whatever TMPDIR says (a wrapped path must not depend on it).
    const child = spawn(process.execPath, [join(ROOT, 'scripts/gen-examples.mjs'), ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** README.md and the pages under docs/ but the generated reference: where console examples are. */
function pages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true })
    .map((name) => `docs/${String(name)}`)
    .filter((file) => file.endsWith('.md') && !file.startsWith('docs/reference/'));
  return ['README.md', ...docs];
}

/** The console blocks the generator would not run ("file:line  first line"): none may remain. */
function unrunConsoleBlocks(file: string, text: string): string[] {
  const found: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,}|~{3,})(.*)$/.exec(lines[i] ?? '');
    if (!open) continue;
    const fence = open[1] as string;
    const [language, ...words] = (open[2] ?? '').trim().split(/\s+/);
    const first = lines[i + 1] ?? '';
    if (language === 'console' && (!first.startsWith('$ ') || words.includes('no-run'))) {
      found.push(`${file}:${i + 1}  ${open[0]} / ${first}`);
    }
    const close = lines.findIndex(
      (line, j) => j > i && line.startsWith(fence[0]?.repeat(fence.length) ?? fence),
    );
    i = close === -1 ? lines.length : close;
  }
  return found;
}

describe('every console block of README.md and docs/', () => {
  it('is run by the generator (starts with a "$ " command, no no-run): no output written by hand', () => {
    const checked = pages();
    expect(checked).toEqual(expect.arrayContaining(['README.md', 'docs/network.md', 'docs/mcp.md']));
    const unrun = checked.flatMap((file) => unrunConsoleBlocks(file, readFileSync(join(ROOT, file), 'utf8')));
    expect(unrun, 'make it a real run, or show the commands in a ```sh block without output').toEqual([]);
  });

  it('the check finds a block kept as written, and one with no command', () => {
    const page = [
      '# A page',
      '```console no-run',
      '$ agency login',
      'as written',
      '```',
      '```console',
      'output only',
      '```',
      '```sh',
      'agency login',
      '```',
    ];
    expect(unrunConsoleBlocks('page.md', page.join('\n'))).toEqual([
      'page.md:2  ```console no-run / $ agency login',
      'page.md:6  ```console / output only',
    ]);
  });
});

describe.skipIf(TOOLS_MISSING)('the console examples of the docs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agency-examples-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Only the pages whose fingerprint (what their examples are made from: the page, the built program, the
  // generator, the tools) differs from the one `npm run docs` recorded are run; the tests below hold that
  // a change to a page or to the program is run, and .ci/run runs every page besides.
  it('are what the tool prints now', { timeout: 120_000 }, async () => {
    const check = await genExamples('--check', '--changed');
    expect(check.stderr, 'run `npm run docs` and commit the result').toBe('');
    expect(check.status).toBe(0);
    expect(check.stdout).toMatch(/Console examples: \d+ of \d+ file\(s\) unchanged/);
  });

  it('a console block that cannot run is refused: nothing is run or written', {
    timeout: 60_000,
  }, async () => {
    const page = join(dir, 'kept.md');
    const text = '# A page\n\n```console no-run\n$ agency login\nas written\n```\n';
    writeFileSync(page, text);
    const run = await genExamples('--only', page);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(`${page}: a console block is run`);
    expect(readFileSync(page, 'utf8')).toBe(text);
  });

  it('a stale example is named with its difference, and a run rewrites it', { timeout: 60_000 }, async () => {
    const page = join(dir, 'page.md');
    const example = ['```console', '$ agency companies list --limit 2 --columns id,name', 'not this', '```'];
    writeFileSync(page, `# A page\n\n${example.join('\n')}\n\n\`\`\`sh\nagency login\n\`\`\`\n`);
    const check = await genExamples('--check', '--only', page);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain(page);
    expect(check.stderr).toContain('not this');
    expect(readFileSync(page, 'utf8')).toContain('not this');
    // A page whose recorded fingerprint matches is not run: this stale one passes the check with --changed.
    const forged = join(dir, 'forged.txt');
    writeFingerprints(forged, new Map([[page, fingerprinter(ROOT)(readFileSync(page, 'utf8'))]]));
    const skipped = await genExamples('--check', '--changed', '--only', page, '--fingerprints', forged);
    expect(skipped.status, skipped.stderr).toBe(0);
    expect(skipped.stdout).toContain(
      '1 of 1 file(s) unchanged since their examples were recorded, not run again',
    );

    const record = join(dir, 'fingerprints.txt');
    expect((await genExamples('--only', page, '--fingerprints', record)).status).toBe(0);
    expect(readFileSync(page, 'utf8')).toBe(
      [
        '# A page',
        '',
        '```console',
        '$ agency companies list --limit 2 --columns id,name',
        'ID    NAME',
        '1001  Acme Ltd',
        '1002  Blue Harbor Dental',
        '2 of 120 companies (--limit 2)',
        '```',
        '',
        '```sh',
        'agency login',
        '```',
        '',
      ].join('\n'),
    );

    // Recorded as run: what the page is made from now, so that a check with --changed skips it.
    expect(readFingerprints(record)).toEqual(
      new Map([[page, fingerprinter(ROOT)(readFileSync(page, 'utf8'))]]),
    );
    // An output edited by hand changes the page: it is run again, and the difference named.
    writeFileSync(page, readFileSync(page, 'utf8').replace('Blue Harbor Dental', 'Blue Harbour Dental'));
    const edited = await genExamples('--check', '--changed', '--only', page, '--fingerprints', record);
    expect(edited.status).toBe(1);
    expect(edited.stdout).toContain(
      `0 of 1 file(s) unchanged since their examples were recorded, not run again; run again, as what they are made from changed: ${page}`,
    );
    expect(edited.stderr).toContain('Blue Harbour Dental');
  });
});

describe("a page's fingerprint (what its examples are made from)", () => {
  const root = mkdtempSync(join(tmpdir(), 'agency-fingerprint-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const files: Record<string, string> = {
    'bin/agency.js': 'the loader',
    'bin/package.json': '{}',
    'dist/cli.cjs': 'the program',
    'dist/llhttp.wasm': 'a parser',
    'dist/boot.cjs': 'names the code caches of this build',
    'scripts/gen-examples.mjs': 'the generator',
    'scripts/docs/terminal.mjs': 'the terminal',
  };
  const write = (file: string, text: string) => {
    mkdirSync(join(root, dirname(file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };
  for (const [file, text] of Object.entries(files)) write(file, text);
  const page = '# A page\n```console\n$ agency me\n```\n';
  const before = fingerprinter(root)(page);

  it('changes with the page, the program, its WebAssembly, its loader and the generator', () => {
    expect(fingerprinter(root)(page)).toBe(before);
    expect(fingerprinter(root)(`${page}\n`)).not.toBe(before);
    for (const file of Object.keys(files).filter((name) => name !== 'dist/boot.cjs')) {
      write(file, `${files[file]} changed`);
      expect(fingerprinter(root)(page), file).not.toBe(before);
      write(file, files[file] as string);
    }
    write('dist/yaml.cjs', 'a new bundle');
    expect(fingerprinter(root)(page)).not.toBe(before);
    rmSync(join(root, 'dist/yaml.cjs'));
  });

  it('not with the names of the code caches, which every build makes anew', () => {
    write('dist/boot.cjs', 'names other code caches');
    expect(fingerprinter(root)(page)).toBe(before);
  });

  it('is recorded and read back by page', () => {
    const record = join(root, 'record.txt');
    writeFingerprints(
      record,
      new Map([
        ['README.md', before],
        ['docs/a b.md', before.replace(/^./, '0')],
      ]),
    );
    expect(readFingerprints(record)).toEqual(
      new Map([
        ['README.md', before],
        ['docs/a b.md', before.replace(/^./, '0')],
      ]),
    );
    expect(readFingerprints(join(root, 'none.txt'))).toEqual(new Map());
  });
});

if (TOOLS_MISSING) it.skip(TOOLS_MISSING, () => {});
