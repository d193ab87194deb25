/**
 * What an answer means, without a server: the three error dialects, the hints that follow the
 * service's words, and the answers that are not what they claim (empty, not JSON, redirects).
 */
import { describe, expect, it } from 'vitest';
import { type AnswerContext, readAnswer, readServiceError, settle } from '../../src/api/response.js';
import { ApiError, ResponseError } from '../../src/errors.js';

const ctx = (over: Partial<AnswerContext> = {}): AnswerContext => ({
  method: 'GET',
  path: '/v2/agency/companies',
  baseUrl: 'https://api.woodpecker.co/rest',
  companyHeader: false,
  attempts: 1,
  debugging: false,
  redact: (t) => t.replaceAll('SECRETKEY', '[redacted]'),
  ...over,
});

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  readAnswer({
    status,
    headers: { 'content-type': 'application/json', ...headers },
    text: JSON.stringify(body),
  });

function error(status: number, body: unknown, over: Partial<AnswerContext> = {}): ApiError | ResponseError {
  try {
    settle(json(status, body), ctx(over));
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('expected an error');
}

describe('the three error dialects become one typed error with title and detail', () => {
  it.each([
    [
      'v2',
      { title: 'Forbidden', status: 403, detail: 'No access', timestamp: '2025-01-01 00:00:00' },
      'Forbidden',
      'No access',
    ],
    [
      'v1 envelope',
      { status: { status: 'ERROR', code: 'E_WRONG_PARAM', msg: 'Event defined for this url.' } },
      'E_WRONG_PARAM',
      'Event defined for this url.',
    ],
    ['code/message', { code: 'E_DUPLICATE', message: 'Already there' }, 'E_DUPLICATE', 'Already there'],
    [
      'code/message/details',
      { code: 'VALIDATION', message: 'Bad input', details: ['name is empty', 'page < 0'] },
      'VALIDATION',
      'Bad input (name is empty; page < 0)',
    ],
    ['message only', { message: 'Internal server error' }, undefined, 'Internal server error'],
  ])('%s', (_name, body, title, detail) => {
    expect(readServiceError(body)).toMatchObject({ title, detail });
    const e = error(400, body) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect(e.title).toBe(title);
    expect(e.detail).toBe(detail);
    expect(e.message).toContain(`answered 400 ${[title, detail].filter(Boolean).join(' — ')}`);
  });

  it('a v1 status that is a number (the v2 field) is not mistaken for the envelope', () => {
    expect(readServiceError({ title: 'Conflict', status: 409, detail: 'x' })).toEqual({
      title: 'Conflict',
      detail: 'x',
      code: undefined,
    });
  });

  it.each([409, 400, 200, 429])(
    'E_TOO_MANY_REQUESTS answered with %i means 429 (exit 1), whatever carried it',
    (status) => {
      const answer = json(status, {
        status: { status: 'ERROR', code: 'E_TOO_MANY_REQUESTS', msg: 'Slow down' },
      });
      expect(answer.meaning).toBe(429);
      const e = error(status, answer.data) as ApiError;
      expect(e.status).toBe(429);
      expect(e.exitCode).toBe(1);
      expect(e.message).toContain(`answered ${status}`);
      expect(e.hint).toMatch(/busy/);
    },
  );

  it('server text is redacted and quoted on one line', () => {
    const e = error(401, {
      title: 'Unauthorized',
      detail: 'Invalid api key SECRETKEY\nforged: line',
    }) as ApiError;
    expect(e.detail).toBe('Invalid api key [redacted]\nforged: line');
    expect(e.message).not.toContain('SECRETKEY');
    expect(e.message.split('\n')).toHaveLength(1);
  });
});

describe('hints follow the service words', () => {
  it.each([
    ['No API addon', 403],
    ['Upgrade your plan', 403],
    ['No API add-on', 401],
  ])('"%s" (%i) names the missing API add-on, never the HQ key', (detail, status) => {
    const e = error(status, { title: 'Forbidden', status, detail }, { company: 1042, companyHeader: true });
    expect(e.hint).toMatch(/API add-on/);
    expect(e.hint).not.toMatch(/HQ/);
  });

  it('"No Agency addon" names the Agency add-on', () => {
    const e = error(403, { title: 'Forbidden', status: 403, detail: 'No Agency addon' });
    expect(e.hint).toMatch(/Agency add-on/);
    expect(e.hint).not.toMatch(/HQ \(main account\) key/);
  });

  it('"Invalid api key" says the key is wrong', () => {
    const e = error(401, { title: 'Unauthorized', status: 401, detail: 'Invalid api key' });
    expect(e.hint).toMatch(/key is wrong/);
  });

  it('403 with a company context blames the key or the access (the spec rule)', () => {
    const e = error(
      403,
      { title: 'Forbidden', status: 403, detail: 'Forbidden' },
      { company: 7, companyHeader: true },
    );
    expect(e.hint).toMatch(/not the agency's HQ key, or your user has no access to company 7/);
  });

  it('409 says "inactive" only when x-company-id was sent', () => {
    const sent = error(
      409,
      { title: 'Conflict', status: 409, detail: 'Conflict' },
      { company: 7, companyHeader: true },
    );
    expect(sent.hint).toBe('Company 7 is inactive.');
    const notSent = error(409, { title: 'Conflict', status: 409, detail: 'Conflict' }, { company: 7 });
    expect(notSent.hint).toBeUndefined();
  });

  it('a v1 409 "already defined" with x-company-id is not called inactive', () => {
    const e = error(
      409,
      { status: { status: 'ERROR', code: 'E_WRONG_PARAM', msg: 'Event defined for this url.' } },
      { company: 7, companyHeader: true },
    );
    expect(e.hint).toBeUndefined();
  });

  it('a hint that only repeats the message is left out', () => {
    const e = error(
      409,
      { title: 'Conflict', status: 409, detail: 'Company 1007 is inactive' },
      { company: 1007, companyHeader: true },
    );
    expect(e.message).toContain('Company 1007 is inactive');
    expect(e.hint).toBeUndefined();
  });

  it('404 on /v1/me from a base URL without /rest is about the base URL, not the key', () => {
    const e = error(
      404,
      { title: 'Not found', status: 404, detail: 'No route' },
      {
        path: '/v1/me',
        baseUrl: 'https://api.woodpecker.co',
      },
    );
    expect(e.hint).toMatch(/base URL https:\/\/api\.woodpecker\.co does not end in \/rest/);
    expect(e.hint).not.toMatch(/key/i);
    const right = error(404, { title: 'Not found', status: 404, detail: 'No route' }, { path: '/v1/me' });
    expect(right.hint ?? '').not.toMatch(/base URL/);
  });
});

describe('answers that are not usable data', () => {
  it('an empty 200 to a read is a ResponseError naming the status', () => {
    const answer = readAnswer({ status: 200, headers: {}, text: '' });
    expect(() => settle(answer, ctx())).toThrow(ResponseError);
    expect(() => settle(answer, ctx())).toThrow(/answered 200 with an empty body/);
    try {
      settle(answer, ctx());
    } catch (e) {
      expect((e as ResponseError).status).toBe(200);
      expect((e as ResponseError).exitCode).toBe(1);
    }
  });

  it('204 and an empty 200 to a v1 list read are "nothing", not an error', () => {
    for (const status of [200, 204]) {
      const res = settle(readAnswer({ status, headers: {}, text: '' }), ctx({ emptyIsNothing: true }));
      expect(res.data).toBeUndefined();
      expect(res.status).toBe(status);
    }
  });

  it('a 201 without a body to a POST is fine (the blacklist answers so)', () => {
    const res = settle(readAnswer({ status: 201, headers: {}, text: '' }), ctx({ method: 'POST' }));
    expect(res).toMatchObject({ status: 201, statusText: 'Created', data: undefined });
  });

  it('a body cut mid-JSON names the status and is not JSON', () => {
    const answer = readAnswer({
      status: 200,
      headers: { 'content-type': 'application/json' },
      text: '{"content": [',
    });
    expect(() => settle(answer, ctx())).toThrow(
      /answered 200 with a body that is not valid JSON instead of JSON \(application\/json\)/,
    );
  });

  it('the --debug advice is left out when --debug is on', () => {
    const answer = readAnswer({ status: 200, headers: {}, text: '<html>' });
    const off = (() => {
      try {
        settle(answer, ctx());
      } catch (e) {
        return e as ResponseError;
      }
    })();
    const on = (() => {
      try {
        settle(answer, ctx({ debugging: true }));
      } catch (e) {
        return e as ResponseError;
      }
    })();
    expect(off?.hint).toMatch(/--debug/);
    expect(on?.hint).not.toMatch(/--debug/);
  });

  it('carries the status text and headers of a good answer', () => {
    const res = settle(json(200, { ok: true }, { 'x-request-id': 'abc' }), ctx());
    expect(res).toMatchObject({ status: 200, statusText: 'OK', data: { ok: true } });
    expect(res.headers['x-request-id']).toBe('abc');
  });
});

describe('a local base URL reached through a proxy', () => {
  const proxyHint = 'http://127.0.0.1:8099/rest is on this machine, but HTTP_PROXY sends … set NO_PROXY=…';

  it('a gateway error (most likely the proxy, which cannot reach this machine) gets the NO_PROXY hint', () => {
    for (const status of [502, 503, 504]) {
      const e = error(
        status,
        { title: 'Bad Gateway', status, detail: 'upstream unreachable' },
        { proxyHint },
      );
      expect(e.hint).toBe(proxyHint);
    }
    const page = (() => {
      try {
        settle(
          readAnswer({
            status: 502,
            headers: { 'content-type': 'text/html' },
            text: '<html>proxy error</html>',
          }),
          ctx({ proxyHint }),
        );
      } catch (e) {
        return e as ResponseError;
      }
      throw new Error('expected an error');
    })();
    expect(page.hint).toBe(proxyHint);
  });

  it("the service's own refusals keep their hints", () => {
    expect(error(401, { title: 'Unauthorized', status: 401 }, { proxyHint }).hint).toMatch(/agency login/);
  });
});
