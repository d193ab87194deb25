/**
 * How the service's answers end a command, table-driven: each answer to `agency me` (or with --company)
 * and the exit code and message it gives, for the human line and the --json error object alike.
 */
import { describe, expect, it } from 'vitest';
import { runCommand } from '../helpers/fake-terminal.js';
import { type Answer, HttpMock } from '../helpers/http-mock.js';

const v2 = (status: number, title: string, detail: string) => ({
  status,
  body: { title, status, detail, timestamp: '2026-01-01T00:00:00Z' },
});

const faults: [name: string, answer: Answer, argv: string[], code: number, message: RegExp][] = [
  ['401: the key is refused', v2(401, 'Unauthorized', 'Invalid API key'), [], 3, /Invalid API key/],
  ['403: no access', v2(403, 'Forbidden', 'Access denied'), ['--company', '7'], 3, /Access denied/],
  ['404: not found', v2(404, 'Not Found', 'Company not found'), ['--company', '7'], 4, /Company not found/],
  ['409: an inactive company', v2(409, 'Conflict', 'Company is inactive'), ['--company', '7'], 5, /inactive/],
  ['500: a server error', v2(500, 'Internal Server Error', 'Boom'), [], 1, /Boom/],
  [
    'v1 dialect',
    { status: 400, body: { status: { status: 'ERROR', code: 'E_BAD', msg: 'Bad things' } } },
    [],
    1,
    /Bad things/,
  ],
  ['an HTML page', { status: 502, text: '<html><body>Bad gateway</body></html>' }, [], 1, /502/],
  ['a body that is not JSON', { status: 200, text: '{"id": 1' }, [], 1, /not valid JSON/],
  ['an answer of the wrong shape', { status: 200, body: [1, 2] }, [], 1, /not understood/],
];

describe.each(faults)('%s', (_name, answer, argv, code, message) => {
  const expected = () => new HttpMock().on('GET', '/v1/me').answer(answer);

  it(`exits ${code} with the message on stderr and nothing on stdout`, async () => {
    const http = expected();
    const r = await runCommand(['me', ...argv], http);
    http.verify();
    expect(r.code).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: /);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  it('with --json, the last line of stderr is the error object', async () => {
    const r = await runCommand(['--json', 'me', ...argv], expected());
    const last = JSON.parse(r.stderr.trimEnd().split('\n').at(-1) ?? '');
    expect(last.error.message).toMatch(message);
    if (answer.status >= 400) expect(last.error.status).toBe(answer.status);
    expect(Object.keys(last.error)).toEqual(['status', 'title', 'detail', 'message']);
  });
});

describe('x-company-id', () => {
  it('is sent only with --company, and the 409 hint names the company', async () => {
    const http = new HttpMock().on('GET', '/v1/me').answer(v2(409, 'Conflict', 'Company is inactive'));
    const r = await runCommand(['me', '--company', '7'], http);
    expect(http.requests[0]?.companyId).toBe(7);
    expect(r.stderr).toMatch(/company 7/i);
    const plain = new HttpMock().on('GET', '/v1/me').reply(200, { id: 1, account_type: 'HQ' });
    await runCommand(['me'], plain);
    expect(plain.requests[0]?.companyId).toBeUndefined();
  });
});
