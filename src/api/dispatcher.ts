/**
 * The connection pool every request of a client goes through: undici's Agent, or with a proxy for the
 * base URL its EnvHttpProxyAgent (proxy.ts picks the variable). Only http.ts uses it.
 */
import { Agent, type Dispatcher, EnvHttpProxyAgent } from 'undici';
import type { HttpOptions } from './http.js';
import { type ProxySettings, proxyToken, redactedProxy } from './proxy.js';

/** The largest answer read by default: a bigger one is "not understood", not a crash. */
export const MAX_ANSWER_BYTES = 128 * 1024 * 1024;

export function createDispatcher(
  options: HttpOptions,
  depth: number,
  debug: ((line: string) => void) | undefined,
): Dispatcher {
  const agent: Agent.Options = {
    // A ceiling: each account worked on at once may have `depth` requests in flight. Connections are
    // opened only as requests need them (one per request in flight), see http.ts attempt().
    connections: Math.max(1, options.connections ?? 1) * depth,
    pipelining: 1,
    keepAliveTimeout: 10_000,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connectTimeout: Math.min(options.timeoutMs, 10_000),
    maxResponseSize: options.maxAnswerBytes ?? MAX_ANSWER_BYTES,
  };
  const { proxy } = options;
  if (!proxy) return new Agent(agent);
  debug?.(
    `proxy ${redactedProxy(proxy.url)} (${proxy.variable})${proxy.noProxy ? `, NO_PROXY=${proxy.noProxy}` : ''}`,
  );
  return proxyAgent(agent, proxy, options.baseUrl);
}

/**
 * undici's EnvHttpProxyAgent, told the one variable that applies to the base URL's scheme (so an https
 * base URL never falls back to HTTP_PROXY, as curl and gh do not) and NO_PROXY, which it matches.
 * Plain http is forwarded to the proxy (absolute URI), https tunnelled with CONNECT.
 */
function proxyAgent(agent: Agent.Options, proxy: ProxySettings, baseUrl: string): Dispatcher {
  const https = baseUrl.startsWith('https:');
  const token = proxyToken(proxy.url);
  return new EnvHttpProxyAgent({
    ...agent,
    httpProxy: https ? '' : proxy.url.href,
    httpsProxy: https ? proxy.url.href : '',
    noProxy: proxy.noProxy,
    proxyTunnel: false,
    ...(token ? { token } : {}),
  });
}
