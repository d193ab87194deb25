/**
 * The proxy conventions of curl and gh (contract, "Network"): HTTPS_PROXY for an https base URL,
 * HTTP_PROXY for an http one (lower-case forms first, as curl and undici read them), NO_PROXY to go
 * direct. undici's EnvHttpProxyAgent does the routing and NO_PROXY matching (http.ts); this module picks
 * the variable, reads its URL, and says everything about it with the credentials redacted.
 * docs/network.md lists what differs from curl.
 */
import type { Env } from '../context.js';
import { UsageError } from '../errors.js';

/** The proxy variables as the environment holds them: [name, value] of the form that is set. */
export interface ProxyEnvironment {
  https?: readonly [name: string, value: string] | undefined;
  http?: readonly [name: string, value: string] | undefined;
  noProxy?: string | undefined;
}

/** The proxy the run's requests go through (NO_PROXY still sends matching hosts direct). */
export interface ProxySettings {
  url: URL;
  /** The variable it came from, for messages: "HTTPS_PROXY". */
  variable: string;
  noProxy: string;
}

/** Lower case first, then upper case; an empty value counts as unset. */
function pick(env: Env, name: string): readonly [string, string] | undefined {
  for (const variant of [name.toLowerCase(), name]) {
    const value = env[variant]?.trim();
    if (value) return [variant, value];
  }
  return undefined;
}

export function readProxyEnvironment(env: Env): ProxyEnvironment {
  return {
    https: pick(env, 'HTTPS_PROXY'),
    http: pick(env, 'HTTP_PROXY'),
    noProxy: pick(env, 'NO_PROXY')?.[1],
  };
}

/** The proxy for this base URL, or undefined to go direct. A proxy that is not a URL is exit 2. */
export function proxyFor(baseUrl: string, env: ProxyEnvironment): ProxySettings | undefined {
  const chosen = baseUrl.startsWith('https:') ? env.https : env.http;
  if (!chosen) return undefined;
  const [variable, value] = chosen;
  // `proxy.example.com:3128` without a scheme means http://, as curl reads it.
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(
      `${variable} is not a proxy URL: ${redactText(value)} (${whatIsWrong(text)}); nothing was sent.`,
      {
        hint: `Set it like ${variable}=http://proxy.example.com:3128 (user:password@ before the host if it needs them).`,
      },
    );
  }
  if (!['http:', 'https:', 'socks5:', 'socks:'].includes(url.protocol)) {
    throw new UsageError(
      `${variable} has the scheme ${url.protocol}, which is not a proxy's; nothing was sent.`,
      {
        hint: 'Use http://, https:// or socks5://.',
      },
    );
  }
  return { url, variable, noProxy: env.noProxy ?? '' };
}

/** Why a proxy value is not a URL, in a few words (the credentials are never quoted). */
function whatIsWrong(text: string): string {
  const afterScheme = text.replace(/^[^:]*:\/\//, '');
  const authority = afterScheme.split(/[/?#]/)[0] ?? '';
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  if (/\s/.test(text)) return 'it contains a space';
  if (hostPort === '' || hostPort.startsWith(':')) return 'it has no host';
  const port = /:([^:\]]*)$/.exec(hostPort)?.[1];
  if (port !== undefined && !/^\d+$/.test(port)) return `its port "${port}" is not a number`;
  if (port !== undefined && Number(port) > 65535) return `its port ${port} is above 65535`;
  return 'expected scheme://host:port';
}

/** host:port of the proxy, never its credentials: what messages name. */
export function proxyAddress(url: URL): string {
  const port = url.port || DEFAULT_PORTS[url.protocol] || '';
  return port ? `${url.hostname}:${port}` : url.hostname;
}

const DEFAULT_PORTS: Record<string, string> = {
  'http:': '80',
  'https:': '443',
  'socks:': '1080',
  'socks5:': '1080',
};

/**
 * Whether NO_PROXY sends this base URL direct, matched exactly as undici's EnvHttpProxyAgent (which
 * routes the requests) matches it: `*`; a host and its subdomains (`example.com`, `.example.com` and
 * `*.example.com` alike), with `:port` optionally.
 */
export function bypassesProxy(baseUrl: string, noProxy: string): boolean {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return false;
  }
  if (noProxy.trim() === '*') return true;
  const hostname = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = url.port || DEFAULT_PORTS[url.protocol] || '';
  for (const entry of noProxy.split(/[,\s]/).filter(Boolean)) {
    const [, host = entry, entryPort] = /^(.+):(\d+)$/.exec(entry) ?? [];
    if (entryPort && Number(entryPort) !== Number(port)) continue;
    const name = host.replace(/^\*?\./, '').toLowerCase();
    if (hostname === name || hostname.endsWith(`.${name}`)) return true;
  }
  return false;
}

/**
 * A base URL on this machine (the sandbox) whose requests a proxy variable sends through a proxy, which
 * cannot reach this machine's 127.0.0.1: the hint that says so and how to go direct.
 */
export function localThroughProxyHint(baseUrl: string, proxy: ProxySettings | undefined): string | undefined {
  if (!proxy) return undefined;
  let host: string;
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return undefined;
  }
  if (!(host === 'localhost' || host === '[::1]' || /^127\./.test(host))) return undefined;
  const noProxy = proxy.noProxy ? `${proxy.noProxy},${host}` : `${host},localhost`;
  return (
    `${baseUrl} is on this machine, but ${proxy.variable} sends its requests through the proxy ` +
    `${proxyAddress(proxy.url)}: set NO_PROXY=${noProxy} to go direct, or unset ${proxy.variable}.`
  );
}

/** The proxy's address without its credentials: http://[redacted]@proxy:3128. */
export function redactedProxy(url: URL): string {
  if (!url.username && !url.password) return url.origin;
  return `${url.protocol}//[redacted]@${url.host}`;
}

/** Any text with a user:password@ in a URL redacted (a proxy value that did not parse). */
function redactText(text: string): string {
  return text.replace(/\/\/[^/@\s]*@/, '//[redacted]@');
}

/**
 * The Proxy-Authorization undici should send: it sends one itself only when the URL has both a user and
 * a password; curl also sends a user alone (with an empty password), and so do we.
 */
export function proxyToken(url: URL): string | undefined {
  if (!url.username || url.password) return undefined;
  return `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:`).toString('base64')}`;
}

/** The proxy's answer when it refused (undici's messages for a failed CONNECT and a forwarded 407). */
export function proxyRefusal(error: unknown): number | undefined {
  const message = error instanceof Error ? error.message : '';
  const tunnel = /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/.exec(message);
  if (tunnel) return Number(tunnel[1]);
  if (/^Proxy Authentication Required \(407\)/.test(message)) return 407;
  return undefined;
}
