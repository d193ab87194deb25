/**
 * The error of a request that got no (whole) answer, in the user's words: a refused or unknown proxy is
 * said of the proxy (nothing reached the service), a proxy's refusal names its answer, anything else
 * what happened on the way, with a hint for what to check. Part of the lazily loaded HTTP layer.
 */
import { connectionRefused, hasCauseCode, NetworkError, ProxyFailure } from '../errors.js';
import { option } from '../terms.js';
import { certificateProblem, describeNetworkError } from './network-errors.js';
import { localThroughProxyHint, type ProxySettings, proxyAddress, proxyRefusal } from './proxy.js';
import { type AnswerContext, failed, reasonPhrase } from './response.js';

/** The answer's status and headers arrived, but its body did not (connection closed, deadline passed). */
export class BodyError extends Error {
  readonly code: string | undefined;
  constructor(
    readonly status: number,
    readonly reason: string,
    cause: unknown,
  ) {
    super(reason, { cause });
    this.code = (cause as NodeJS.ErrnoException | undefined)?.code;
  }
}

export interface NoAnswerFacts {
  context: AnswerContext;
  attempts: number;
  /** A GET: it could not have changed anything. */
  idempotent: boolean;
  /** The proxy the request went through; undefined when direct (none set, or NO_PROXY). */
  proxy: ProxySettings | undefined;
}

export function noAnswer(error: unknown, facts: NoAnswerFacts): NetworkError {
  const { context, proxy } = facts;
  const { baseUrl } = context;
  const tries = facts.attempts > 1 ? ` (tried ${facts.attempts} times)` : '';
  const local = localThroughProxyHint(baseUrl, proxy);
  if (proxy) {
    const named = `the proxy ${proxyAddress(proxy.url)} (${proxy.variable})`;
    const refused = proxyRefusal(error);
    if (refused) {
      return new ProxyFailure(
        failed(context, `${named} refused: ${refused} ${reasonPhrase(refused)}`.trimEnd()),
        {
          // The proxy answered: its address and credentials come first, going direct second.
          hint: `Check ${proxy.variable} (the proxy's address, and user:password@ before it if it asks for them)${
            local ? `. ${local}` : ', or list this host in NO_PROXY.'
          }`,
          cause: error,
        },
      );
    }
    // Through a proxy, the only host the tool looks up and connects to is the proxy's.
    const unreachable = connectionRefused(error)
      ? 'refused the connection'
      : hasCauseCode(error, 'ENOTFOUND')
        ? 'was not found (no such host)'
        : undefined;
    if (unreachable) {
      return new ProxyFailure(
        failed(context, `${named} ${unreachable}; nothing reached the service${tries}`),
        {
          hint:
            local ??
            `Check ${proxy.variable}: is the proxy at ${proxyAddress(proxy.url)}? Or add ${new URL(baseUrl).hostname} to NO_PROXY to go direct.`,
          cause: error,
        },
      );
    }
  }
  const why =
    error instanceof BodyError
      ? `the service answered ${error.status}, but ${error.reason}`
      : describeNetworkError(error, new URL(baseUrl).host);
  const via = proxy ? ` through the proxy ${proxyAddress(proxy.url)} (${proxy.variable})` : '';
  const Failure = proxy ? ProxyFailure : NetworkError;
  return new Failure(failed(context, `${why}${via}${tries}`), {
    hint: certificateProblem(error)
      ? "The certificate is checked against the system's authorities and NODE_EXTRA_CA_CERTS, never skipped: a network with its own authority needs NODE_EXTRA_CA_CERTS=/path/to/its-ca.pem."
      : !facts.idempotent
        ? 'The service may or may not have processed this request: check before you run it again.'
        : error instanceof BodyError
          ? `The answer was cut short on the way (a proxy or an unstable connection); try again${context.debugging ? '' : `, or run with ${option('debug')}`}.`
          : (local ??
            `Check the base URL (${baseUrl})${proxy ? `, ${proxy.variable}` : ''} and your network.`),
    cause: error,
  });
}
