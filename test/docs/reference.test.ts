/**
 * The command reference (docs/reference/) and the man pages (man/man1/) are generated from the command
 * tree by scripts/gen-docs.mjs; checked in, they must be what the tree makes now. The suite runs after
 * `npm run build`, so the check reads the built program, as the generator does.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/**
 * What `agency <words> --help` prints into a pipe: the texts the build rendered with the program
 * (dist/fast.cjs; test/e2e/fast-paths.test.ts checks they are what the program prints itself).
 */
const PIPED_HELP: Record<string, string> = createRequire(import.meta.url)(join(ROOT, 'dist/fast.cjs')).help;

/** The commands the index lists: [['keys', 'create'], …], each with its page. */
function indexedCommands(): { words: string[]; page: string }[] {
  const index = readFileSync(join(ROOT, 'docs/reference/README.md'), 'utf8');
  return [...index.matchAll(/^\| \[agency ([^\]]+)\]\(([^)]+)\)/gm)].map((m) => ({
    words: (m[1] as string).split(' '),
    page: m[2] as string,
  }));
}

const genDocs = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'scripts/gen-docs.mjs'), ...args], { encoding: 'utf8' });

describe('the generated command reference', () => {
  const out = mkdtempSync(join(tmpdir(), 'agency-reference-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('is up to date: the checked-in pages are what the command tree makes now', () => {
    const check = genDocs('--check');
    expect(check.stderr, 'run `npm run docs` and commit the result').toBe('');
    expect(check.status).toBe(0);
  });

  it('names a page that differs, and a page of a command that no longer exists', () => {
    // A copy of what the generator writes (the first test holds it to be what it makes), then two changes.
    for (const file of [
      'docs/reference',
      'man/man1',
      'package.json',
      'README.md',
      'docs/mcp.md',
      'docs/agency-api-coverage.md',
    ]) {
      cpSync(join(ROOT, file), join(out, file), { recursive: true });
    }
    appendFileSync(join(out, 'docs/reference/agency-keys-create.md'), 'edited by hand\n');
    writeFileSync(join(out, 'man/man1/agency-gone.1'), '.TH GONE 1\n');
    const check = genDocs('--check', '--out', out);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain('docs/reference/agency-keys-create.md');
    expect(check.stderr).toContain('man/man1/agency-gone.1');
  });

  it('has a page for every command, which says what its --help says', () => {
    const commands = indexedCommands();
    expect(commands.map((c) => c.words.join(' '))).toEqual(
      expect.arrayContaining(['companies list', 'keys create', 'webhooks subscribe', 'completion']),
    );
    for (const { words, page } of commands) {
      const help = { stdout: PIPED_HELP[words.join(' ')] ?? `no help for ${words.join(' ')}` };
      const text = readFileSync(join(ROOT, 'docs/reference', page), 'utf8');
      const man = readFileSync(join(ROOT, 'man/man1', page.replace(/\.md$/, '.1')), 'utf8');
      expect(text).toContain(`# agency ${words.join(' ')}\n`);
      expect(text).toContain(help.stdout.split('\n')[0]?.replace(/^Usage: /, '') ?? 'no usage line');
      // Every option of its own, and every example.
      const own = help.stdout.split(/\n(?:Global Options|Commands):\n/)[0] ?? '';
      for (const flag of own.matchAll(/^ {2}(-[-\w]+(?:, --[-\w]+)?(?: <\w+>)?)/gm)) {
        if (flag[1] !== '-h, --help') expect(text).toContain(`\`${flag[1]}`);
      }
      // Every example, however help wrapped it for 80 columns.
      const flat = (t: string) => t.replace(/\s*\\\n\s*/g, ' ').replace(/\s+/g, ' ');
      // The examples end where the short block of global options begins.
      const examples = (help.stdout.split('\nExamples:\n')[1] ?? '').split('\nGlobal options: ')[0] ?? '';
      // Help prints an example's trailing comment on a line above it; the page keeps it after.
      const commented = examples.replace(/^ {2}(# .*)\n {2}(\$ .*)$/gm, '  $2 $1');
      for (const example of flat(commented).split(/ ?\$ /).filter(Boolean)) {
        expect(flat(text)).toContain(example.trim());
        expect(flat(man.replace(/\\-/g, '-').replace(/\\e/g, '\\'))).toContain(example.trim());
      }
      expect(text).toMatch(/^\| 2 \| bad input \(nothing sent\) \|$/m);
    }
  });

  it('offers the global options --help offers (no --csv or --columns where no list is printed)', () => {
    const names = (text: string) => [...text.matchAll(/--[\w-]+/g)].map((m) => m[0]);
    for (const { words, page } of indexedCommands()) {
      if (words.length === 0) continue;
      const help = PIPED_HELP[words.join(' ')] ?? '';
      const block = /Global options: ([\s\S]*?) \(`agency help/.exec(help)?.[1] ?? 'none';
      const text = readFileSync(join(ROOT, 'docs/reference', page), 'utf8');
      const listed = /^Also takes the \[global options\][^:]*: (.*?); `-h, --help`/m.exec(text)?.[1] ?? '';
      expect(names(listed), page).toEqual(names(block));
    }
    const me = readFileSync(join(ROOT, 'docs/reference/agency-me.md'), 'utf8');
    expect(me).not.toContain('`--csv`');
  });

  it("the detailed exit code table in docs/output.md has the program's codes", () => {
    const codes = (file: string, heading: string) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const section = text.slice(text.indexOf(heading));
      const table = section.slice(0, section.search(/\n\n[^|]/));
      return [...table.matchAll(/^\| (\d+) \|/gm)].map((m) => Number(m[1]));
    };
    const program = codes('docs/reference/agency.md', '## Exit codes');
    expect(program).toContain(130);
    expect(codes('docs/output.md', '## Errors and exit codes')).toEqual(program);
  });
});
