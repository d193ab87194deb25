import { readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative, sep } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const { version } = JSON.parse(readFileSync(new URL('package.json', import.meta.url), 'utf8'));

// One project, one kind of worker: every file runs in a child process (fork), as the end-to-end files
// need (signals, process-wide state, process.chdir), and without isolation: a worker runs its files one
// after another in one module graph (a file removes what it adds to the process, as a run of the program
// does), so a fork's start, vitest and src/ are paid once per worker for the whole run. vitest hands a
// finished worker the next file only if that file is of the same project and pool: with the in-process
// files in threads and the end-to-end ones in forks (two projects), the mixed queue below made it end a
// worker and start another for most files, 28 workers per run instead of 5 (one project: 84 s -> 73-79 s
// of CPU, vitest 43.6 s -> 37.6-40.5 s). Three workers more than the cores: the end-to-end files mostly
// wait for a spawned binary, a terminal or a slow sandbox, and the files that run the program in-process
// fill that time (on 2 cores: 68 s with 3 workers, 59 s with 5, no better with 7).
const workers = availableParallelism() + 3;

/**
 * Seconds each test file took in a run of the whole suite (test/durations.json, recorded by
 * `npm run test-times`): the order of a run that has no times of its own, as a fresh clone's (CI's). By their sizes alone, the files that mostly wait on the clock (a sandbox's latency, a retry's
 * backoff) were put last, 3-4 s each, and a fresh clone's run ended on them with a core idle.
 */
const TYPICAL_SECONDS = typicalSeconds();

/** test/durations.json, or none: the order rests on it, no result does, so a run goes on without it. */
function typicalSeconds(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(new URL('test/durations.json', import.meta.url), 'utf8'));
  } catch (error) {
    console.warn(`test/durations.json not read (${(error as Error).message}): files ordered by size`);
    return {};
  }
}

/**
 * Milliseconds a test file takes per kB of its source, by its folder under test/: what the suite's own
 * times were on 24 November 2026 (e2e 3.7 s per 10 kB, docs 6.5, sandbox 1.1, commands 0.8, the rest 0.3).
 * Only the order of a file with no time recorded at all rests on it: a file just added.
 */
const MS_PER_KB: Record<string, number> = { e2e: 380, docs: 650, sandbox: 110, commands: 80 };
const MS_PER_KB_ELSEWHERE = 30;

/**
 * The slowest files first, by the last run's times (else those of test/durations.json, else the estimate
 * above), so that the run does not end on a long file with the cores half idle.
 */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const duration = (spec: TestSpecification) => {
      const file = relative(this.ctx.config.root, spec.moduleId);
      const timed = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`)?.duration;
      if (timed !== undefined) return timed;
      const parts = file.split(sep);
      const typical = TYPICAL_SECONDS[parts.join('/')];
      if (typical !== undefined) return typical * 1000;
      const folder = parts[1] ?? '';
      return (statSync(spec.moduleId).size / 1024) * (MS_PER_KB[folder] ?? MS_PER_KB_ELSEWHERE);
    };
    const durations = new Map(files.map((spec) => [spec, duration(spec)]));
    return [...files].sort((a, b) => (durations.get(b) ?? 0) - (durations.get(a) ?? 0));
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
    globalSetup: ['test/setup/temp-dir-guard.ts', 'test/setup/node-startup.ts', 'test/setup/no-keyring.ts'],
    sequence: { sequencer: SlowestFirst },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    isolate: false,
    maxWorkers: workers,
  },
});
