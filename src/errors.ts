/**
 * Errors are values with a kind. A host turns them into text: the process through
 * src/output/error-report.ts (the human line and the --json object), `agency mcp` into a tool error
 * (src/mcp/call.ts); each kind carries its exit code. So every module can throw the precise kind and
 * leave presentation to the host.
 */
import { render } from './terms.js';

export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  conflict: 5,
  /** `plan --exit-code`: the agency differs from the file. */
  changesPending: 6,
  /** `health`: a problem at or above --fail-on was found. */
  problemsFound: 7,
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export interface ErrorDetails {
  hint?: string | undefined;
  cause?: unknown;
  /** The service's own words, when it answered: v2 `title`/`detail`, v1 `code`/`msg`. */
  title?: string | undefined;
  detail?: string | undefined;
}

export abstract class AgencyError extends Error {
  abstract readonly exitCode: ExitCode;
  /** HTTP status when the service answered; null for local and network errors. */
  readonly status: number | null = null;
  /** In the command line's terms (src/terms.ts); `text` and `hintText` keep the references for other hosts. */
  readonly hint: string | undefined;
  readonly text: string;
  readonly hintText: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;

  constructor(message: string, options?: ErrorDetails) {
    super(render(message), options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.text = message;
    this.hintText = options?.hint;
    this.hint = options?.hint === undefined ? undefined : render(options.hint);
    this.title = options?.title;
    this.detail = options?.detail;
  }
}

/** The base of the kinds of error that differ from the others by their exit code alone. */
function exitingWith(code: ExitCode) {
  return class extends AgencyError {
    readonly exitCode = code;
  };
}

/** Bad input found locally: nothing was sent. */
export class UsageError extends exitingWith(ExitCode.usage) {}

/** The config file could not be read or is damaged; it is left untouched. */
export class ConfigError extends exitingWith(ExitCode.usage) {}

/** No API key is available for the profile. */
export class MissingKeyError extends exitingWith(ExitCode.auth) {}

/** The service answered with an error status. */
export class ApiError extends AgencyError {
  override readonly status: number;
  readonly exitCode: ExitCode;

  constructor(
    message: string,
    init: {
      status: number;
      /** The status the answer means, when its code says more than its status (a v1 E_SESSION → 401). */
      meaning?: number | undefined;
      title?: string | undefined;
      detail?: string | undefined;
      hint?: string | undefined;
    },
  ) {
    super(message, { hint: init.hint, title: init.title, detail: init.detail });
    this.status = init.status;
    this.exitCode = exitCodeForStatus(init.meaning ?? init.status);
  }
}

/** The service answered, but not with something we understand (HTML page, truncated JSON, wrong shape). */
export class ResponseError extends exitingWith(ExitCode.failure) {
  override readonly status: number | null;
  constructor(message: string, status: number | null, options?: ErrorDetails) {
    super(message, options);
    this.status = status;
  }
}

/** No answer: connection refused, reset, timed out (after retries where allowed). */
export class NetworkError extends exitingWith(ExitCode.failure) {}

/**
 * No answer through a proxy: the proxy refused or could not be reached. Its hint is about the proxy
 * variables; the "is the sandbox running?" hint of a refused local connection does not apply.
 */
export class ProxyFailure extends NetworkError {}

/**
 * The history store (history.db) could not be read or written: `damaged` (not a SQLite file, or one that
 * fails its check; left as it is), `unwritable` (a full disk, a read-only directory), `busy` (another
 * run held it too long). A command that records only warns; `agency history` fails with it.
 */
export class HistoryError extends exitingWith(ExitCode.failure) {
  constructor(
    readonly kind: 'damaged' | 'unwritable' | 'busy',
    message: string,
    options?: ErrorDetails,
  ) {
    super(message, options);
  }
}

/** The result could not be written (stdout or an output file failed): it is not lost silently. */
export class OutputError extends exitingWith(ExitCode.failure) {}

/** Ctrl-C, SIGTERM or SIGHUP. */
export class InterruptedError extends exitingWith(ExitCode.interrupted) {
  constructor() {
    super('Interrupted');
  }
}

/**
 * Not a failure: the run ended as it should, with an exit code that tells a script something (health
 * found problems at or above --fail-on: 7; the user declined apply's question: 1). Its message is a
 * plain line on stderr, like a summary, never "error: …", and --json writes no error object for it.
 */
export class OutcomeExit extends AgencyError {
  readonly exitCode: ExitCode;
  constructor(message: string, exitCode: ExitCode) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** Several independent operations ran and at least one failed; the details were already reported. */
export class PartialFailureError extends AgencyError {
  readonly exitCode: ExitCode;
  /** The service's status when every failure had the same one (the --json error names it); else null. */
  override readonly status: number | null;
  constructor(
    message: string,
    exitCode: ExitCode = ExitCode.failure,
    status: number | null = null,
    hint?: string | undefined,
  ) {
    super(message, { hint });
    this.exitCode = exitCode;
    this.status = status;
  }
}

/** An error's text with its references (src/terms.ts), to be said again inside another message. */
export function textOf(error: unknown): string {
  if (error instanceof AgencyError) return error.text;
  return error instanceof Error ? error.message : String(error);
}

/** The status every failure shares, or null (mixed, or some failed without an answer). */
export function sharedStatus(statuses: readonly (number | null)[]): number | null {
  const [first] = statuses;
  if (first === undefined || first === null) return null;
  return statuses.every((status) => status === first) ? first : null;
}

/** Whether the error, or one of its causes, carries this system error code (ECONNREFUSED). */
export function hasCauseCode(error: unknown, code: string): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if ((e as { code?: unknown }).code === code) return true;
  }
  return false;
}

/** A refused connection (nothing listens there): the request never left this machine. */
export function connectionRefused(error: unknown): boolean {
  return hasCauseCode(error, 'ECONNREFUSED');
}

export function exitCodeForStatus(status: number): ExitCode {
  if (status === 401 || status === 403) return ExitCode.auth;
  if (status === 404) return ExitCode.notFound;
  if (status === 409) return ExitCode.conflict;
  return ExitCode.failure;
}
