/**
 * The one place an error becomes text: the human "error: … / hint: …" lines and, with --json, the
 * `{"error": {...}}` object on stderr (written inert, like stdout's JSON). No command writes an error
 * itself; the process (src/cli.ts) reports the error that ends a run, and a command that goes on past a failure (one
 * company of many) reports that failure here too.
 */
import { AgencyError, ExitCode, InterruptedError, OutcomeExit } from '../errors.js';
import { render } from '../terms.js';
import type { Writer } from './writer.js';

export interface ReportOptions {
  /** Replaces the error's message in the human line and the JSON object (e.g. prefixed with the company). */
  message?: string;
  /** Replaces the error's hint (undefined: no hint). */
  hint?: string | undefined;
  /** Fields put first in the JSON error object, e.g. {company_id: 1042}. */
  fields?: Record<string, unknown>;
  /** The human line was already printed (commander prints its own usage errors). */
  printed?: boolean;
  /** With --debug, the stack of an internal error. */
  debug?: boolean;
}

/** Reports `error` on stderr and returns the exit code it stands for. */
export function reportError(out: Writer, error: unknown, options: ReportOptions = {}): ExitCode {
  if (!(error instanceof AgencyError)) {
    // A bug of ours: say so plainly, with the stack only when debugging.
    const message = error instanceof Error ? error.message : String(error);
    out.error(`unexpected internal error: ${message}`, 'Please report this with the output of --debug.');
    if (options.debug && error instanceof Error && error.stack) out.err(`${error.stack}\n`);
    if (out.json) out.errorObject({ error: { status: null, title: null, detail: null, message } });
    return ExitCode.failure;
  }
  const message = render(options.message ?? error.message);
  if (error instanceof OutcomeExit) {
    if (!options.printed) out.info(message);
    return error.exitCode;
  }
  if (!options.printed) {
    if (error instanceof InterruptedError) out.info('Interrupted.');
    else out.error(message, 'hint' in options ? options.hint : usefulHint(error));
  }
  if (out.json) {
    out.errorObject({
      error: {
        ...options.fields,
        status: error.status,
        title: error.title ?? null,
        detail: error.detail ?? null,
        message,
      },
    });
  }
  return error.exitCode;
}

/** A hint that only repeats the service's detail is noise. */
function usefulHint(error: AgencyError): string | undefined {
  const { hint } = error;
  if (hint === undefined) return undefined;
  return error.message.toLowerCase().includes(hint.replace(/\.$/, '').toLowerCase()) ? undefined : hint;
}
