/**
 * Behind a proxy (contract, "Network"), through a real proxy on 127.0.0.1 (test/helpers/proxy.ts): https
 * tunnelled with CONNECT to the sandbox behind a TLS front whose CA is trusted through
 * NODE_EXTRA_CA_CERTS (the built binary, which reads it as it starts), http forwarded, NO_PROXY going
 * direct, a proxy's 407 named with its credentials never printed, --debug showing the proxy redacted, the
 * in-flight limits kept, and certificate problems named and never retried.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { type Harness, type RunResult, startHarness } from '../helpers/cli.js';
import {
  type Certificates,
  HAVE_OPENSSL,
  makeCertificates,
  startProxy,
  startTlsFront,
  type TestProxy,
  type TlsFront,
} from '../helpers/proxy.js';
import { refusedPort } from '../helpers/refused-port.js';

const STACK_LINE = /^\s+at /m;
const SECRET = 's3cret-Proxy-Pass';

let h: Harness;
let certs: Certificates;
let tls: TlsFront;
let proxy: TestProxy;
beforeAll(async () => {
  // Two pages of 50 companies: a listing pages through the proxy (the test of overlapping reads has a
  // sandbox of its own); each read through it opens a tunnel and a TLS session, so pages cost CPU here.
  h = await startHarness({ seed: { companies: 51 }, latencyMs: 20, queueLimit: 2 }, { inProcess: true });
  certs = makeCertificates();
  tls = await startTlsFront(Number(new URL(h.sandbox.url).port), certs.good);
  proxy = await startProxy();
});
afterAll(async () => {
  await proxy?.close();
  await tls?.close();
  await h?.close();
  certs?.remove();
});
beforeEach(() => {
  h.sandbox.reset();
  proxy.visits.length = 0;
});

/**
 * A run against the https front (or `base`), with only the given proxy variables set. Over https the
 * binary is spawned: Node reads the front's CA from NODE_EXTRA_CA_CERTS as it starts. Over plain http the
 * program runs in this process (`h` is in-process): the proxy handling is the program's, whatever process
 * it runs in, and a spawned run costs about 100 ms of CPU more.
 */
function run(
  args: string[],
  env: Record<string, string>,
  base = `${tls.url}/rest`,
  harness = h,
): Promise<RunResult> {
  const unset = Object.fromEntries(
    ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'].map((n) => [
      n,
      undefined,
    ]),
  );
  const argv = ['--base-url', base, ...args];
  const options = {
    env: { ...unset, NODE_EXTRA_CA_CERTS: certs.caFile, AGENCY_API_KEY: harness.sandbox.hqKey, ...env },
  };
  return base.startsWith('https:') ? harness.spawn(argv, options).result : harness.run(argv, options);
}
const companyCount = () => h.sandbox.store.companies(MAIN_AGENCY_ID).length;

describe.skipIf(!HAVE_OPENSSL)('behind a proxy', () => {
  it.each(['HTTPS_PROXY', 'https_proxy'])(
    '%s: https goes through CONNECT to the server, whose certificate the CA in NODE_EXTRA_CA_CERTS vouches for',
    async (variable) => {
      const r = await run(['companies', 'list'], { [variable]: proxy.url });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trimEnd().split('\n')).toHaveLength(companyCount());
      expect(proxy.visits.length).toBeGreaterThan(0);
      expect(proxy.visits.every((v) => v.kind === 'connect' && v.target === `127.0.0.1:${tls.port}`)).toBe(
        true,
      );
      expect(h.requests().length).toBeGreaterThan(0);
    },
  );

  it('the per-account limit holds through the proxy: reads overlap, never beyond the depth (no 429)', async () => {
    // A sandbox of its own whose pages are answered after 150 ms, not 20: each read through the proxy
    // opens its own tunnel (CONNECT, then TLS), and on a loaded machine opening one took longer than a
    // 20 ms answer, so the pages came one after another and never waited together (failed 1 run in 4).
    const slow = await startHarness({ seed: { companies: 300 }, latencyMs: 150, queueLimit: 2 });
    const front = await startTlsFront(Number(new URL(slow.sandbox.url).port), certs.good);
    try {
      const r = await run(
        ['companies', 'list'],
        { HTTPS_PROXY: proxy.url, AGENCY_MAX_IN_FLIGHT: '3' },
        `${front.url}/rest`,
        slow,
      );
      expect(r.code, r.stderr).toBe(0);
      const stats = slow.sandbox.stats();
      expect(stats.rejected429).toBe(0);
      const queued = Object.entries(stats.maxQueuedByAccount).find(([account]) =>
        account.startsWith('hq:'),
      )?.[1];
      expect(queued).toBeLessThanOrEqual(3);
      expect(queued).toBeGreaterThanOrEqual(2);
    } finally {
      await front.close();
      await slow.close();
    }
  });

  it.each(['HTTP_PROXY', 'http_proxy'])('%s: plain http is forwarded to the proxy', async (variable) => {
    const r = await run(['companies', 'list'], { [variable]: proxy.url }, h.sandbox.baseUrl);
    expect(r.code, r.stderr).toBe(0);
    expect(proxy.visits[0]).toMatchObject({
      kind: 'forward',
      target: `${h.sandbox.baseUrl}/v2/agency/companies?page=1`,
    });
  });

  it('an https base URL does not use HTTP_PROXY (as curl and gh)', async () => {
    const r = await run(['companies', 'list'], { HTTP_PROXY: proxy.url });
    expect(r.code, r.stderr).toBe(0);
    expect(proxy.visits).toEqual([]);
  });

  it.each([['127.0.0.1'], ['localhost,127.0.0.1'], ['*'], [`127.0.0.1:${'PORT'}`]])(
    'NO_PROXY=%s goes direct',
    async (noProxy) => {
      const r = await run(['companies', 'list'], {
        HTTPS_PROXY: proxy.url,
        NO_PROXY: noProxy.replace('PORT', String(tls.port)),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(proxy.visits).toEqual([]);
      expect(h.requests().length).toBeGreaterThan(0);
    },
  );

  it('NO_PROXY for another host still goes through the proxy', async () => {
    const r = await run(['me'], { HTTPS_PROXY: proxy.url, NO_PROXY: 'example.com,.internal' });
    expect(r.code, r.stderr).toBe(0);
    expect(proxy.visits).toHaveLength(1);
  });
});

describe.skipIf(!HAVE_OPENSSL)('a proxy that asks for credentials', () => {
  let guarded: TestProxy;
  beforeAll(async () => {
    guarded = await startProxy({ credentials: `alice:${SECRET}` });
  });
  afterAll(() => guarded.close());
  beforeEach(() => {
    guarded.visits.length = 0;
  });
  const withCredentials = (password: string) =>
    `http://alice:${encodeURIComponent(password)}@127.0.0.1:${guarded.port}`;

  it('the right ones in the URL are sent as Proxy-Authorization', async () => {
    const r = await run(['me'], { HTTPS_PROXY: withCredentials(SECRET) });
    expect(r.code, r.stderr).toBe(0);
    expect(guarded.visits[0]?.authorization).toBe(
      `Basic ${Buffer.from(`alice:${SECRET}`).toString('base64')}`,
    );
  });

  it.each([
    ['a CONNECT (https)', (): [string, string] => ['HTTPS_PROXY', withCredentials('wrong-Pass')], undefined],
    [
      'a forwarded request (http)',
      (): [string, string] => ['HTTP_PROXY', withCredentials('wrong-Pass')],
      'http',
    ],
  ])(
    '407 to %s: exit 1 naming the proxy, its answer and the variable; no credential printed',
    async (_what, variable, scheme) => {
      const [name, value] = variable();
      const base = scheme === 'http' ? h.sandbox.baseUrl : `${tls.url}/rest`;
      const r = await run(['--json', 'me'], { [name]: value }, base);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        `the proxy 127.0.0.1:${guarded.port} (${name}) refused: 407 Proxy Authentication Required`,
      );
      expect(r.stderr).toContain(`hint: Check ${name}`);
      expect(r.stderr).not.toContain('wrong-Pass');
      expect(r.stderr).not.toContain('alice');
      expect(r.stderr).not.toMatch(STACK_LINE);
      expect(guarded.visits).toHaveLength(1); // a refusal is not retried
      expect(h.requests()).toEqual([]);
    },
  );

  it('--debug shows the proxy with its credentials redacted', async () => {
    const r = await run(['--debug', 'me'], { HTTPS_PROXY: withCredentials(SECRET) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`[debug] proxy http://[redacted]@127.0.0.1:${guarded.port} (HTTPS_PROXY)`);
    expect(r.stderr).not.toContain(SECRET);
    expect(r.stderr).not.toContain(encodeURIComponent(SECRET));
    expect(r.stderr).not.toContain(Buffer.from(`alice:${SECRET}`).toString('base64'));
  });
});

describe.skipIf(!HAVE_OPENSSL)('a proxy whose policy refuses the host', () => {
  it('403 to the CONNECT: exit 1 naming the proxy and its answer, not retried', async () => {
    const strict = await startProxy({ refuseConnect: 403 });
    try {
      const r = await run(['companies', 'list'], { HTTPS_PROXY: strict.url });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`the proxy 127.0.0.1:${strict.port} (HTTPS_PROXY) refused: 403 Forbidden`);
      expect(r.stderr).toContain('hint: Check HTTPS_PROXY');
      expect(strict.visits).toHaveLength(1);
      expect(h.requests()).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});

describe('a proxy whose policy denies a plain-http destination (a squid ACL)', () => {
  it('its 403 in text/plain is said of the proxy, quoted, exit 1: not blamed on the key, no credentials printed', async () => {
    const acl = await startProxy({
      denyForward: { status: 403, body: 'resolve_deny: denied destination\n' },
    });
    try {
      const withCredentials = `http://alice:${SECRET}@127.0.0.1:${acl.port}`;
      const r = await run(['me'], { HTTP_PROXY: withCredentials }, h.sandbox.baseUrl);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        `the proxy 127.0.0.1:${acl.port} (HTTP_PROXY) answered 403 Forbidden: resolve_deny: denied destination`,
      );
      expect(r.stderr).toMatch(/hint: .*HTTP_PROXY/);
      expect(r.stderr).not.toMatch(/HQ|main account|the service answered/);
      expect(r.stderr).not.toContain(SECRET);
      expect(r.stderr).not.toContain('alice');
      expect(r.stderr).not.toMatch(STACK_LINE);
      expect(acl.visits).toHaveLength(1); // a refusal is not retried
      expect(h.requests()).toEqual([]);
    } finally {
      await acl.close();
    }
  });

  it("the service's own 403 (its JSON error) through a proxy is still the service's: exit 3, the key's hint", async () => {
    const company = h.sandbox.store.companies(MAIN_AGENCY_ID).find((c) => c.active && c.seeded);
    const clientKey = h.sandbox.store.keysOf(company?.id ?? 0)[0]?.key;
    if (!clientKey) throw new Error('the seed has no client key');
    const r = await run(
      ['companies', 'list'],
      { HTTP_PROXY: proxy.url, AGENCY_API_KEY: clientKey },
      h.sandbox.baseUrl,
    );
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain('the service answered 403');
    expect(r.stderr).not.toContain('the proxy');
    expect(proxy.visits.length).toBeGreaterThan(0);
  });
});

describe('a proxy that is not there, or not a URL', () => {
  it('the proxy refuses the connection: said of the proxy (host:port, variable), never its credentials; the local sandbox gets a NO_PROXY hint', async () => {
    const port = await refusedPort();
    const r = await run(
      ['companies', 'create', '--name', 'Through A Dead Proxy'],
      {
        HTTP_PROXY: `http://alice:${SECRET}@127.0.0.1:${port}`,
      },
      h.sandbox.baseUrl,
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `the proxy 127.0.0.1:${port} (HTTP_PROXY) refused the connection; nothing reached the service`,
    );
    // The company list, read before any create, is what met the proxy: nothing was sent.
    expect(r.stderr).toMatch(/^error: Could not list the companies \(page 1\): the proxy/);
    expect(r.stderr).not.toMatch(/Unknown whether|is the sandbox running/);
    expect(r.stderr).toContain(
      `hint: ${h.sandbox.baseUrl} is on this machine, but HTTP_PROXY sends its requests through the proxy 127.0.0.1:${port}: set NO_PROXY=127.0.0.1,localhost to go direct, or unset HTTP_PROXY.`,
    );
    expect(r.stderr).not.toContain(SECRET);
    expect(r.stderr).not.toContain('alice');
    expect(h.requests()).toEqual([]);
  });

  it('NO_PROXY that covers the sandbox: the dead proxy is never asked', async () => {
    const port = await refusedPort();
    const r = await run(
      ['me'],
      { HTTP_PROXY: `http://127.0.0.1:${port}`, NO_PROXY: 'localhost,127.0.0.1' },
      h.sandbox.baseUrl,
    );
    expect(r.code, r.stderr).toBe(0);
  });

  it('NO_PROXY=* goes direct for every host: the dead proxy is never asked', async () => {
    const port = await refusedPort();
    const r = await run(['me'], { HTTP_PROXY: `http://127.0.0.1:${port}`, NO_PROXY: '*' }, h.sandbox.baseUrl);
    expect(r.code, r.stderr).toBe(0);
    expect(h.requests().length).toBeGreaterThan(0);
  });

  it('an invalid proxy URL: exit 2 naming the variable and what is wrong, nothing sent', async () => {
    const r = await run(['me'], { HTTP_PROXY: `http://alice:${SECRET}@proxy.corp:99999` }, h.sandbox.baseUrl);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      'error: HTTP_PROXY is not a proxy URL: http://[redacted]@proxy.corp:99999 (its port 99999 is above 65535); nothing was sent.',
    );
    expect(r.stderr).not.toContain(SECRET);
    expect(h.requests()).toEqual([]);
  });
});

describe.skipIf(!HAVE_OPENSSL)('certificate problems: named, never retried', () => {
  it.each([
    ['expired', 'has expired (CERT_HAS_EXPIRED)'],
    ['selfSigned', 'is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT)'],
    ['otherHost', 'is for another host (ERR_TLS_CERT_ALTNAME_INVALID)'],
  ] as const)('%s certificate: exit 1, "%s", one attempt', async (which, words) => {
    const front = await startTlsFront(Number(new URL(h.sandbox.url).port), certs[which]);
    try {
      const r = await run(['companies', 'list'], {}, `${front.url}/rest`);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(`the TLS certificate of 127.0.0.1:${front.port} ${words}`);
      expect(r.stderr).toContain('NODE_EXTRA_CA_CERTS');
      expect(r.stderr).not.toMatch(STACK_LINE);
      expect(front.connections()).toBe(1);
      expect(h.requests()).toEqual([]);
    } finally {
      await front.close();
    }
  });
});
