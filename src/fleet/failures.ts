/**
 * How a run that goes on past the failure of single rows (companies, keys, webhooks) reports them at the
 * end: one error whose exit code and status are the ones every failure shares (contract, "Fleet changes").
 */
import { AgencyError, ExitCode, InterruptedError, PartialFailureError, sharedStatus } from '../errors.js';
import { failureReason, groupFailures } from '../output/summary.js';

/** The reason a row failed, as it appears in `--json` (`error`) and as the fifth TSV field. */
export interface RowError {
  /** HTTP status when the service answered; null for local and network errors. */
  status: number | null;
  message: string;
}

/**
 * The error of a run that stops at its first failed request (blacklist chunks, guest invitations),
 * thrown after its rows are printed: an interruption stays one (exit 130); any other failure is the
 * run's partial failure, with that request's exit code and status.
 */
export function runFailure(failure: AgencyError): AgencyError {
  if (failure instanceof InterruptedError) return failure;
  return new PartialFailureError(failure.message, failure.exitCode, failure.status, failure.hint);
}

export function rowError(error: AgencyError): RowError {
  return { status: error.status, message: error.message };
}

/** One failed row, as the closing error counts it. */
export interface RowFailure extends RowError {
  /** What failed: a company id, or a name where there is no id. */
  subject: string | number;
  exitCode: ExitCode;
  /** The words the closing summary groups it under, when the request's own would hide what it left behind. */
  reason?: string;
}

export function rowFailure(subject: string | number, error: AgencyError, reason?: string): RowFailure {
  return { subject, exitCode: error.exitCode, ...rowError(error), ...(reason ? { reason } : {}) };
}

/**
 * A failure that belongs to one row (one company, one key, one webhook): the run goes on.
 * Interrupts and programming errors are not row failures; they stop the run.
 */
export function isRowFailure(error: unknown): error is AgencyError {
  return error instanceof AgencyError && !(error instanceof InterruptedError);
}

/** The exit code the failures share, else 1. */
export function sharedExitCode(codes: readonly ExitCode[]): ExitCode {
  const [first] = codes;
  if (first === undefined) return ExitCode.ok;
  return codes.every((code) => code === first) ? first : ExitCode.failure;
}

/** "3 of 40 changes failed (see the rows marked failed)." */
export function failedCount(failed: number, total: number, noun: string): string {
  return `${failed} of ${total} ${total === 1 ? noun : `${noun}s`} failed (see the rows marked failed).`;
}

/**
 * The error a command throws after printing its rows when some of them failed: `headline`, then (unless
 * `grouped` is false) the failures grouped by reason, so that 111 refusals read as one line with the
 * companies under it; the exit code and the status every failure shares.
 */
export function rowsFailed(
  headline: string,
  failures: readonly RowFailure[],
  { grouped = true }: { grouped?: boolean } = {},
): PartialFailureError {
  const reasons = grouped
    ? groupFailures(failures.map((f) => ({ subject: f.subject, reason: f.reason ?? failureReason(f) })))
    : [];
  return new PartialFailureError(
    [headline, ...reasons.map((line) => `  ${line}`)].join('\n'),
    sharedExitCode(failures.map((f) => f.exitCode)),
    sharedStatus(failures.map((f) => f.status)),
  );
}
