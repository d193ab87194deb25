// `npm run docs` (after scripts/gen-docs.mjs): every console example in README.md and docs/ (not
// docs/reference/, which is generated) is run against a practice agency and its output rewritten, so
// that what the docs show is what the tool prints. The convention is in scripts/docs/console-blocks.mjs
// and docs/architecture.md.
//
// Each Markdown file gets a fresh sandbox (the default 120 companies; keys derived from a fixed seed, so
// they are the same on every run), a temporary config directory whose current profile "sandbox" points
// at it, and a temporary working directory. Its blocks run in order, each command in an 80-column
// terminal (tmux). In the output the sandbox's address is always http://127.0.0.1:48099 (a command may
// say it too), and the config directory is ~/.config/agency. A command that runs until Ctrl-C (`agency
// sandbox`, in a block marked stop=N) gets an empty config directory of its own, as a first run does.
//
// Options: --check (write nothing; exit 1 naming every file whose examples are out of date, with the
// first difference), --changed (with --check: run only the files whose fingerprint differs from the
// recorded one, scripts/docs/fingerprints.mjs), --only FILE (one Markdown file), --bin FILE (another
// build), --fingerprints FILE (the record to read and write; by default
// test/docs/examples-fingerprints.txt, which a run without --check and --only rewrites for every file).
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  blockKind,
  fileText,
  parseCommands,
  parseMarkdown,
  renderCommands,
  renderMarkdown,
} from './docs/console-blocks.mjs';
import { assertBuildIsCurrent, commandLine, report, syncFiles } from './docs/files.mjs';
import { FINGERPRINTS, fingerprinter, readFingerprints, writeFingerprints } from './docs/fingerprints.mjs';
import { startProxy } from './docs/proxy.mjs';
import { Terminal, tmuxVersion } from './docs/terminal.mjs';
import { startSecretService } from './secret-service.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
// An ephemeral port has 5 digits (Linux: 32768-60999; macOS: 49152-65535): shown as one of 5 digits
// too, so that a table's columns stay aligned.
const SHOWN_ORIGIN = 'http://127.0.0.1:48099';
const SHOWN_CONFIG_DIR = '~/.config/agency';
const KEY = /wpk_(?:hq_)?[0-9a-f]{32}/g;

/** README.md and every page under docs/ but the generated reference, relative to the repository. */
function markdownFiles() {
  const pages = readdirSync(path.join(root, 'docs'), { recursive: true })
    .map((name) => path.posix.join('docs', String(name).split(path.sep).join('/')))
    .filter((file) => file.endsWith('.md') && !file.startsWith('docs/reference/'))
    .sort();
  return ['README.md', ...pages];
}

/** The pages with a console block to run: file → its Markdown parsed. */
function pagesToRun(pages) {
  const parsed = new Map();
  for (const file of pages) {
    const parts = parseMarkdown(pageText(file));
    // Every block's kind first: a console block that cannot run stops the run before any command.
    let kinds;
    try {
      kinds = parts.map((part) => (part.lines ? blockKind(part) : undefined));
    } catch (error) {
      throw new Error(`${file}: ${error.message}`);
    }
    if (kinds.some((kind) => kind?.kind === 'run')) parsed.set(file, parts);
  }
  return parsed;
}

function pageText(file) {
  return readFileSync(path.resolve(root, file), 'utf8');
}

/** Each page's console examples rewritten from a real run: file → content. */
async function exampleFiles(pages, { bin = path.join(root, 'bin/agency.js') } = {}) {
  const files = new Map();
  if (pages.size === 0) return files;
  const terminal = new Terminal({ width: 80 });
  await terminal.start();
  try {
    // The files at once, each with its own sandbox: the time is mostly commands waiting for answers.
    const runs = [...pages].map(async ([file, parts]) => {
      await runFile(parts, { bin, terminal, file });
      files.set(file, renderMarkdown(parts));
    });
    const results = await Promise.allSettled(runs);
    const failed = results.filter((r) => r.status === 'rejected').map((r) => r.reason.message);
    if (failed.length > 0) throw new Error(failed.join('\n'));
  } finally {
    await terminal.close();
  }
  return files;
}

async function runFile(parts, { bin, terminal, file }) {
  const agency = require(bin);
  const { startSandbox } = agency.loadBundle('sandbox.cjs');
  const sandbox = await startSandbox({ port: 0, seed: { keySeed: 'agency-docs' } });
  // Always under /tmp (where there is one), not $TMPDIR: a message that names the config file is wrapped
  // at the real path's length before the path is shown as ~/.config/agency, so a longer TMPDIR (the test
  // suite's) would wrap it elsewhere than the checked-in page.
  const temp = mkdtempSync(path.join(existsSync('/tmp') ? '/tmp' : tmpdir(), 'agency-examples-'));
  const configDir = path.join(temp, 'config');
  const workDir = path.join(temp, 'work');
  const shimDir = path.join(temp, 'bin');
  /** A private Secret Service, from the first `console keyring` block to the end of the page. */
  let keyring;
  try {
    for (const dir of [configDir, workDir, shimDir]) mkdirSync(dir, { mode: 0o700 });
    writeConfig(configDir, sandbox);
    writeFileSync(path.join(shimDir, 'agency'), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`);
    chmodSync(path.join(shimDir, 'agency'), 0o755);
    const env = {
      PATH: `${shimDir}:/usr/local/bin:/usr/bin:/bin`,
      HOME: workDir,
      AGENCY_CONFIG_DIR: configDir,
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      TZ: 'UTC',
      TERM: 'tmux-256color',
    };
    const origin = sandbox.url;
    /** The block's proxies: the port shown in the docs → the one it really listens on. */
    let ports = [];
    const normalise = (text) => {
      const known = new Set([
        ...sandbox.store.users().map((u) => u.hqKey),
        ...sandbox.store.toJSON().keys.map((k) => k.key),
      ]);
      const others = new Map();
      let shown = text;
      for (const { shownPort, port } of ports)
        shown = shown.replaceAll(`127.0.0.1:${port}`, `127.0.0.1:${shownPort}`);
      return shown
        .replaceAll(origin, SHOWN_ORIGIN)
        .replace(/http:\/\/127\.0\.0\.1:(\d+)/g, (url, port) =>
          ports.some((proxy) => String(proxy.shownPort) === port) ? url : SHOWN_ORIGIN,
        )
        .replaceAll(configDir, SHOWN_CONFIG_DIR)
        .replace(new RegExp(`${temp}/alone-\\w+`, 'g'), SHOWN_CONFIG_DIR)
        .replaceAll(`${workDir}/`, '')
        .replaceAll(workDir, '.')
        .replace(KEY, (key) => {
          // A key of another sandbox (`agency sandbox` in an example): the same placeholder every run.
          if (known.has(key)) return key;
          if (!others.has(key)) {
            const hex = createHash('sha256').update(`other:${others.size}`).digest('hex').slice(0, 32);
            others.set(key, key.startsWith('wpk_hq_') ? `wpk_hq_${hex}` : `wpk_${hex}`);
          }
          return others.get(key);
        });
    };
    for (const part of parts) {
      if (!part.lines) continue;
      const kind = blockKind(part);
      if (kind?.kind === 'file') writeFileSync(path.join(workDir, kind.name), fileText(part, kind.name));
      if (kind?.kind !== 'run') continue;
      const commands = parseCommands(part.lines);
      const proxies = await Promise.all(
        kind.proxies.map(async ({ credentials, shownPort }) => {
          const logFile = path.join(workDir, `proxy-${shownPort}.log`);
          return { shownPort, ...(await startProxy({ credentials, logFile })) };
        }),
      );
      ports = proxies;
      // From the first `console keyring` block on, the page has a keyring (the profiles saved there
      // stay usable); the blocks before it show a system without one.
      if (kind.keyring) keyring ??= await startSecretService();
      const blockEnv = keyring ? { ...env, ...keyring.env } : env;
      try {
        for (const entry of commands) {
          let command = entry.command.join('\n').replaceAll(SHOWN_ORIGIN, origin);
          for (const { shownPort, port } of ports) {
            command = command.replaceAll(`127.0.0.1:${shownPort}`, `127.0.0.1:${port}`);
          }
          const alone = kind.stopAfterMs === undefined ? undefined : mkdtempSync(path.join(temp, 'alone-'));
          const screen = await terminal.run(command, {
            cwd: workDir,
            env: alone ? { ...blockEnv, AGENCY_CONFIG_DIR: alone } : blockEnv,
            stopAfterMs: kind.stopAfterMs,
            answers: kind.answers.map((answer) => answer.replaceAll('{hq-key}', sandbox.hqKey)),
          });
          entry.output = normalise(screen).split('\n');
          if (entry.output.length === 1 && entry.output[0] === '') entry.output = [];
        }
      } finally {
        await Promise.all(proxies.map((proxy) => proxy.close()));
      }
      part.lines = renderCommands(commands);
    }
  } catch (error) {
    throw new Error(`${file}: ${error.message}`);
  } finally {
    await keyring?.close();
    await sandbox.close();
    rmSync(temp, { recursive: true, force: true });
  }
}

/** What `agency sandbox` saves: a "sandbox" profile, current. */
function writeConfig(configDir, sandbox) {
  const file = path.join(configDir, 'config.json');
  const config = {
    current: 'sandbox',
    profiles: { sandbox: { api_key: sandbox.hqKey, base_url: sandbox.baseUrl } },
  };
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
}

/** The first block of `file` whose text differs, both ways, for a check's message. */
function firstDifference(expected, actual) {
  const a = expected.split('\n');
  const b = actual.split('\n');
  const at = a.findIndex((line, i) => line !== b[i]);
  const from = Math.max(0, at - 3);
  return [
    `  first difference at line ${at + 1}; checked in:`,
    ...a.slice(from, at + 6).map((l) => `    ${l}`),
    '  a run prints:',
    ...b.slice(from, at + 6).map((l) => `    ${l}`),
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { check, flag, option } = commandLine(process.argv.slice(2));
  const changedOnly = flag('--changed');
  if (changedOnly && !check) {
    console.error('--changed goes with --check: a run that writes the pages runs every one');
    process.exit(2);
  }
  const only = option('--only');
  const bin = option('--bin') && path.resolve(option('--bin'));
  const record = path.resolve(root, option('--fingerprints') ?? FINGERPRINTS);
  if (!bin) assertBuildIsCurrent(root);
  if (!(await tmuxVersion())) {
    console.error('tmux is not installed (apt-get install -y tmux): the console examples cannot be run.');
    process.exit(check ? 0 : 1);
  }
  let pages;
  try {
    pages = pagesToRun(only ? [only] : markdownFiles());
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
  // Another build is not what the record was made from: with --bin every page runs, and none is recorded.
  const fingerprint = bin ? undefined : fingerprinter(root);
  const recorded = readFingerprints(record);
  const unchanged = [];
  if (changedOnly && fingerprint) {
    for (const file of [...pages.keys()]) {
      if (recorded.get(file) !== fingerprint(pageText(file))) continue;
      unchanged.push(file);
      pages.delete(file);
    }
  }
  const ran = [...pages.keys()];
  const files = await exampleFiles(pages, { bin });
  const stale = syncFiles(root, files, { check });
  if (check) {
    for (const file of stale) {
      console.error(`${file}:\n${firstDifference(pageText(file), files.get(file))}`);
    }
  } else if (fingerprint && (!only || option('--fingerprints'))) {
    // What each page was made from, for the next `--check --changed`. A run of one page keeps the others'.
    const fingerprints = only ? recorded : new Map();
    for (const [file, text] of files) fingerprints.set(file, fingerprint(text));
    writeFingerprints(record, fingerprints);
  }
  if (changedOnly) {
    const rerun = ran.filter((file) => recorded.has(file));
    console.log(
      `Console examples: ${unchanged.length} of ${unchanged.length + ran.length} file(s) unchanged since their examples were recorded, not run again` +
        (rerun.length > 0 ? `; run again, as what they are made from changed: ${rerun.join(', ')}` : ''),
    );
  }
  report(stale, { check, what: 'Console examples', fix: 'npm run docs' });
}
