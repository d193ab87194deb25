/**
 * The service as its public docs show it, run in-process through main(): webhooks served only
 * under /v2, empty v1 answers, the v1 error envelope, E_TOO_MANY_REQUESTS, add-on refusals, a base URL
 * without /rest, pages that repeat, an empty 200, and what --debug shows.
 */
import { describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID, type SandboxOptions } from '../../src/sandbox/index.js';
import { CANARY_KEY, type Harness, jsonError, startHarness } from '../helpers/cli.js';
import { direct } from '../helpers/core.js';

/** The program runs in this process (test/helpers/in-process.ts). */
const IN_PROCESS = { inProcess: true };

function withSandbox(test: (h: Harness) => Promise<void>, options: SandboxOptions = {}): () => Promise<void> {
  return async () => {
    const h = await startHarness(options, IN_PROCESS);
    try {
      await test(h);
    } finally {
      await h.close();
    }
  };
}

const activeId = (h: Harness) => {
  const company = h.sandbox.store.companies(MAIN_AGENCY_ID).find((c) => c.active);
  if (!company) throw new Error('no active company in the seed');
  return company.id;
};
const paths = (h: Harness) => h.requests().map((q) => `${q.method} ${q.path} ${q.status}`);

describe.concurrent('webhooks as the service serves them', () => {
  it(
    'where only /v2/webhooks is served, the list comes from there after one 404 on /v1',
    withSandbox(
      async (h) => {
        const id = activeId(h);
        const r = await h.run(['webhooks', '--company', String(id), '--json']);
        expect(r.code, r.stderr).toBe(0);
        expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
        expect(paths(h)).toEqual([`GET /rest/v1/webhooks 404`, `GET /rest/v2/webhooks 200`]);
      },
      { docsMode: true },
    ),
  );

  it.each([
    ['204', 204],
    ['an empty 200', 200],
  ])('%s is an empty list: [] with --json, exit 0', (_what, status) =>
    withSandbox(async (h) => {
      h.sandbox.addFault({ kind: 'empty', status, method: 'GET', path: '/v1/webhooks' });
      const r = await h.run(['webhooks', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([]);
    })(),
  );
});

describe.concurrent('errors in the words of the service', () => {
  it(
    'a v1 envelope becomes title and detail (409 → exit 5)',
    withSandbox(async (h) => {
      h.sandbox.addFault({
        kind: 'status',
        status: 409,
        dialect: 'v1',
        code: 'E_WRONG_PARAM',
        detail: 'Event defined for this url.',
        method: 'GET',
        path: '/v1/me',
      });
      const r = await h.run(['me', '--json']);
      expect(r.code).toBe(5);
      expect(r.stdout).toBe('');
      expect(jsonError(r.stderr).error).toMatchObject({
        status: 409,
        title: 'E_WRONG_PARAM',
        detail: 'Event defined for this url.',
      });
    }),
  );

  it(
    'E_TOO_MANY_REQUESTS answered as 409 is retried like a 429, and the run completes',
    withSandbox(async (h) => {
      h.sandbox.addFault({
        kind: 'status',
        status: 409,
        dialect: 'v1',
        code: 'E_TOO_MANY_REQUESTS',
        detail: 'Too many requests',
        method: 'GET',
        path: '/v1/me',
        retryAfter: 0,
      });
      const r = await h.run(['me', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(paths(h)).toEqual(['GET /rest/v1/me 409', 'GET /rest/v1/me 200']);
    }),
  );

  it.each([
    ['No API addon', /API add-on/],
    ['Upgrade your plan', /API add-on/],
    ['No Agency addon', /Agency add-on/],
  ])('"%s" names the missing add-on, not the key', (detail, hint) =>
    withSandbox(async (h) => {
      h.sandbox.addFault({
        kind: 'status',
        status: 403,
        detail,
        method: 'GET',
        path: '/v2/agency/companies',
      });
      const r = await h.run(['companies', 'list']);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(detail);
      expect(r.stderr).toMatch(hint);
      expect(r.stderr).not.toMatch(/HQ|key was refused|key is wrong/);
    })(),
  );

  it(
    'a base URL without /rest that answers 404 gets a hint about the base URL',
    withSandbox(async (h) => {
      const r = await h.run(['me'], { env: { AGENCY_BASE_URL: h.sandbox.url } });
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/does not end in \/rest/);
      expect(r.stderr).not.toMatch(/key was refused|key is wrong|HQ key/);
    }),
  );

  it(
    'an empty 200 is an error that names the status (exit 1)',
    withSandbox(async (h) => {
      h.sandbox.addFault({ kind: 'empty', status: 200, method: 'GET', path: '/v1/me' });
      const r = await h.run(['me', '--json']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(jsonError(r.stderr).error).toMatchObject({ status: 200 });
      expect(r.stderr).toMatch(/answered 200 with an empty body/);
    }),
  );

  it(
    'pages that repeat are an error (exit 1), not a loop',
    withSandbox(async (h) => {
      // The sandbox repeats the last page it answered on this path: page 1, read once beforehand.
      await direct(h.sandbox, '/v2/agency/companies?page=1');
      h.sandbox.reset();
      h.sandbox.addFault({ kind: 'repeat-page', method: 'GET', path: '/v2/agency/companies', times: 0 });
      const r = await h.run(['companies', 'list']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/page 2 .*(same items|answered page 1)/);
      expect(h.requests().length).toBeLessThanOrEqual(4);
    }),
  );
});

describe.concurrent('--debug', () => {
  it(
    'shows the response line with its query string, timing and the body, with every key redacted',
    withSandbox(async (h) => {
      const id = activeId(h);
      const r = await h.run(['--debug', 'keys', 'list', String(id), '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        new RegExp(`← 200 GET /rest/v2/agency/companies/${id}/api_keys\\?page=1 \\(\\d+ ms, \\d+ bytes\\)`),
      );
      expect(r.stderr).toContain('"api_key":"[redacted]"');
      expect(r.stderr).not.toContain(CANARY_KEY);
      // stdout still has the keys: they were asked for.
      expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
    }),
  );

  it(
    'an answer that is not JSON: the hint to run with --debug is left out when --debug is on',
    withSandbox(async (h) => {
      h.sandbox.addFault({ kind: 'not-json', method: 'GET', path: '/v1/me', times: 0 });
      const plain = await h.run(['me']);
      expect(plain.code).toBe(1);
      expect(plain.stderr).toMatch(/--debug/);
      const debug = await h.run(['--debug', 'me']);
      expect(debug.code).toBe(1);
      expect(
        debug.stderr
          .split('\n')
          .filter((l) => !l.startsWith('[debug]'))
          .join('\n'),
      ).not.toMatch(/--debug/);
    }),
  );
});
