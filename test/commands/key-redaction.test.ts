import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedInProcessHarness } from '../helpers/core.js';
import { runInProcess as runAgency } from '../helpers/in-process.js';

const shared = sharedInProcessHarness();

describe('a server that echoes the key back', () => {
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      const detail = `Invalid api key ${req.headers['x-api-key']}`;
      res.end(
        JSON.stringify({ title: 'Unauthorized', status: 401, detail, timestamp: '2026-11-22 10:00:00' }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/rest`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('redacts even a short key, in the message and in the JSON error', async () => {
    const r = await runAgency(['me', '--json'], {
      configDir: join(shared.tmp, 'echo'),
      env: { AGENCY_API_KEY: 'k1234', AGENCY_BASE_URL: baseUrl },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('[redacted]');
    expect(r.stderr).not.toMatch(/k1234/);
  });
});

describe('a service answer that echoes the key in use', () => {
  const KEY = 'wpk_hq_ECHOED0123456789abcdefECHOED99';
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    // /v1/me answers 200 with the key it was sent in two fields (one nested), the way a service might.
    server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const key = String(req.headers['x-api-key']);
      res.end(
        JSON.stringify({ id: 1, account_type: 'HQ', api_key: key, settings: { note: `key ${key} in use` } }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/rest`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const run = (args: string[]) =>
    runAgency(args, {
      configDir: join(shared.tmp, 'echo-200'),
      env: { AGENCY_API_KEY: KEY, AGENCY_BASE_URL: baseUrl },
    });

  it.each([
    ['me --json', ['me', '--json']],
    ['me (rows)', ['me']],
    ['api /v1/me', ['api', '/v1/me']],
  ])('%s shows it masked, first and last 4 characters only', async (_name, args) => {
    const r = await run(args);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(KEY);
    expect(r.stderr).not.toContain(KEY);
    expect(r.stdout).toContain('wpk_…ED99');
  });

  it('the rest of the answer is untouched', async () => {
    const r = await run(['me', '--json']);
    expect(JSON.parse(r.stdout)).toEqual({
      id: 1,
      account_type: 'HQ',
      api_key: 'wpk_…ED99',
      settings: { note: 'key wpk_…ED99 in use' },
    });
  });
});
