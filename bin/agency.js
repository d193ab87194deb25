#!/usr/bin/env node
// The installed command, and the loader of the built program. Scripts call `agency` hundreds of times, so
// every millisecond before the first request counts (docs/performance.md has the measurements):
// - CommonJS (bin/package.json): Node's ESM loader alone costs more than the whole start-up budget.
// - `--version` and piped `--help` are printed from dist/fast.cjs without loading the program.
// - The program's bundles are compiled from V8 code caches that the build produced (dist/cache/).
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const DIST = path.join(__dirname, '..', 'dist');
/** dist/boot.cjs, read once. */
let boot;
/** Bundles loaded so far, by file name. */
const bundles = new Map();

if (require.main === module) {
  const argv = process.argv.slice(2);
  if (!printFast(argv)) runProgram(argv);
}

module.exports = { bootProgram, loadBundle, loadedBundles, fastText };

function runProgram(argv) {
  const { main, openControllingTerminal } = bootProgram();
  leaveHungUpTerminals();
  // stdout's failures are the program's to report (src/output/stdout-watch.ts). stderr has nowhere to
  // report its own: a closed pipe ends the run quietly, any other failure (a terminal that went away)
  // is ignored rather than crashing a run that may still be writing its result.
  process.stderr.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
  });
  const io = {
    // process.stdin is created on first use: most commands never read it.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    // A question whose answer cannot come from stdin (a plan piped in) is asked on /dev/tty.
    openTty: openControllingTerminal,
  };
  main(argv, io).then((code) => {
    process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
  });
}

/**
 * At exit, Node restores the terminal settings of every standard stream that was a terminal when it
 * started, and aborts (SIGABRT/SIGSEGV, a native stack trace) if that terminal has since hung up (a closed
 * window or ssh session: tcsetattr fails with EIO). A run stopped by that hang-up (SIGHUP) must end with
 * its report and exit 129 instead: a stream whose terminal is gone is closed first, which Node's restore
 * skips.
 */
function leaveHungUpTerminals() {
  const { isatty } = require('node:tty');
  const terminals = [0, 1, 2].filter((fd) => isatty(fd));
  if (terminals.length === 0) return;
  process.on('exit', () => {
    for (const fd of terminals) {
      if (isatty(fd)) continue;
      try {
        fs.closeSync(fd);
      } catch {}
    }
  });
}

/**
 * `agency --version` and `agency [command...] --help` into a pipe or a file print the text the build
 * rendered with the program itself. At a terminal (or /dev/null) the program renders help for the
 * terminal's width; with FORCE_COLOR it may be coloured, so it is rendered too.
 */
function printFast(argv) {
  const text = fastText(argv, process.env);
  if (text === undefined || (!asksForVersion(argv) && !stdoutIsPipeOrFile())) return false;
  const buffer = Buffer.from(text);
  let offset = 0;
  try {
    while (offset < buffer.length) offset += fs.writeSync(1, buffer, offset);
  } catch (error) {
    if (error.code === 'EPIPE') return true;
    if (error.code === 'EAGAIN') {
      // A non-blocking pipe that is full: let the stream wait for the reader.
      process.stdout.write(buffer.subarray(offset));
      return true;
    }
    // A full disk or an I/O error: with nothing written yet, the program writes the text again and
    // reports the failure as every command does (src/output/stdout-watch.ts).
    if (offset === 0) return false;
    process.stderr.write(`error: The output could not be written to stdout whole: ${error.message}.\n`);
    process.exitCode = 1;
  }
  return true;
}

/**
 * What the build rendered for these arguments (the version, or a command's help as it is printed into a
 * pipe), or undefined when the program must answer. Exported for the test that compares it, command by
 * command, with what the program prints (test/e2e/fast-paths.test.ts).
 */
function fastText(argv, env) {
  const version = asksForVersion(argv);
  const last = argv[argv.length - 1];
  if (!version && last !== '--help' && last !== '-h') return undefined;
  let texts;
  try {
    texts = require('../dist/fast.cjs');
  } catch {
    return undefined;
  }
  if (version) return texts.version;
  if (env.FORCE_COLOR !== undefined || env.CLICOLOR_FORCE !== undefined) return undefined;
  const words = argv.slice(0, -1).join(' ');
  const text = texts.help[words];
  return words === '' && text !== undefined ? withConfigFile(text, texts.configFileLine, env) : text;
}

function asksForVersion(argv) {
  return argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V' || argv[0] === 'version');
}

function stdoutIsPipeOrFile() {
  let stat;
  try {
    stat = fs.fstatSync(1);
  } catch {
    return false;
  }
  return stat.isFIFO() || stat.isSocket() || stat.isFile();
}

/**
 * `agency --help` names the config file of this system: the build rendered it with a stand-in line. A
 * path the program would print otherwise (longer than the 80 columns of piped help, or not plain ASCII,
 * which it measures differently) is left to the program.
 */
function withConfigFile(text, standIn, env) {
  let file;
  try {
    const { configDirectory, configFileIn } = require('../dist/config-path.cjs');
    file = configFileIn(configDirectory(env, process.platform));
  } catch {
    return undefined;
  }
  const line = `Config file: ${file}`;
  if (line.length > 80 || !/^[\x20-\x7e]*$/.test(line) || !text.includes(standIn)) return undefined;
  return text.replace(standIn, () => line);
}

/**
 * Sets the build's V8 flags, before any bundle is compiled (they are part of a code cache's checksum), and
 * loads the program.
 */
function bootProgram() {
  boot ??= require('../dist/boot.cjs');
  if (boot.v8Flags.length > 0) require('node:v8').setFlagsFromString(boot.v8Flags.join(' '));
  return loadBundle('cli.cjs');
}

/**
 * Loads dist/<name> like require() does, compiled from dist/cache/<name>.<build id> when the build left one
 * (V8 checks it fits this Node and these flags, and compiles from source if not). Bundles require each
 * other as './x.cjs'.
 */
function loadBundle(name) {
  const known = bundles.get(name);
  if (known) return known.module.exports;
  boot ??= require('../dist/boot.cjs');
  const vm = require('node:vm');
  const file = path.join(DIST, name);
  let cachedData;
  if (boot.cache) {
    try {
      cachedData = fs.readFileSync(path.join(DIST, 'cache', `${name}.${boot.buildId}`));
    } catch {}
  }
  const wrapper = `(function (exports, require, module, __filename, __dirname) {${fs.readFileSync(file, 'utf8')}\n})`;
  // Named inside the package, not by its path: a script compiled from a code cache keeps the name it
  // had when the build made the cache, so an absolute path would be the build machine's.
  const script = new vm.Script(wrapper, { filename: `agency-cli/dist/${name}`, cachedData });
  const module = { exports: {} };
  bundles.set(name, { module, script });
  const requireFrom = (id) => (id.startsWith('./') ? loadBundle(id.slice(2)) : require(id));
  script.runInThisContext().call(module.exports, module.exports, requireFrom, module, file, DIST);
  return module.exports;
}

/** For the build: the scripts compiled so far, to write their code caches. */
function loadedBundles() {
  return [...bundles].map(([name, { script }]) => ({ name, script }));
}
