/**
 * What goes on the wire, byte for byte, where the service's documentation shows a literal form:
 * the program (in this process: the request line is its own, not the binary's) against a tiny node:http
 * server that records each raw request line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runInProcess as runAgency } from '../helpers/in-process.js';

let server: Server;
let baseUrl: string;
let configDir: string;
let urls: string[] = [];

beforeAll(async () => {
  configDir = mkdtempSync(join(tmpdir(), 'agency-wire-'));
  server = createServer((req, res) => {
    urls.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rest`;
});

beforeEach(() => {
  urls = [];
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(configDir, { recursive: true, force: true });
});

describe('campaigns --status on the wire', () => {
  it('sends the statuses upper-cased and comma-separated as the docs write them (status=RUNNING,PAUSED)', async () => {
    const r = await runAgency(['campaigns', '--status', 'running,Paused'], {
      configDir,
      env: { AGENCY_API_KEY: 'wpk_wire_test_key_0123456789', AGENCY_BASE_URL: baseUrl },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(urls).toEqual(['/rest/v1/campaign_list?status=RUNNING,PAUSED']);
  });
});
