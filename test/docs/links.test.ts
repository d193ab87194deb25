/**
 * Every relative link in README.md and docs/ leads somewhere: the file exists, and a #fragment names a
 * heading of that file (as GitHub makes anchors from headings).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

function markdownFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true })
    .map((name) => join('docs', String(name)))
    .filter((file) => file.endsWith('.md'));
  return ['README.md', ...docs];
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(text: string): Set<string> {
  const withoutCode = text.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, '');
  return new Set([...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1] as string)));
}

describe('links in the docs', () => {
  it('lead to a file that exists, and to a heading of it', () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      const text = readFileSync(join(ROOT, file), 'utf8').replace(
        /^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm,
        '',
      );
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const link = match[1] as string;
        if (/^[a-z]+:/.test(link)) continue;
        const [target = '', fragment] = link.split('#');
        const path = target === '' ? join(ROOT, file) : join(ROOT, dirname(file), target);
        if (!existsSync(path)) {
          broken.push(`${file}: ${link} (no such file)`);
          continue;
        }
        if (fragment && !anchorsOf(readFileSync(path, 'utf8')).has(fragment))
          broken.push(`${file}: ${link} (no heading #${fragment})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('reach every page under docs/ from README.md', () => {
    const reached = new Set(['README.md']);
    const queue = ['README.md'];
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const match of text.matchAll(/\]\(([^)\s#]+\.md)(?:#[^)]*)?\)/g)) {
        const target = join(dirname(file), match[1] as string);
        if (!reached.has(target) && existsSync(join(ROOT, target))) {
          reached.add(target);
          queue.push(target);
        }
      }
    }
    expect(markdownFiles().filter((file) => !reached.has(file))).toEqual([]);
  });
});
