// test/durations.json: how long each test file took in the last run of the suite on this machine (vitest
// keeps it in node_modules/.vite/vitest/), in seconds. vitest.config.ts orders a run by these times where
// the run has none of its own (a fresh clone, as CI's): the slowest files first, so that the run does not
// end on a long one with a core idle. Only the order rests on it: a stale or missing entry costs time, not
// a result. A time that moved by less than a third (or half a second) keeps its old value, so that the file
// changes only when a file's time really did. Run by `npm run test-times`, after a run of the whole
// suite: when the results vitest kept do not cover every test file it refuses.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { report, syncFiles } from './docs/files.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = 'test/durations.json';
const CACHE = path.join(root, 'node_modules/.vite/vitest');

/** The newest results vitest kept: test file → milliseconds. */
function lastRun() {
  if (!existsSync(CACHE)) return new Map();
  const files = readdirSync(CACHE)
    .map((dir) => path.join(CACHE, dir, 'results.json'))
    .filter((file) => existsSync(file))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (files.length === 0) return new Map();
  const { results } = JSON.parse(readFileSync(files[0], 'utf8'));
  return new Map(results.map(([key, { duration }]) => [key.replace(/^[^:]*:/, ''), duration]));
}

const run = lastRun();
const testFiles = readdirSync(path.join(root, 'test'), { recursive: true }).filter((f) =>
  String(f).endsWith('.test.ts'),
);
if (run.size < testFiles.length) {
  console.error(
    `Test times: the last run had ${run.size} of ${testFiles.length} test files; record them after a whole run (\`npm run test-times\`).`,
  );
  process.exit(1);
}
const file = path.join(root, OUT);
const recorded = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
const times = {};
for (const test of [...new Set([...Object.keys(recorded), ...run.keys()])].sort()) {
  if (!existsSync(path.join(root, test))) continue;
  const measured = run.get(test);
  const kept = recorded[test];
  const seconds = measured === undefined ? undefined : Math.round(measured / 100) / 10;
  times[test] =
    seconds === undefined || (kept !== undefined && Math.abs(seconds - kept) < Math.max(kept / 3, 0.5))
      ? kept
      : seconds;
}
report(syncFiles(root, new Map([[OUT, `${JSON.stringify(times, null, 2)}\n`]])), {
  check: false,
  what: 'Test times',
  fix: 'npm run test-times',
});
