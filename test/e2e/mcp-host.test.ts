/**
 * `agency mcp` as a host of its own: it serves the profile it announced for its whole life, its
 * results are compact JSON without the key in use, list tools take the columns filter, and its
 * messages name arguments and tools, never flags or command lines.
 */
import { describe, expect, it } from 'vitest';
import { writeConfig } from '../helpers/cli.js';
import { activeCompany } from '../helpers/core.js';
import { resultJson, sharedMcp, startMcp, texts, toolError } from '../helpers/mcp.js';

const shared = sharedMcp(['--allow-writes'], { seed: { companies: 4 } });
const call = shared.call;

describe('agency mcp serves what it announced', () => {
  it('keeps the profile, key and base URL it started with after `profiles use` in another shell', async () => {
    const [first, tom] = shared.h.sandbox.users;
    if (!first || !tom) throw new Error('the sandbox has two users');
    const config = shared.h.readConfig() as { current: string; profiles: Record<string, unknown> };
    writeConfig(shared.h.configDir, {
      ...config,
      profiles: { ...config.profiles, tom: { api_key: tom.hqKey, base_url: shared.h.sandbox.baseUrl } },
    });
    const session = await startMcp(shared.h);
    try {
      const me = async () => resultJson(await session.client.callTool({ name: 'me', arguments: {} }));
      expect(await me()).toMatchObject({ name: first.name });
      const use = await shared.h.run(['profiles', 'use', 'tom']);
      expect(use.code, use.stderr).toBe(0);
      // A new run of the command line now acts as tom; the running server still serves its profile.
      expect(JSON.parse((await shared.h.run(['me', '--json'])).stdout)).toMatchObject({ name: tom.name });
      expect(await me()).toMatchObject({ name: first.name });
      expect(session.stderr()).toMatch(new RegExp(`serving \\d+ tools for profile "${config.current}"`));
      expect(session.stderr()).not.toContain(tom.hqKey);
    } finally {
      await shared.h.run(['profiles', 'use', config.current]);
      await session.close();
    }
  });
});

describe('agency mcp results', () => {
  it('are compact JSON, and a list tool takes the fields it wants (columns)', async () => {
    const result = await call('companies_list', { limit: 2, columns: ['id', 'name'] });
    const [text] = texts(result);
    expect(text).not.toMatch(/\n/);
    const rows = resultJson(result) as Record<string, unknown>[];
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(['id', 'name']);
    const { tools } = await shared.mcp.client.listTools();
    const schema = (name: string) => tools.find((t) => t.name === name)?.inputSchema.properties ?? {};
    expect(schema('companies_list')).toHaveProperty('columns.type', 'array');
    // A command that prints no list takes no columns.
    expect(schema('me')).not.toHaveProperty('columns');
  });

  it('never hold the key in use', async () => {
    const result = await call('me');
    expect(JSON.stringify(result)).not.toContain(shared.h.sandbox.hqKey);
  });
});

describe('agency mcp messages, in the tool terms', () => {
  it('name the arguments, not the flags: an existing name points at skip_existing', async () => {
    const company = activeCompany(shared.h.sandbox);
    const error = toolError(await call('companies_create', { name: [company.name] }));
    expect(error.error.hint).toMatch(/\bskip_existing\b/);
    expect(JSON.stringify(error)).not.toMatch(/--[a-z]/);
  });

  it('name the tools, not command lines: an unknown company points at companies_list', async () => {
    const error = toolError(await call('keys_list', { company: 'No Such Company Ltd' }));
    expect(error.exit_code).toBe(4);
    expect(error.error.hint).toMatch(/\bcompanies_list\b/);
    expect(error.error.hint).not.toMatch(/agency companies list/);
  });

  it('name conflicting arguments by their names, before any request', async () => {
    const error = toolError(await call('companies_list', { active: true, inactive: true }));
    expect(error.exit_code).toBe(2);
    expect(error.error.message).toBe('Argument "active" cannot be used with "inactive".');
    expect(shared.h.requests()).toEqual([]);
  });
});
