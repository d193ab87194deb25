/**
 * SIGINT, SIGTERM and SIGHUP (a closed terminal or ssh session) all stop a run the same way (contract,
 * "Output failures and signals"): nothing new starts, what is in flight is awaited and reported, and the
 * exit is 128 + the signal's number (130, 143, 129). A second Ctrl-C or SIGTERM, or a command still busy
 * after 10 s, ends the process at once.
 */
import { ExitCode } from './errors.js';

/** The exit code of a run stopped by each signal. */
const SIGNAL_EXIT = { SIGHUP: 129, SIGINT: ExitCode.interrupted, SIGTERM: 143 } as const;
export type StopSignal = keyof typeof SIGNAL_EXIT;
const STOP_SIGNALS = Object.keys(SIGNAL_EXIT) as StopSignal[];

export interface SignalWatch {
  /** The exit code for a run that ended with `code`: an interrupted run's is the signal's. */
  exitCode(code: number): number;
  /** Stops listening. */
  stop(): void;
}

/**
 * `beforeExit`: what must happen even when the process is ended at once (a progress line cleared).
 * `first`: called with the first signal, before the run is stopped.
 */
export function onStopSignals(
  abort: () => void,
  beforeExit: () => void = () => {},
  first: (signal: StopSignal) => void = () => {},
): SignalWatch {
  let received: StopSignal | undefined;
  const handler = (signal: StopSignal) => {
    const again = received !== undefined;
    // A closed terminal hangs up more than once (the kernel, the shell passing it on to its job, the
    // terminal program): not a person insisting, so the run still ends with its report.
    if (again && signal === 'SIGHUP') return;
    if (!again) first(signal);
    received ??= signal;
    abort();
    const code = SIGNAL_EXIT[received];
    const exit = () => {
      beforeExit();
      process.exit(code);
    };
    if (again) exit();
    setTimeout(exit, 10_000).unref();
  };
  for (const signal of STOP_SIGNALS) process.on(signal, handler);
  return {
    exitCode: (code) =>
      received !== undefined && code === ExitCode.interrupted ? SIGNAL_EXIT[received] : code,
    stop: () => {
      for (const signal of STOP_SIGNALS) process.off(signal, handler);
    },
  };
}
