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
