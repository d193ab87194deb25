import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const { version } = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8'));

// One queue of files for both projects (maxWorkers is one pool), slowest first by the last run's times
// whichever project they are in (SlowestFirst below), three workers more than the cores: the end-to-end files mostly wait for a spawned
// binary, a terminal or a slow sandbox, and the files that run the program in-process fill that time
// (on 2 cores: 68 s with 3 workers, 59 s with 5, no better with 7). End-to-end files run in child
// processes (forks), as signals and process-wide state want; the rest in worker threads. Both without
// isolation: a worker runs its files one after another in one module graph (a file removes what it adds
// to the process, as a run of the program does), so that a fork's start, vitest and src/ are paid once
// per worker, not once per file (e2e: 66 s -> 56 s of CPU).
const workers = availableParallelism() + 3;

/**
 * The slowest files first, whichever project they belong to (new files first of all). vitest's own order
 * queues one project's files after the other's: the in-process files, which keep the cores busy, started
 * only once every end-to-end file had, and the run ended on the longest of them with the cores half idle.
 */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const duration = (spec: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`)
        ?.duration ?? Number.POSITIVE_INFINITY;
    return [...files].sort((a, b) => duration(b) - duration(a) || 0);
  }
}

export default defineConfig({
  // As the build does (scripts/build.mjs): tests that run the program in-process see the real version.
  define: { __AGENCY_VERSION__: JSON.stringify(version) },
  test: {
    // Transformed modules are kept between runs (node_modules/.experimental-vitest-cache, keyed by each
    // file's content and this config): a run after a change transforms only what changed. `define` is
    // not in the transformed code (vitest sets it as a global), so the version never goes stale there.
    experimental: { fsModuleCache: true },
    // A temporary directory per run; the run fails if a test leaves anything in it. Processes that start
    // without this machine's extra certificates (each would parse them first).
    globalSetup: ['test/setup/temp-dir-guard.ts', 'test/setup/node-startup.ts'],
    sequence: { sequencer: SlowestFirst },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'in-process',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**'],
          pool: 'threads',
          // The files of a worker share one module graph: src/ is imported once per worker, not once per
          // file (a third of this project's time). The program is built to run many times in one process
          // (agency mcp does), and each run starts from its arguments, environment and config directory.
          isolate: false,
          maxWorkers: workers,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          pool: 'forks',
          isolate: false,
          maxWorkers: workers,
        },
      },
    ],
  },
});
