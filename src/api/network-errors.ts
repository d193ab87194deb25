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

/** Certificate problems by OpenSSL's code: named, never retried, never worked around. */
const CERTIFICATE_PROBLEMS: Record<string, string> = {
  CERT_HAS_EXPIRED: 'has expired',
  CERT_NOT_YET_VALID: 'is not valid yet',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'was issued by a self-signed authority this machine does not trust',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'was issued by an authority this machine does not trust',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'cannot be verified: its issuer is not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'is for another host',
  CERT_REVOKED: 'was revoked',
};

/** The certificate problem of a failed TLS connection, or undefined when it is not one. */
export function certificateProblem(error: unknown): { code: string; words: string } | undefined {
  for (let e: unknown = error; e instanceof Error; e = (e as { cause?: unknown }).cause) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code && CERTIFICATE_PROBLEMS[code]) return { code, words: CERTIFICATE_PROBLEMS[code] };
  }
  return undefined;
}

export function describeNetworkError(error: unknown, host?: string): string {
  if (error instanceof undiciErrors.UndiciError || error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    const cause = (error as { cause?: NodeJS.ErrnoException }).cause;
    const causeCode = cause?.code;
    const certificate = certificateProblem(error);
    if (certificate)
      return `the TLS certificate of ${host ?? 'the server'} ${certificate.words} (${certificate.code})`;
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
