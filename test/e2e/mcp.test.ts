/**
 * `agency mcp` without --allow-writes, through the SDK's own client over stdio: the tools and their
 * schemas, every read tool's result equal to its command's --json, writes refused with nothing sent,
 * local checks before any request, and only protocol messages on stdout.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agencyEnv, BIN, CANARY_KEY, type Harness, jsonError } from '../helpers/cli.js';
import { activeCompany, inactiveCompany, startCoreHarness } from '../helpers/core.js';
import { expectNoCanary, type McpSession, resultJson, startMcp, texts, toolError } from '../helpers/mcp.js';

let h: Harness;
let mcp: McpSession;
const results: unknown[] = [];

beforeAll(async () => {
  h = await startCoreHarness();
  mcp = await startMcp(h);
});
afterAll(async () => {
  await mcp?.close();
  await h?.close();
});
beforeEach(() => h.sandbox.reset());

const call = async (name: string, args: Record<string, unknown> = {}) => {
  const result = await mcp.client.callTool({ name, arguments: args });
  results.push(result);
  return result;
};

const READS = [
  'me',
  'companies_list',
  'companies_view',
  'companies_users',
  'companies_email_accounts',
  'keys_list',
  'mailboxes',
  'webhooks_list',
  'campaigns_list',
  'blacklist_list',
  'inventory',
  'plan',
];

describe('agency mcp (reads only)', () => {
  it('lists the read tools, annotated read-only, with schemas made from the commands', async () => {
    const { tools } = await mcp.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(READS));
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
    }
    for (const write of ['keys_create', 'companies_create', 'webhooks_subscribe', 'apply', 'blacklist_add'])
      expect(names).not.toContain(write);
    // Neither raw calls nor the profile and sandbox commands are tools.
    for (const other of ['api', 'login', 'logout', 'profiles_list', 'sandbox'])
      expect(names).not.toContain(other);
    const keys = tools.find((t) => t.name === 'keys_list');
    expect(keys?.inputSchema.required).toEqual(['company']);
    expect(keys?.inputSchema.properties).toMatchObject({
      company: { type: 'string' },
      page: { type: 'integer', minimum: 1 },
      reveal: { type: 'boolean' },
    });
    const inventory = tools.find((t) => t.name === 'inventory');
    expect(inventory?.inputSchema.properties).toHaveProperty('company.type', 'array');
    expect(inventory?.inputSchema.properties).not.toHaveProperty('file');
    expect(tools.find((t) => t.name === 'plan')?.inputSchema.required).toEqual(['yaml']);
  });

  it("answers each read tool with exactly its command's --json", async () => {
    const company = activeCompany(h.sandbox);
    const id = String(company.id);
    const yaml = `companies:\n  - name: ${company.name}\n    keys: [mcp-plan]\n`;
    const cases: [string, Record<string, unknown>, string[], string?][] = [
      ['me', {}, ['me']],
      ['companies_list', {}, ['companies', 'list']],
      ['companies_list', { active: true, limit: 3 }, ['companies', 'list', '--active', '--limit', '3']],
      ['companies_view', { company: company.name }, ['companies', 'view', company.name]],
      ['companies_users', { company: id }, ['companies', 'users', id]],
      ['companies_email_accounts', { company: company.id }, ['companies', 'email-accounts', id]],
      ['keys_list', { company: id, reveal: true }, ['keys', 'list', id]],
      ['mailboxes', {}, ['mailboxes']],
      ['mailboxes', { company: id }, ['mailboxes', '--company', id]],
      ['webhooks_list', { company: id }, ['webhooks', 'list', '--company', id]],
      ['campaigns_list', { company: id }, ['campaigns', 'list', '--company', id]],
      ['blacklist_list', { domains: true }, ['blacklist', 'list', '--domains']],
      ['blacklist_list', { emails: true, filter: 'a' }, ['blacklist', 'list', '--emails', '--filter', 'a']],
      ['inventory', { company: [id] }, ['inventory', '--company', id]],
      ['plan', { yaml }, ['plan', '-f', '-'], yaml],
    ];
    for (const [tool, args, argv, input] of cases) {
      const cli = await h.run([...argv, '--json'], { input: input ?? '' });
      expect(cli.code, `${argv.join(' ')}: ${cli.stderr}`).toBe(0);
      expect(resultJson(await call(tool, args)), tool).toEqual(JSON.parse(cli.stdout));
    }
    expectNoCanary(mcp, results);
  });

  it('masks the keys of keys_list unless reveal is asked', async () => {
    const id = String(activeCompany(h.sandbox).id);
    const whole = resultJson(await call('keys_list', { company: id, reveal: true })) as { api_key: string }[];
    const masked = resultJson(await call('keys_list', { company: id })) as { api_key: string }[];
    expect(whole.length).toBeGreaterThan(0);
    expect(masked).toHaveLength(whole.length);
    for (const [i, key] of masked.entries()) {
      expect(key.api_key).not.toBe(whole[i]?.api_key);
      expect(key.api_key).toMatch(/^wpk_…[0-9a-f]{4}$/);
      expect(whole[i]?.api_key.endsWith(key.api_key.slice(-4))).toBe(true);
    }
  });

  it('refuses a write tool without --allow-writes, and sends nothing', async () => {
    const id = String(activeCompany(h.sandbox).id);
    const error = toolError(await call('keys_create', { company: [id], label: 'mcp' }));
    expect(error.error.message).toMatch(/changes the agency.*--allow-writes/);
    expect(error.error.hint).toMatch(/agency mcp --allow-writes/);
    expect(h.requests()).toEqual([]);
  });

  it('refuses bad input as the command line does (exit 2), before any request', async () => {
    const id = String(activeCompany(h.sandbox).id);
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['keys_list', { company: id, page: 0 }, /--page/],
      ['keys_list', {}, /Missing argument "company"/],
      ['companies_list', { active: true, inactive: true }, /cannot be used with/],
      ['companies_list', { color: 'red' }, /Unknown argument "color"/],
      ['companies_list', { limit: 'many' }, /--limit/],
      ['inventory', { company: [id], all: true }, /--all/],
      ['plan', { yaml: 'companies: [' }, /Invalid plan file: stdin line 1/],
    ];
    for (const [tool, args, message] of cases) {
      const error = toolError(await call(tool, args));
      expect(error.exit_code, `${tool} ${JSON.stringify(args)}`).toBe(2);
      expect(error.error.message).toMatch(message);
    }
    expect(h.requests()).toEqual([]);
  });

  it('gives a service error as a tool error with the same message, and keeps serving', async () => {
    const inactive = String(inactiveCompany(h.sandbox).id);
    const cli = await h.run(['webhooks', 'list', '--company', inactive, '--json']);
    expect(cli.code).toBe(5);
    const error = toolError(await call('webhooks_list', { company: inactive }));
    expect(error.error).toMatchObject(jsonError(cli.stderr).error);
    expect(error.error.status).toBe(409);
    expect(error.exit_code).toBe(5);
    expect(resultJson(await call('companies_list', { limit: 1 }))).toHaveLength(1);
    expect(mcp.errors).toEqual([]);
  });
});

describe('agency mcp on stdout', () => {
  it('writes only protocol messages, whatever the tools print', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--debug'], {
      env: agencyEnv({ configDir: h.configDir }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const id = String(activeCompany(h.sandbox).id);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'keys_list', arguments: { company: id } },
    });
    send({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'keys_list', arguments: { page: 0 } },
    });
    send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'inventory', arguments: {} } });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await expect
      .poll(() => stdout.split('\n').filter((l) => l.includes('"id":5')).length, { timeout: 20_000 })
      .toBe(1);
    child.stdin.end(); // the client goes away: the server ends
    expect(await exited).toBe(0);
    const lines = stdout.split('\n').filter((l) => l !== '');
    for (const line of lines) expect(JSON.parse(line)).toHaveProperty('jsonrpc', '2.0');
    // Calls are answered as they finish, not in the order they came.
    expect(lines.map((l) => JSON.parse(l).id).sort()).toEqual([1, 2, 3, 4, 5]);
    // Debug logs and warnings went to stderr, redacted; the key is nowhere.
    expect(stderr).toMatch(/\[keys_list\] \[debug\]/);
    expect(stderr + stdout).not.toContain(CANARY_KEY);
    const keys = lines.map((l) => JSON.parse(l)).find((m) => m.id === 3);
    expect(texts(keys.result).join('')).toMatch(/wpk_…/);
  });
});
