// What a page's console examples were made from, as one hash: the page's whole text, the built program,
// the generator, and the tools that run the examples. `npm run docs` records each page's fingerprint
// beside its run (FINGERPRINTS); `gen-examples.mjs --check --changed` runs again only the pages whose
// fingerprint differs from the recorded one, so that a change that cannot have changed an example costs
// no run, and every change that can (the program, the generator, the page, a tool's version) is run.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { syncFiles } from './files.mjs';

/** The record, relative to the repository: "<sha256>  <page>" lines, as sha256sum writes them. */
export const FINGERPRINTS = 'test/docs/examples-fingerprints.txt';

const HEADER = [
  "# Written by `npm run docs` (scripts/gen-examples.mjs): what each page's console examples were made",
  '# from (scripts/docs/fingerprints.mjs). A page whose fingerprint is unchanged is not run again by the',
  '# check in `npm test`; take either side of a conflict here, then `npm run docs`.',
];

/**
 * The files of the program that the examples run: bin/agency.js and the bundles and WebAssembly it loads.
 * Not dist/boot.cjs, which names the code caches (their bytes differ from build to build, the code not).
 */
function programFiles(root) {
  const dist = readdirSync(path.join(root, 'dist'))
    .filter((name) => /\.(cjs|wasm)$/.test(name) && name !== 'boot.cjs')
    .sort()
    .map((name) => `dist/${name}`);
  return ['bin/agency.js', 'bin/package.json', ...dist];
}

/** The generator's own files: how it runs a command and renders its screen. */
function generatorFiles(root) {
  const docs = readdirSync(path.join(root, 'scripts/docs'))
    .filter((name) => name.endsWith('.mjs'))
    .sort()
    .map((name) => `scripts/docs/${name}`);
  return ['scripts/gen-examples.mjs', ...docs];
}

/** Node's version and the first line each tool says of its own ('missing' where it is not installed). */
let versions;
function toolVersions() {
  const firstLine = (tool, flag) => {
    try {
      const said = execFileSync(tool, [flag], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      return said.split('\n')[0];
    } catch {
      return `${tool} missing`;
    }
  };
  versions ??= [
    `node ${process.version}`,
    ...[
      ['tmux', '-V'],
      ['bash', '--version'],
      ['jq', '--version'],
      ['curl', '--version'],
    ].map(([tool, flag]) => firstLine(tool, flag)),
  ];
  return versions;
}

/**
 * A function giving each page's fingerprint from its text. What every page shares (the program, the
 * generator, the tools) is read and hashed once.
 */
export function fingerprinter(root) {
  const shared = createHash('sha256');
  for (const line of toolVersions()) shared.update(`tool ${line}\n`);
  for (const file of [...programFiles(root), ...generatorFiles(root)]) {
    shared
      .update(`file ${file}\n`)
      .update(readFileSync(path.join(root, file)))
      .update('\n');
  }
  const base = shared.digest('hex');
  return (text) => createHash('sha256').update(base).update('\npage\n').update(text).digest('hex');
}

/** The fingerprints recorded in `file`: page → hash (none when there is no such file). */
export function readFingerprints(file) {
  const recorded = new Map();
  if (!existsSync(file)) return recorded;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([0-9a-f]{64}) {2}(\S.*)$/.exec(line);
    if (match) recorded.set(match[2], match[1]);
  }
  return recorded;
}

/** Records `fingerprints` (page → hash) in `file`, in page-name order. */
export function writeFingerprints(file, fingerprints) {
  const lines = [...fingerprints]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([page, hash]) => `${hash}  ${page}`);
  syncFiles(path.dirname(file), new Map([[path.basename(file), `${[...HEADER, ...lines].join('\n')}\n`]]));
}
