/** How a fleet command reports the failures of single rows and turns them into one exit code. */
import { AgencyError, ExitCode, InterruptedError, PartialFailureError } from '../errors.js';

/** The reason a row failed, as it appears in `--json` (`error`) and as the fifth TSV field. */
export interface RowError {
  /** HTTP status when the service answered; null for local and network errors. */
  status: number | null;
  message: string;
}

export function rowError(error: AgencyError): RowError {
  return { status: error.status, message: error.message };
}

/**
 * A failure that belongs to one row (one company, one key, one webhook): the run goes on.
 * Interrupts and programming errors are not row failures; they stop the run.
 */
export function isRowFailure(error: unknown): error is AgencyError {
  return error instanceof AgencyError && !(error instanceof InterruptedError);
}

/** The exit code the failures share, else 1 (contract, "Fleet changes"). */
export function sharedExitCode(codes: readonly ExitCode[]): ExitCode {
  const [first] = codes;
  if (first === undefined) return ExitCode.ok;
  return codes.every((code) => code === first) ? first : ExitCode.failure;
}

/** The error a command throws after printing its rows when some of them failed. */
export function rowsFailed(
  failed: number,
  total: number,
  codes: readonly ExitCode[],
  noun = 'change',
): PartialFailureError {
  return new PartialFailureError(
    `${failed} of ${total} ${total === 1 ? noun : `${noun}s`} failed (see the rows marked failed).`,
    sharedExitCode(codes),
  );
}
