/**
 * `execute` (src/program.ts), the one run beneath both hosts: the error that ends a run is reported
 * through the run's own writer (the one the command wrote with), and every writer of a run shares the
 * host's watch of stdout, so that what became of stdout is known to all of them.
 */
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AgencyError, UsageError } from '../../src/errors.js';
import { reportError } from '../../src/output/error-report.js';
import { StdoutWatch } from '../../src/output/stdout-watch.js';
import type { Writer } from '../../src/output/writer.js';
import { execute } from '../../src/program.js';
import { testDir } from '../helpers/temp-dir.js';

function io() {
  let stdout = '';
  let stderr = '';
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk, _encoding, done) {
        append(String(chunk));
        done();
      },
    });
  const dir = testDir('agency-execute-');
  return {
    streams: {
      stdin: new PassThrough(),
      stdout: sink((t) => {
        stdout += t;
      }),
      stderr: sink((t) => {
        stderr += t;
      }),
      env: { AGENCY_CONFIG_DIR: join(dir, 'config'), AGENCY_NO_HISTORY: '1' },
    },
    stdout: () => stdout,
    stderr: () => stderr,
  };
}

describe('execute', () => {
  it("reports through the run's own writer: the one the command opened", async () => {
    const run = io();
    const opened: Writer[] = [];
    // No key: the context fails once the command has started, after its writer was opened.
    const outcome = await execute(['me'], run.streams, {
      signal: new AbortController().signal,
      onOutput: (out) => opened.push(out),
    });
    expect(outcome.error).toBeInstanceOf(AgencyError);
    expect(outcome.code).toBe(3);
    expect(opened).toHaveLength(1);
    expect(outcome.output()).toBe(opened[0]);
    expect(outcome.output()).toBe(outcome.output());
  });

  it('a run that ended before a command started gets a writer with the parsed flags (--json)', async () => {
    const run = io();
    const opened: Writer[] = [];
    const outcome = await execute(['--json', 'companies', 'list', '--nope'], run.streams, {
      signal: new AbortController().signal,
      onOutput: (out) => opened.push(out),
    });
    expect(outcome.error).toBeInstanceOf(UsageError);
    expect(opened).toHaveLength(0);
    const out = outcome.output();
    expect(out.json).toBe(true);
    expect(reportError(out, outcome.error, { printed: outcome.printed })).toBe(2);
    expect(JSON.parse(run.stderr().trim().split('\n').at(-1) ?? '')).toMatchObject({
      error: { message: expect.stringContaining('--nope') },
    });
  });

  it("the host's stdout watch is the run's: what a writer of the run created, the host's watch names", async () => {
    const run = io();
    const watch = new StdoutWatch(run.streams.stdout);
    const outcome = await execute(['me'], run.streams, {
      signal: new AbortController().signal,
      stdout: watch,
    });
    outcome.output().created({ what: 'company 1042 "Acme Ltd"', readBack: 'agency companies view 1042' });
    // The reader leaves (EPIPE) before the line was shown: the host says what was created all the same.
    run.streams.stdout.emit(
      'error',
      Object.assign(new Error('EPIPE: broken pipe, write'), { code: 'EPIPE' }),
    );
    const notes: string[] = [];
    expect(
      watch.exitCode(
        0,
        () => 1,
        (text) => notes.push(text),
      ),
    ).toBe(0);
    expect(notes.join('')).toContain('company 1042 "Acme Ltd"');
  });
});
