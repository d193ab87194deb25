/**
 * What a failed connection or body was, in the user's words ("connection refused", "host not found"),
 * for messages and the --debug trace.
 */
import { errors as undiciErrors } from 'undici';

/** undici's answer-size limit, or a body longer than a string can hold. */
export function isTooLarge(error: unknown): boolean {
  return (
    (error as { code?: string }).code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE' ||
    (error instanceof RangeError && /string length/i.test(error.message))
  );
}

export function describeNetworkError(error: unknown): string {
  if (error instanceof undiciErrors.UndiciError || error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    const cause = (error as { cause?: NodeJS.ErrnoException }).cause;
    const causeCode = cause?.code;
    if (causeCode === 'ECONNREFUSED' || code === 'ECONNREFUSED') return 'connection refused';
    if (causeCode === 'ECONNRESET' || code === 'ECONNRESET') return 'connection reset by the server';
    if (code === 'ETIMEDOUT') return error.message;
    if (code === 'UND_ERR_SOCKET') return 'the connection closed before any answer arrived';
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
      return 'timed out waiting for the service';
    if (code === 'ENOTFOUND' || causeCode === 'ENOTFOUND') return 'host not found';
    if (error.name === 'HTTPParserError') return `the answer was not valid HTTP: ${error.message}`;
    return error.message || String(code ?? error);
  }
  return String(error);
}
