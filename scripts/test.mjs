// `npm test`: the build, then the suite (vitest), with the type check and the lint running beside both at
// a low priority. The suite needs the build (its end-to-end files spawn dist/); the checks need nothing,
// and the build and the suite leave some of the machine idle: run one after the other they added their
// whole time to the run's. Their output is held and printed after the suite's, each under
// a heading, so that the suite's report stays whole. The run fails when any of them fails. Arguments
// go to vitest (`npm test -- --reporter=json --outputFile=report.json`, as .ci/run does).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
// As `npm run` does: the project's binaries first on the PATH.
const env = {
  ...process.env,
  PATH: `${path.join(root, 'node_modules/.bin')}${path.delimiter}${process.env.PATH}`,
};

/**
 * Runs a command line through the shell; `held`: its output is kept and returned, not shown. `low`: at a
 * low priority (nice 10), so that it takes the CPU the others leave idle.
 */
function run(name, command, { held = false, low = false } = {}) {
  const started = Date.now();
  const [file, ...args] = [...(low ? ['nice', '-n', '10'] : []), 'sh', '-c', command];
  const child = spawn(file, args, {
    cwd: root,
    env,
    stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  // A command that cannot start (no `nice` or `sh` on this system) fails the run with its reason, not
  // with a crash of this script that loses the other parts' reports; 'close' follows with a code below 0.
  child.on('error', (error) => {
    if (held) output += `${error.message}\n`;
    else console.error(`${name}: ${error.message}`);
  });
  return new Promise((resolve) => {
    child.on('close', (code, signal) =>
      resolve({
        name,
        command,
        output,
        code: code ?? (signal ? 1 : 0),
        seconds: (Date.now() - started) / 1000,
      }),
    );
  });
}

function shellWord(word) {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

// Ctrl-C reaches the children too (one process group): wait for them, then report.
process.on('SIGINT', () => {});

// The checks at a low priority from the start, beside the build (which keeps one core busy) and the suite:
// they run in what those leave idle (nice 10 weighs a tenth of the others), barely slowing the build, which
// the suite waits for. Started after the build, at the same priority, they took CPU from the suite instead
// (npm test 41.9 s -> 40.3 s, the mean of three alternated runs each). The type check runs single-threaded
// (`tsc --singleThreaded` in package.json): beside the suite there is no idle core for its other threads,
// and alone it takes less CPU (1.1 s instead of 1.4 s; without its cache, as in a fresh clone, 2.3 s
// instead of 3.5 s).
const checks = ['typecheck', 'lint'].map((name) => run(name, scripts[name], { held: true, low: true }));
const build = await run('build', scripts.build);
const suite =
  build.code === 0
    ? await run('suite', ['vitest', 'run', ...process.argv.slice(2)].map(shellWord).join(' '))
    : undefined;

let failed = build.code !== 0 || (suite !== undefined && suite.code !== 0);
for (const check of await Promise.all(checks)) {
  const ok = check.code === 0;
  failed ||= !ok;
  const text = check.output.trimEnd();
  console.log(
    `\n${ok ? '✓' : '✗'} ${check.name} (${check.command}): ${ok ? 'passed' : `failed, exit ${check.code}`} in ${check.seconds.toFixed(1)} s`,
  );
  if (text) console.log(text);
}
if (build.code !== 0) console.log('\n✗ build failed: the suite did not run');
process.exitCode = failed ? 1 : 0;
