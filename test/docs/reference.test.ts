/**
 * The command reference (docs/reference/) and the man pages (man/man1/) are generated from the command
 * tree by scripts/gen-docs.mjs; checked in, they must be what the tree makes now. The suite runs after
 * `npm run build`, so the check reads the built program, as the generator does.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

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
    expect(genDocs('--out', out).status).toBe(0);
    expect(genDocs('--check', '--out', out).status).toBe(0);
    appendFileSync(join(out, 'docs/reference/agency-keys-create.md'), 'edited by hand\n');
    writeFileSync(join(out, 'man/man1/agency-gone.1'), '.TH GONE 1\n');
    const check = genDocs('--check', '--out', out);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain('docs/reference/agency-keys-create.md');
    expect(check.stderr).toContain('man/man1/agency-gone.1');
  });
});
