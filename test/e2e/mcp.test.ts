/**
 * `agency mcp` without --allow-writes, through the SDK's own client over stdio: the tools and their
 * schemas, every read tool's result equal to its command's --json, writes refused with nothing sent,
 * local checks before any request, and only protocol messages on stdout.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { agencyEnv, BIN, jsonError, writeConfig } from '../helpers/cli.js';
import { activeCompany, inactiveCompany } from '../helpers/core.js';
import { INITIALIZE, resultJson, sharedMcp, startMcp, texts, toolError } from '../helpers/mcp.js';

// Twelve companies (one inactive among them): the point is that each tool answers what its command
// prints, not the size of a fleet.
const shared = sharedMcp([], { seed: { companies: 12 } });
const call = shared.call;

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
  'blacklist_check',
  'inventory',
  'deliverability',
  'plan',
];

describe('agency mcp (reads only)', () => {
  it('lists the read tools, annotated read-only, with schemas made from the commands', async () => {
    const { tools } = await shared.mcp.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(READS));
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      // No tool reads or writes a local file: the assistant gives the values.
      for (const local of ['file', 'keys_out', 'html'])
        expect(tool.inputSchema.properties).not.toHaveProperty(local);
    }
    for (const write of [
      'keys_create',
      'companies_create',
      'webhooks_subscribe',
      'apply',
      'blacklist_add',
      'blacklist_remove',
    ])
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
    expect(tools.find((t) => t.name === 'deliverability')?.inputSchema.properties).toMatchObject({
      from: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
      company: { type: 'array', items: { type: 'string' } },
    });
    // An option's value name says what its values are (`--limit <n>`, `--from <date>`, `--url <url>`),
    // for every tool alike: webhooks_list and deliverability were once offered `limit` as text.
    const property = (name: string, key: string) =>
      tools.find((t) => t.name === name)?.inputSchema.properties?.[key] as
        | Record<string, unknown>
        | undefined;
    const integers: [string, string][] = [
      ['webhooks_list', 'limit'],
      ['webhooks_list', 'concurrency'],
      ['deliverability', 'limit'],
      ['companies_list', 'limit'],
      ['inventory', 'concurrency'],
    ];
    for (const [name, key] of integers)
      expect(property(name, key), `${name} ${key}`).toMatchObject({ type: 'integer', minimum: 1 });
    expect(property('history_health', 'since')).toMatchObject({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
  });

  it("answers each read tool with exactly its command's --json", async () => {
    const company = activeCompany(shared.h.sandbox);
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
      [
        'blacklist_check',
        { values: ['example.com', 'a@b.example'] },
        ['blacklist', 'check', 'example.com', 'a@b.example'],
      ],
      ['inventory', { company: [id] }, ['inventory', '--company', id]],
      ['deliverability', {}, ['deliverability']],
      [
        'deliverability',
        { company: [id], from: '2026-01-01', to: '2026-01-31' },
        ['deliverability', '--company', id, '--from', '2026-01-01', '--to', '2026-01-31'],
      ],
      ['plan', { yaml }, ['plan', '-f', '-'], yaml],
    ];
    for (const [tool, args, argv, input] of cases) {
      const cli = await shared.h.run([...argv, '--json'], { input: input ?? '' });
      expect(cli.code, `${argv.join(' ')}: ${cli.stderr}`).toBe(0);
      expect(resultJson(await call(tool, args)), tool).toEqual(JSON.parse(cli.stdout));
    }
    // report: the command's JSON; by=client leaves the campaigns out (the billing view, compact).
    const report = await shared.h.run(['report', '--company', id, '--json']);
    expect(report.code, report.stderr).toBe(0);
    const full = JSON.parse(report.stdout);
    expect(resultJson(await call('report', { company: [id] }))).toEqual(full);
    const billing = resultJson(await call('report', { company: [id], by: 'client' })) as typeof full;
    expect(billing.clients).toEqual(
      full.clients.map(({ campaigns: _, ...client }: Record<string, unknown>) => client),
    );
    expect(billing.totals).toEqual(full.totals);
    // health exits 7 when it finds critical problems: for the assistant the report is the answer.
    const health = await shared.h.run(['health', '--json']);
    expect(health.code).toBe(7);
    // A problem's next step names a command: campaigns_resume is not offered without writes, so the
    // assistant reads it as the user's to run (the command line's --json says the command itself).
    const userRuns = health.stdout.replace(/(agency campaigns resume [^"]*)/g, 'ask the user to run `$1`');
    expect(userRuns).toMatch(/ask the user to run `agency campaigns resume --company \d+ --campaign \d+`/);
    expect(resultJson(await call('health'))).toEqual(JSON.parse(userRuns));
  }, 90_000); // some twenty commands, each run twice

  it('masks the keys of keys_list unless reveal is asked', async () => {
    const id = String(activeCompany(shared.h.sandbox).id);
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

  it('takes the key from -p or the environment, as every command does, for every call', async () => {
    const [, tom] = shared.h.sandbox.users;
    if (!tom) throw new Error('the sandbox has a second user');
    const config = shared.h.readConfig() as { profiles: Record<string, unknown> };
    writeConfig(shared.h.configDir, {
      ...config,
      profiles: { ...config.profiles, tom: { api_key: tom.hqKey, base_url: shared.h.sandbox.baseUrl } },
    });
    for (const [args, env] of [
      [['-p', 'tom'], {}],
      [[], { AGENCY_API_KEY: tom.hqKey }],
    ] as const) {
      const session = await startMcp(shared.h, [...args], env);
      try {
        const me = await session.client.callTool({ name: 'me', arguments: {} });
        expect(resultJson(me), JSON.stringify(args)).toMatchObject({ name: tom.name });
        expect(JSON.stringify(me) + session.stderr()).not.toContain(tom.hqKey);
      } finally {
        await session.close();
      }
    }
  });

  it('refuses a write tool without --allow-writes, and sends nothing', async () => {
    const id = String(activeCompany(shared.h.sandbox).id);
    const error = toolError(await call('keys_create', { company: [id], label: 'mcp' }));
    expect(error.error.message).toMatch(
      /changes the agency, and this server was started without allowing writes/,
    );
    expect(error.error.hint).toMatch(/ask the user to run `agency mcp --allow-writes`/);
    expect(shared.h.requests()).toEqual([]);
  });

  it('refuses bad input as the command line does (exit 2), before any request', async () => {
    const id = String(activeCompany(shared.h.sandbox).id);
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['keys_list', { company: id, page: 0 }, /^Invalid page "0"/],
      ['keys_list', {}, /Missing argument "company"/],
      ['companies_list', { active: true, inactive: true }, /cannot be used with/],
      ['companies_list', { color: 'red' }, /Unknown argument "color"/],
      ['companies_list', { limit: 'many' }, /^Invalid limit "many": expected a whole number from 1\.$/],
      ['health', { from: '2026-13-01' }, /^from 2026-13-01 is not a date: there is no month 13\.$/],
      ['inventory', { company: [id], all: true }, /; all, active and inactive cannot be added/],
      ['deliverability', { from: '2026-02-30' }, /2026-02-30/],
      ['plan', { yaml: 'companies: [' }, /^Invalid plan file: line 1 of the plan\b/],
    ];
    for (const [tool, args, message] of cases) {
      const error = toolError(await call(tool, args));
      expect(error.exit_code, `${tool} ${JSON.stringify(args)}`).toBe(2);
      expect(error.error.message).toMatch(message);
      // In the tool's own terms (fourth pass F8): the assistant passed arguments, not command-line flags.
      expect(error.error.message).not.toMatch(/--(?:page|limit|from|company|all)\b/);
    }
    expect(shared.h.requests()).toEqual([]);
  });

  it('gives a service error as a tool error with the same message, and keeps serving', async () => {
    const inactive = String(inactiveCompany(shared.h.sandbox).id);
    const cli = await shared.h.run(['webhooks', 'list', '--company', inactive, '--json']);
    expect(cli.code).toBe(5);
    const error = toolError(await call('webhooks_list', { company: inactive }));
    expect(error.error).toMatchObject(jsonError(cli.stderr).error);
    expect(error.error.status).toBe(409);
    expect(error.exit_code).toBe(5);
    expect(resultJson(await call('companies_list', { limit: 1 }))).toHaveLength(1);
    expect(shared.mcp.errors).toEqual([]);
  });
});

describe('agency mcp on stdout', () => {
  it('writes only protocol messages, whatever the tools print, and answers every request before it ends', async () => {
    const id = String(activeCompany(shared.h.sandbox).id);
    const requests = [
      INITIALIZE,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'keys_list', arguments: { company: id } },
      },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'keys_list', arguments: { page: 0 } } },
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'inventory', arguments: {} } },
    ];
    // All the requests, then the end of stdin (`agency mcp < requests.jsonl`).
    const r = await shared.h.spawn(['mcp', '--debug'], {
      input: requests.map((m) => `${JSON.stringify(m)}\n`).join(''),
    }).result;
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    const messages = lines.map((l) => JSON.parse(l));
    for (const message of messages) expect(message).toHaveProperty('jsonrpc', '2.0');
    // Calls are answered as they finish, not in the order they came.
    expect(messages.map((m) => m.id).sort()).toEqual([1, 2, 3, 4, 5]);
    // Debug logs went to stderr, each line marked with its tool; the key is nowhere (run() checks).
    expect(r.stderr).toMatch(/\[keys_list\] \[debug\]/);
    expect(texts(messages.find((m) => m.id === 3).result).join('')).toMatch(/wpk_…/);
    expect(messages.find((m) => m.id === 4).result.isError).toBe(true);
  });

  it('answers a line that is not JSON (-32700) or not JSON-RPC (-32600), and serves the next one', async () => {
    const input = [
      JSON.stringify(INITIALIZE),
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      '{"jsonrpc":"2.0","id":2,"method":"tools/list"', // cut short
      'tools/list please',
      JSON.stringify({ hello: 'world' }),
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    ];
    const r = await shared.h.spawn(['mcp'], { input: `${input.join('\n')}\n` }).result;
    expect(r.code, r.stderr).toBe(0);
    const messages = r.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l));
    const errors = messages.filter((m) => m.error);
    expect(errors.map((m) => [m.jsonrpc, m.id, m.error.code])).toEqual([
      ['2.0', null, -32700],
      ['2.0', null, -32700],
      ['2.0', null, -32600],
    ]);
    expect(errors[0].error.message).toMatch(/^Parse error/);
    // The request after the bad lines is answered: the server kept serving.
    expect(messages.find((m) => m.id === 3)?.result.tools.length).toBeGreaterThan(0);
    expect(messages.some((m) => m.id === 2)).toBe(false);
    expect(r.stderr.match(/answered -32700; serving on/g)).toHaveLength(2);
  });

  it('ends on SIGTERM with the exit code of a stopped command (143)', async () => {
    // Spawned by hand: stdin stays open, as a client keeps it.
    const child = spawn(process.execPath, [BIN, 'mcp'], {
      env: agencyEnv({ configDir: shared.h.configDir }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await expect.poll(() => stderr, { timeout: 10_000 }).toMatch(/agency mcp: serving/);
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(stdout).toBe('');
  });

  it('does not start without a usable profile, and says why on stderr', async () => {
    const r = await shared.h.spawn(['-p', 'nope', 'mcp']).result;
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/No profile named "nope"/);
  });
});
