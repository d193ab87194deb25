/**
 * Every test run gets a temporary directory of its own (TMPDIR, so os.tmpdir() and every spawned
 * binary use it), and the run fails if a test left anything in it: a test must clean up what it makes
 * (some of it holds config files with keys).
 */
import { mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  // Each project of vitest.config.ts runs this; the first one makes the directory and checks it.
  if (process.env.TEST_RUN_TMPDIR !== undefined) return () => {};
  const outer = tmpdir();
  const run = realpathSync(mkdtempSync(join(outer, 'agency-test-run-')));
  const before = { TMPDIR: process.env.TMPDIR, TMP: process.env.TMP, TEMP: process.env.TEMP };
  process.env.TEST_RUN_TMPDIR = run;
  process.env.TMPDIR = run;
  process.env.TMP = run;
  process.env.TEMP = run;
  return () => {
    delete process.env.TEST_RUN_TMPDIR;
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    const left = readdirSync(run);
    rmSync(run, { recursive: true, force: true });
    if (left.length > 0) {
      // A throw here is only logged by vitest ("error during close"); the exit code must say it too.
      process.exitCode = 1;
      throw new Error(
        `The tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temporary directory ` +
          `(removed now): ${left.sort().join(', ')}. A test must remove what it creates.`,
      );
    }
  };
}
