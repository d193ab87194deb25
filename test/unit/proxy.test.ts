/** Which proxy a base URL uses, read as curl and gh read the variables, and how it is shown. */
import { describe, expect, it } from 'vitest';
import {
  bypassesProxy,
  proxyAddress,
  proxyFor,
  proxyRefusal,
  proxyToken,
  readProxyEnvironment,
  redactedProxy,
} from '../../src/api/proxy.js';
import { UsageError } from '../../src/errors.js';

describe('the proxy variables', () => {
  it('lower case wins over upper case; an empty value is unset', () => {
    const env = readProxyEnvironment({
      https_proxy: 'http://lower:1',
      HTTPS_PROXY: 'http://upper:1',
      http_proxy: '',
      HTTP_PROXY: 'http://upper-http:1',
      NO_PROXY: 'a.example',
    });
    expect(env.https).toEqual(['https_proxy', 'http://lower:1']);
    expect(env.http).toEqual(['HTTP_PROXY', 'http://upper-http:1']);
    expect(env.noProxy).toBe('a.example');
  });

  it('HTTPS_PROXY for an https base URL, HTTP_PROXY for an http one, never the other', () => {
    const env = readProxyEnvironment({ HTTP_PROXY: 'http://p:3128' });
    expect(proxyFor('https://api.woodpecker.co/rest', env)).toBeUndefined();
    expect(proxyFor('http://127.0.0.1:8080/rest', env)?.url.href).toBe('http://p:3128/');
  });

  it('an address without a scheme is http://, as curl reads it', () => {
    const proxy = proxyFor('https://x/rest', readProxyEnvironment({ HTTPS_PROXY: 'proxy.corp:3128' }));
    expect(proxy?.url.href).toBe('http://proxy.corp:3128/');
    expect(proxy?.variable).toBe('HTTPS_PROXY');
  });

  it('a value that is not a proxy URL is a usage error that does not print its password', () => {
    const env = readProxyEnvironment({ HTTPS_PROXY: 'http://bob:hunter2@[bad' });
    let error: unknown;
    try {
      proxyFor('https://x/rest', env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain('HTTPS_PROXY is not a proxy URL');
    expect((error as Error).message).not.toContain('hunter2');
    expect(() => proxyFor('https://x/rest', readProxyEnvironment({ HTTPS_PROXY: 'ftp://p:21' }))).toThrow(
      /scheme ftp:/,
    );
  });

  it('credentials are redacted; a user alone still authenticates (as curl)', () => {
    expect(redactedProxy(new URL('http://alice:pw@p:3128'))).toBe('http://[redacted]@p:3128');
    expect(redactedProxy(new URL('http://p:3128'))).toBe('http://p:3128');
    expect(proxyToken(new URL('http://alice@p:3128'))).toBe(
      `Basic ${Buffer.from('alice:').toString('base64')}`,
    );
    expect(proxyToken(new URL('http://alice:pw@p:3128'))).toBeUndefined(); // undici sends it itself
  });

  it("undici's words for a refusal give the proxy's status", () => {
    expect(proxyRefusal(new Error('Proxy response (403) !== 200 when HTTP Tunneling'))).toBe(403);
    expect(proxyRefusal(new Error('Proxy Authentication Required (407)'))).toBe(407);
    expect(proxyRefusal(new Error('connect ECONNREFUSED'))).toBeUndefined();
  });

  it.each([
    ['http://proxy:99999', 'its port 99999 is above 65535'],
    ['http://proxy:abc', 'its port "abc" is not a number'],
    ['http://bob:hunter2@:3128', 'it has no host'],
    ['http://', 'it has no host'],
    ['http://pro xy:3128', 'it contains a space'],
  ])('%s: the message says what is wrong with it', (value, why) => {
    const env = readProxyEnvironment({ HTTP_PROXY: value });
    expect(() => proxyFor('http://127.0.0.1:8099/rest', env)).toThrow(
      new RegExp(
        `^HTTP_PROXY is not a proxy URL: .*\\(${why.replace(/[()"]/g, '\\$&')}\\); nothing was sent\\.$`,
      ),
    );
    expect(() => proxyFor('http://127.0.0.1:8099/rest', env)).not.toThrow(/hunter2/);
  });

  it('messages name the proxy as host:port, never with its credentials', () => {
    expect(proxyAddress(new URL('http://alice:pw@proxy.corp:3128'))).toBe('proxy.corp:3128');
    expect(proxyAddress(new URL('http://proxy.corp'))).toBe('proxy.corp:80');
  });

  it('NO_PROXY is matched as undici matches it: hosts with their subdomains, ports, *', () => {
    const local = 'http://127.0.0.1:8099/rest';
    expect(bypassesProxy(local, '')).toBe(false);
    expect(bypassesProxy(local, '*')).toBe(true);
    expect(bypassesProxy(local, 'localhost, 127.0.0.1')).toBe(true);
    expect(bypassesProxy(local, '127.0.0.1:8099')).toBe(true);
    expect(bypassesProxy(local, '127.0.0.1:8098')).toBe(false);
    expect(bypassesProxy('https://api.woodpecker.co/rest', 'woodpecker.co')).toBe(true);
    expect(bypassesProxy('https://api.woodpecker.co/rest', '.woodpecker.co')).toBe(true);
    expect(bypassesProxy('https://api.woodpecker.co/rest', '*.woodpecker.co')).toBe(true);
    expect(bypassesProxy('https://api.woodpecker.co/rest', 'pecker.co')).toBe(false);
    expect(bypassesProxy('https://api.woodpecker.co/rest', 'woodpecker.co:80')).toBe(false);
  });
});
