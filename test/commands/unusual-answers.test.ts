/**
 * The smaller failures of issue 17, each through the program against the sandbox: a control character
 * in `api -H` (exit 2, nothing sent), an answer nested too deep or too large to hold ("not
 * understood", exit 1, never "internal error"), and a 404 on an agency path from a base URL without
 * /rest (the base-URL hint).
 */
import { describe, expect, it } from 'vitest';
import { Http } from '../../src/api/http.js';
import { ResponseError } from '../../src/errors.js';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { CANARY_KEY } from '../helpers/cli.js';
import { expectUsageError, sent, sharedInProcessHarness } from '../helpers/core.js';

const shared = sharedInProcessHarness();
const h = () => shared.h;

describe('api -H with a control character', () => {
  it.each([['X-Trace: a\u0001b'], ['X-Trace: a\u007fb'], ['X-Trace: \u001b[31mred']])(
    '%j: exit 2 naming the header, nothing sent',
    async (header) => {
      const r = await h().run(['api', '/v1/me', '-H', header]);
      expectUsageError(r, h().sandbox, /The header "X-Trace" holds a control character \(\\u00(01|7f|1b)\)/);
      expect(r.stderr).toMatch(/nothing was sent/);
    },
  );

  it('a tab in a value is allowed', async () => {
    const r = await h().run(['api', '/v1/me', '-H', 'X-Trace: a\tb']);
    expect(r.code, r.stderr).toBe(0);
    expect(sent(h().sandbox)[0]?.headers['x-trace']).toBe('a\tb');
  });
});

describe('an answer the tool cannot hold', () => {
  it.each([[['me']], [['me', '--json']], [['api', '/v1/me']]])(
    'nested 100,000 deep, %j: exit 1, "not understood", no internal error',
    async (args) => {
      h().sandbox.addFault({ kind: 'deep', path: '/v1/me' });
      const r = await h().run(args);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /the service's answer was not understood \(nested more than 256 levels deep\)/,
      );
      expect(r.stderr).not.toMatch(/internal error|call stack/);
    },
  );

  it('an answer larger than the limit: "not understood", not retried', async () => {
    h().sandbox.addFault({ kind: 'large-page', method: 'GET', path: '/v2/agency/companies', size: 5000 });
    const http = new Http({
      baseUrl: h().sandbox.baseUrl,
      apiKey: CANARY_KEY,
      timeoutMs: 10_000,
      userAgent: 'agency-test',
      maxAnswerBytes: 100_000,
    });
    try {
      const error = await http
        .request({ method: 'GET', path: '/v2/agency/companies', action: 'list the companies' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseError);
      expect((error as Error).message).toBe(
        "Could not list the companies: the service's answer was not understood (larger than 98 KB)",
      );
      expect(sent(h().sandbox)).toHaveLength(1);
    } finally {
      await http.close();
    }
  });
});

describe('a 404 on an agency path from a base URL without /rest', () => {
  it.each([[['companies', 'list']], [['keys', 'list', 'COMPANY']]])(
    '%j: the hint names the base URL',
    async (args) => {
      const id = h().sandbox.store.companies(MAIN_AGENCY_ID, { active: true })[0]?.id as number;
      const base = h().sandbox.url;
      const r = await h().run(['--base-url', base, ...args.map((a) => (a === 'COMPANY' ? String(id) : a))]);
      expect(r.code, r.stderr).toBe(4);
      expect(r.stderr).toContain(`hint: The base URL ${base} does not end in /rest`);
    },
  );
});
