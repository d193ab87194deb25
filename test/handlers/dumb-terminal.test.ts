/**
 * TERM=dumb: a terminal that understands no escape sequence gets none, not even the progress line's
 * cursor movement (contract, "Output failures and signals").
 */
import { describe, expect, it } from 'vitest';
import { runCommand } from '../helpers/fake-terminal.js';
import { HttpMock, page } from '../helpers/http-mock.js';

const companies = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: from + i, name: `Client ${from + i}`, active: true }));

function threePages(): HttpMock {
  const http = new HttpMock();
  for (const n of [1, 2, 3]) {
    http.on('GET', '/v2/agency/companies', { page: n }).reply(200, page(companies(n * 100, 50), n, 3, 150));
  }
  return http;
}

describe('TERM=dumb', () => {
  it('a listing on a terminal writes no escape sequence at all (a capable terminal gets the progress line)', async () => {
    const capable = await runCommand(['companies', 'list'], threePages(), {
      tty: true,
      env: { TERM: 'xterm' },
    });
    expect(capable.code).toBe(0);
    expect(capable.stderr).toContain('\u001b[2K');

    const dumb = await runCommand(['companies', 'list'], threePages(), { tty: true, env: { TERM: 'dumb' } });
    expect(dumb.code).toBe(0);
    expect(dumb.stdout).toContain('Client 100');
    expect(dumb.stdout + dumb.stderr).not.toContain('\u001b');
    expect(dumb.stderr).toContain('150 companies');
  });
});
