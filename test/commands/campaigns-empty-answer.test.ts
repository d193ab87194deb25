/**
 * The v1 campaign list answers "nothing" the way the v1 webhook list does: 204, an empty body, or a
 * 200 {"message": ...} with no list (contract: an empty answer is an empty list; issue 9: every v1 list
 * read treats it the same way). The program (in this process: what it reads is the point, not the
 * binary) against a node:http server that answers like that.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess as runAgency } from '../helpers/in-process.js';

let server: Server;
let baseUrl: string;
let configDir: string;
let body = '';

beforeAll(async () => {
  configDir = mkdtempSync(join(tmpdir(), 'agency-campaigns-empty-'));
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rest`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(configDir, { recursive: true, force: true });
});

const campaigns = (...args: string[]) =>
  runAgency(['campaigns', ...args], {
    configDir,
    env: { AGENCY_API_KEY: 'wpk_empty_answer_key_0123456789', AGENCY_BASE_URL: baseUrl },
  });

describe('campaigns: a {"message"} answer without a list', () => {
  it('is an empty list: [] with --json, nothing piped, exit 0', async () => {
    body = JSON.stringify({ message: "You don't have any campaigns." });
    const json = await campaigns('--json');
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([]);
    const piped = await campaigns();
    expect([piped.code, piped.stdout]).toEqual([0, '']);
  });

  it('is still an error when the object carries something else (not understood, exit 1)', async () => {
    body = JSON.stringify({ campaigns: 'nope' });
    const r = await campaigns('--json');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
  });
});
