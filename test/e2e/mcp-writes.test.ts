/**
 * `agency mcp --allow-writes` through the SDK's own client: the write tools and their annotations, a key
 * created once, a 409 as a tool error and then a successful call, one set of per-account gates shared
 * by calls in flight, progress notifications, and cancellation.
 */
import { describe, expect, it } from 'vitest';
import { activeCompany, sent } from '../helpers/core.js';
import { resultJson, sharedMcp, startMcp, texts, toolError } from '../helpers/mcp.js';

const shared = sharedMcp(['--allow-writes'], { latencyMs: 5 });
const call = shared.call;

describe('agency mcp --allow-writes', () => {
  it('offers the write tools, annotated', async () => {
    const { tools } = await shared.mcp.client.listTools();
    const annotations = (name: string) => tools.find((t) => t.name === name)?.annotations;
    // A second call returns the key the user has with the label; `new` mints another.
    expect(annotations('keys_create')).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(tools.find((t) => t.name === 'keys_create')?.inputSchema.properties).toHaveProperty('new');
    expect(tools.find((t) => t.name === 'companies_create')?.inputSchema.properties).toHaveProperty(
      'allow_similar',
    );
    expect(annotations('webhooks_unsubscribe')).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    // `prune` unsubscribes the webhooks the plan does not list: destructive.
    expect(annotations('apply')).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
    expect(tools.find((t) => t.name === 'apply')?.inputSchema.properties).toHaveProperty('prune');
    expect(annotations('webhooks_move')).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(annotations('guests_invite')).toMatchObject({ destructiveHint: false, idempotentHint: true });
    expect(annotations('guests_permissions')).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(annotations('companies_list')).toMatchObject({ readOnlyHint: true });
    const apply = tools.find((t) => t.name === 'apply')?.inputSchema;
    expect(apply?.properties).not.toHaveProperty('yes');
    expect(apply?.properties).not.toHaveProperty('keys_out');
    expect(tools.find((t) => t.name === 'keys_create')?.inputSchema.required).toEqual(['label']);
    expect(tools.find((t) => t.name === 'webhooks_subscribe')?.inputSchema.properties).toMatchObject({
      url: { type: 'string', format: 'uri' },
      event: { type: 'array', items: { type: 'string', enum: expect.arrayContaining(['prospect_replied']) } },
    });
  });

  it('creates a key with keys_create: one POST, the key in the result', async () => {
    const company = activeCompany(shared.h.sandbox);
    const result = resultJson(await call('keys_create', { company: [company.id], label: 'mcp-assistant' }));
    expect(result).toMatchObject({ company_id: company.id, label: 'mcp-assistant' });
    const apiKey = (result as { api_key: string }).api_key;
    expect(shared.h.sandbox.store.keysOf(company.id).map((k) => k.key)).toContain(apiKey);
    expect(sent(shared.h.sandbox).filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(shared.h.sandbox.stats().createdKeys).toBe(1);
  });

  it('applies a desired state given as YAML, and sends nothing the second time', async () => {
    const company = activeCompany(shared.h.sandbox);
    const yaml = `companies:\n  - name: ${company.name}\n    keys: [mcp-apply]\n`;
    const before = shared.h.sandbox.store.keysOf(company.id).length;
    resultJson(await call('apply', { yaml }));
    expect(shared.h.sandbox.store.keysOf(company.id).map((k) => k.label)).toContain('mcp-apply');
    expect(shared.h.sandbox.store.keysOf(company.id)).toHaveLength(before + 1);
    shared.h.sandbox.reset();
    resultJson(await call('apply', { yaml }));
    expect(sent(shared.h.sandbox).filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('answers a dry run of webhooks_move and guests_invite as the commands do, sending no change', async () => {
    const company = activeCompany(shared.h.sandbox);
    const from = 'https://hooks.northwind.example/woodpecker/replies';
    const cases: [string, Record<string, unknown>, string[]][] = [
      [
        'webhooks_move',
        { from, to: 'https://b.example/h', all: true, dry_run: true },
        ['webhooks', 'move', '--from', from, '--to', 'https://b.example/h', '--all', '--dry-run'],
      ],
      [
        'guests_invite',
        { company: String(company.id), email: ['new.guest@acme.example'], dry_run: true },
        ['guests', 'invite', String(company.id), '--email', 'new.guest@acme.example', '--dry-run'],
      ],
    ];
    for (const [tool, args, argv] of cases) {
      const cli = await shared.h.run([...argv, '--json']);
      expect(cli.code, cli.stderr).toBe(0);
      expect(resultJson(await call(tool, args)), tool).toEqual(JSON.parse(cli.stdout));
    }
    expect(sent(shared.h.sandbox).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('refuses a bad write before any request', async () => {
    const id = activeCompany(shared.h.sandbox).id;
    const cases: [string, Record<string, unknown>, RegExp][] = [
      [
        'webhooks_subscribe',
        { event: ['prospect_replied'], url: 'ftp://example.com/x', company: [id] },
        /http/,
      ],
      ['keys_create', { company: [id], label: '' }, /label/i],
      ['companies_create', { name: [' '] }, /name/i],
      ['blacklist_add', { values: ['not a domain'], domains: true }, /not a domain/],
    ];
    for (const [tool, args, message] of cases) {
      const error = toolError(await call(tool, args));
      expect(error.exit_code, tool).toBe(2);
      expect(error.error.message, tool).toMatch(message);
    }
    expect(shared.h.requests()).toEqual([]);
  });

  it("carries the note that a value goes in its ASCII form in the result, in the tool's terms (fourth pass F7)", async () => {
    const result = await call('blacklist_add', { domains: true, values: ['straße.example'], dry_run: true });
    expect(resultJson(result)).toEqual([{ value: 'xn--strae-oqa.example', result: 'would-add' }]);
    expect(texts(result)).toContain(
      'note: straße.example (values #1) is sent in its ASCII form, xn--strae-oqa.example.',
    );
  });

  it('gives a 409 as a tool error, sends that POST once, and serves the next call', async () => {
    const company = activeCompany(shared.h.sandbox);
    shared.h.sandbox.addFault({
      method: 'POST',
      path: `/v2/agency/companies/${company.id}/api_keys`,
      kind: 'status',
      status: 409,
      detail: 'Company is inactive',
    });
    const error = toolError(await call('keys_create', { company: [String(company.id)], label: 'mcp-409' }));
    expect(error.error).toMatchObject({ status: 409, detail: 'Company is inactive' });
    expect(error.error.message).toMatch(/409/);
    expect(sent(shared.h.sandbox).filter((r) => r.method === 'POST')).toHaveLength(1);
    const again = resultJson(await call('keys_create', { company: [String(company.id)], label: 'mcp-409' }));
    expect(again).toMatchObject({ company_id: company.id, label: 'mcp-409' });
  });

  it('reports the progress of a fleet tool when the client asks', async () => {
    const updates: { progress: number; total?: number; message?: string }[] = [];
    const result = await shared.mcp.client.callTool(
      { name: 'inventory', arguments: { active: true } },
      undefined,
      {
        onprogress: (p) => updates.push(p),
      },
    );
    const audited = (resultJson(result) as unknown[]).length;
    expect(updates.length).toBeGreaterThan(2);
    for (let i = 1; i < updates.length; i++)
      expect(updates[i]?.progress).toBeGreaterThan(updates[i - 1]?.progress ?? 0);
    expect(updates.some((u) => /companies listed$/.test(u.message ?? ''))).toBe(true);
    const last = updates.at(-1);
    expect(last?.message).toBe(`${audited} of ${audited} companies audited`);
    expect(last?.progress).toBe(last?.total);
  });

  it('stops a cancelled call: no request after it, and the server serves on', async () => {
    const controller = new AbortController();
    const all = shared.h.sandbox.store.companies(1).length;
    const pending = shared.mcp.client.callTool({ name: 'inventory', arguments: {} }, undefined, {
      signal: controller.signal,
      onprogress: (p) => {
        if (/audited/.test(p.message ?? '')) controller.abort();
      },
    });
    await expect(pending).rejects.toThrow(/abort/i);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = shared.h.requests().length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(shared.h.requests().length).toBe(after);
    // The listing plus a few audits, not one audit per company (each is several requests).
    expect(after).toBeLessThan(all * 2);
    expect(resultJson(await call('companies_list', { limit: 2 }))).toHaveLength(2);
    expect(shared.mcp.stderr()).toMatch(/\[inventory\] (error: )?Interrupted/);
  });

  it('shares one set of per-account gates between calls in flight', async () => {
    const one = await startMcp(shared.h, [], { AGENCY_MAX_IN_FLIGHT: '1' });
    try {
      shared.h.sandbox.reset();
      await Promise.all([
        one.client.callTool({ name: 'companies_list', arguments: {} }),
        one.client.callTool({ name: 'mailboxes', arguments: {} }),
        one.client.callTool({ name: 'blacklist_list', arguments: { domains: true } }),
      ]);
      const stats = shared.h.sandbox.stats();
      expect(stats.requests).toBeGreaterThan(3);
      expect(Object.values(stats.maxQueuedByAccount)).toEqual([1]);
    } finally {
      await one.close();
    }
  });
});
