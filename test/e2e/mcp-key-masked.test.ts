/**
 * MCP results get the key in use masked like the command line's, because the masking happens in the
 * client beneath both: a service whose `me` echoes the key it was sent shows it as `wpk_…ED99` in the
 * `me` tool's result.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/cli.js';
import { startCoreHarness } from '../helpers/core.js';
import { resultJson, startMcp, texts } from '../helpers/mcp.js';

const KEY = 'wpk_hq_ECHOED0123456789abcdefECHOED99';
let server: Server;
let baseUrl: string;
let h: Harness;
beforeAll(async () => {
  server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 1, account_type: 'HQ', api_key: String(req.headers['x-api-key']) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/rest`;
  h = await startCoreHarness();
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await h?.close();
});

describe('agency mcp, a service that echoes the key', () => {
  it('the me tool shows it masked', async () => {
    const session = await startMcp(h, [], { AGENCY_API_KEY: KEY, AGENCY_BASE_URL: baseUrl });
    try {
      const result = await session.client.callTool({ name: 'me', arguments: {} });
      expect(texts(result).join('\n')).not.toContain(KEY);
      expect(resultJson(result)).toMatchObject({ api_key: 'wpk_…ED99' });
      expect(session.stderr()).not.toContain(KEY);
    } finally {
      await session.close();
    }
  });
});
