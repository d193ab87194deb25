/**
 * The README and docs/ speak to the people who use the tool: they never mention issues, the project's
 * design contract, its shared/ notes, or source and test files (docs/architecture.md, for contributors,
 * is the exception). HTML comments (the generators' markers) are not read by anyone and are skipped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const DEVELOPER_TALK: [RegExp, string][] = [
  [/\bissues? (?:#?\d+)/i, 'an issue number'],
  [/\bthe contract\b|\bcontract's\b/i, 'the contract'],
  [/\bshared\/(?:spec|design)/, 'shared/'],
  [/(?<![\w.-])src\/[\w./-]+/, 'a source path'],
  [/(?<![\w.-])test\/[\w./-]+/, 'a test path'],
];

function userDocs(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md') && name !== 'architecture.md')
    .map((name) => join('docs', name));
  return ['README.md', ...docs];
}

describe('user docs', () => {
  it('say nothing of how the project is built or tested', () => {
    const found: string[] = [];
    for (const file of userDocs()) {
      const text = readFileSync(join(ROOT, file), 'utf8').replace(/<!--[\s\S]*?-->/g, '');
      text.split('\n').forEach((line, index) => {
        for (const [pattern, what] of DEVELOPER_TALK) {
          if (pattern.test(line)) found.push(`${file}:${index + 1}: ${what}: ${line.trim().slice(0, 120)}`);
        }
      });
    }
    expect(found).toEqual([]);
  });

  it('the README says the two commands are for a checkout, and how the installed package is started', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toMatch(/## In a checkout of the repository: the two commands/);
    expect(readme).toMatch(/npm install -g \.\/agency-cli-<version>\.tgz/);
    expect(readme).toMatch(/`npm ci && npm pack` \(it does not\s+work from an installed package/);
  });
});
