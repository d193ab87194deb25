// `npm run docs` (with scripts/gen-examples.mjs): the command reference, generated from the command
// tree of the built program (the walk scripts/build.mjs uses for --help, scripts/command-tree.cjs):
//
//   docs/reference/<slug>.md   one page per command (agency-keys-create.md) and README.md, an index
//   man/man1/<slug>.1          the same as man pages: agency(1), agency-keys-create(1), …
//   package.json "man"         the man pages, so that npm installs them (`man agency` after npm i -g)
//
// Options: --check (write nothing; exit 1 naming every file that is out of date — the test runs this),
// --out DIR (write or check under DIR instead of the repository), --bin FILE (another build).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { report, syncFiles } from './docs/files.mjs';
import { commandPage, indexPage } from './docs/markdown.mjs';
import { readCommands } from './docs/model.mjs';
import { manPage } from './docs/roff.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REFERENCE_DIR = 'docs/reference';
export const MAN_DIR = 'man/man1';

/** Every generated file: relative path → content. */
export async function referenceFiles(bin = path.join(root, 'bin/agency.js')) {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const commands = await readCommands(bin);
  const program = commands.find((c) => c.words.length === 0);
  const exitCodes = program.exitCodes;
  if (exitCodes.length === 0) throw new Error('no "Exit codes:" paragraph in `agency --help`');
  const files = new Map();
  files.set(`${REFERENCE_DIR}/README.md`, indexPage(commands));
  for (const command of commands) {
    files.set(`${REFERENCE_DIR}/${command.slug}.md`, commandPage(command, exitCodes));
    files.set(`${MAN_DIR}/${command.slug}.1`, manPage(command, exitCodes, pkg.version));
  }
  files.set('package.json', withManPages(pkg, commands));
  return files;
}

/** package.json with "man" listing every page (after "bin", where npm's docs put it). */
function withManPages(pkg, commands) {
  const man = commands.map((c) => `./${MAN_DIR}/${c.slug}.1`);
  const result = {};
  for (const [key, value] of Object.entries(pkg)) {
    if (key === 'man') continue;
    result[key] = value;
    if (key === 'bin') result.man = man;
  }
  if (!('man' in result)) result.man = man;
  return `${JSON.stringify(result, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name) => {
    const i = args.indexOf(name);
    return i === -1 ? undefined : args[i + 1];
  };
  const check = args.includes('--check');
  const out = path.resolve(option('--out') ?? root);
  const files = await referenceFiles(option('--bin') && path.resolve(option('--bin')));
  const stale = syncFiles(out, files, { check, owned: [REFERENCE_DIR, MAN_DIR] });
  report(stale, { check, what: 'Command reference and man pages', fix: 'npm run docs' });
}
