'use strict';
// The command tree of the built program, walked in one place for everything generated from it: the
// piped --help texts of dist/fast.cjs (scripts/build.mjs) and the reference and man pages
// (scripts/gen-docs.mjs). A command added to the tree appears in all of them.

/** A stream that is not a terminal (help width 80) and hands what is written to `write`. */
const sink = (write) => ({
  isTTY: false,
  write: (text, cb) => {
    write(String(text));
    if (typeof cb === 'function') cb();
    return true;
  },
});

/** The built program behind `bin` (bin/agency.js): its `main`, and the whole tree with no actions. */
async function loadProgram(bin, configFile) {
  const { main, buildProgram } = require(bin).bootProgram();
  const quiet = sink(() => {});
  const program = await buildProgram(
    { stdout: quiet, stderr: quiet },
    () => async () => {},
    undefined,
    configFile,
  );
  return { main, program };
}

/** Every command under `program` (depth first, in help order) with its words: ['keys', 'create']. */
function walkCommands(program) {
  const found = [];
  const walk = (command, words) => {
    for (const sub of command.commands) {
      if (sub.name() === 'help') continue;
      found.push({ words: [...words, sub.name()], command: sub });
      walk(sub, [...words, sub.name()]);
    }
  };
  walk(program, []);
  return found;
}

/** What `agency <argv>` prints into a pipe, run in this process with no settings of the user's. */
async function render(main, argv, env = {}) {
  let text = '';
  let errors = '';
  const io = {
    stdin: process.stdin,
    stdout: sink((s) => (text += s)),
    stderr: sink((s) => (errors += s)),
    env,
  };
  const code = await main(argv, io);
  if (code !== 0 || errors) throw new Error(`agency ${argv.join(' ')}: exit ${code} ${errors}`);
  return text;
}

module.exports = { loadProgram, walkCommands, render };
