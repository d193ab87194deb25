/**
 * `agency login` in-process: the key comes from stdin when it is not a terminal, is checked with the
 * key itself (GET /v1/me), and is saved only when the service accepts it.
 */
import { describe, expect, it } from 'vitest';
import { runCommand } from '../helpers/fake-terminal.js';
import { HttpMock } from '../helpers/http-mock.js';

const KEY = 'wpk_piped_key_0123456789';

describe('login', () => {
  it('checks the piped key with GET /v1/me and saves it in the named profile', async () => {
    const http = new HttpMock()
      .on('GET', '/v1/me')
      .reply(200, { account_type: 'HQ', name: 'Ann', role: 'ADMIN', agency: { name: 'Northwind' } });
    const r = await runCommand(['login', '--profile', 'ci'], http, { input: `${KEY}\n` });
    http.verify();
    expect(http.options?.apiKey).toBe(KEY);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('✓ Key verified: HQ key of agency "Northwind".');
    expect(r.stderr).not.toContain(KEY);
    expect(r.config.profiles.ci).toEqual({ api_key: KEY });
    // The current profile had a key: the tool does not switch accounts by itself.
    expect(r.config.current).toBe('test');
  });

  it('saves nothing when the service refuses the key (exit 3)', async () => {
    const http = new HttpMock()
      .on('GET', '/v1/me')
      .reply(401, { title: 'Unauthorized', status: 401, detail: 'Invalid API key' });
    const r = await runCommand(['login', '--profile', 'ci'], http, { input: KEY });
    http.verify();
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/nothing was saved/);
    expect(r.config.profiles.ci).toBeUndefined();
  });

  it('refuses a key with spaces before sending it, and --no-verify sends nothing at all', async () => {
    const bad = await runCommand(['login'], new HttpMock(), { input: 'two words\n' });
    expect(bad.code).toBe(2);
    const http = new HttpMock();
    const unchecked = await runCommand(['login', '-p', 'offline', '--no-verify'], http, { input: KEY });
    http.verify();
    expect(unchecked.code).toBe(0);
    expect(unchecked.config.profiles.offline).toEqual({ api_key: KEY });
  });
});
