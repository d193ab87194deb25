/**
 * The process: one run of a command line (src/program.ts's execute) with the process's signals and
 * stdout watch around it, and its outcome turned into text on stderr and an exit code. The commands
 * are registered in src/commands/index.ts; each one's file is loaded only when that command runs.
 */
import { startRun } from './api/limit.js';
import { type Environment, readEnvironment } from './context.js';
import { reportError } from './output/error-report.js';
import { StdoutWatch } from './output/stdout-watch.js';
import { terminalSafe } from './output/text.js';
import type { Writer } from './output/writer.js';
import { execute, type RunOutcome } from './program.js';
import type { IO, Transport } from './runtime.js';
import { onStopSignals } from './stop-signals.js';

export { openControllingTerminal } from './input/controlling-terminal.js';
export { buildProgram } from './program.js';
export type { IO } from './runtime.js';

/** `transport` replaces the HTTP layer (tests: a registry of expected requests, test/helpers/http-mock.ts). */
export async function main(argv: string[], io: IO, transport?: Transport): Promise<number> {
  startRun(); // a 429 of an earlier run in this process must not slow this one down
  const interrupt = new AbortController();
  const environment = readEnvironment(io);
  const writers: Writer[] = [];
  const clearProgress = () => {
    for (const out of writers) out.clearProgress();
  };
  // A signal or a stdout that cannot be written stops the run (nothing new starts); a spinner is cleared.
  const signals = onStopSignals(
    () => interrupt.abort(),
    clearProgress,
    (signal) => signal === 'SIGINT' && endEchoedLine(io, environment),
  );
  const stdout = new StdoutWatch(io.stdout);
  stdout.onFailure(() => interrupt.abort());
  let outcome: RunOutcome;
  try {
    outcome = await execute(argv, io, {
      signal: interrupt.signal,
      environment,
      transport,
      onOutput: (out) => writers.push(out),
      stdout,
    });
  } finally {
    signals.stop();
  }
  // After stdout failed, that failure is the news (the error is most likely the stop it caused).
  const code = outcome.error === undefined || stdout.failed ? outcome.code : report(outcome);
  await stdout.flushed();
  return stdout.exitCode(
    signals.exitCode(stdout.failed ? 0 : code),
    (error) => reportError(outcome.output(), error),
    // The writer says nothing after a closed pipe; this note (what it cost) is written past it.
    (text) => io.stderr.write(terminalSafe(text)),
  );
}

/**
 * Ctrl-C at a terminal: the terminal has echoed `^C` where the cursor was, after the last line printed
 * (every line is ended; a question ends its own) or on the progress line. That line is cleared, so that
 * what follows (rows in flight, "Interrupted after …") starts at its start, not after `^C`. Without
 * cursor control (TERM=dumb) a new line does it.
 */
function endEchoedLine(io: IO, environment: Environment): void {
  const terminal = io.stderr.isTTY ? io.stderr : io.stdout.isTTY ? io.stdout : undefined;
  terminal?.write(environment.dumbTerminal ? '\n' : '\r\u001b[2K');
}

/** The error that ended the run, as text on stderr (and the --json object), through the run's writer; its exit code. */
function report(outcome: RunOutcome): number {
  return reportError(outcome.output(), outcome.error, {
    debug: outcome.flags.debug === true,
    printed: outcome.printed,
    ...(outcome.hint ? { hint: outcome.hint } : {}),
  });
}
