/**
 * Every tool of `agency mcp --allow-writes`, called the way an assistant gets things wrong and right —
 * bad arguments, names that exist or not, plan lines, lost answers, refused keys, answers that are no
 * JSON — and each whole result scanned: no error, hint, note, warning or result text names a `--flag`
 * or an `agency …` command line (only "ask the user to run `agency …`", for what has no tool), and no
 * reference is left unsaid. Each tool must have a failing and a succeeding call here.
 */
import { Writable } from 'node:stream';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/program.js';
import type { FaultRule } from '../../src/sandbox/faults.js';
import { USER_RUNS } from '../../src/terms.js';
import { activeCompany } from '../helpers/core.js';
import { sharedMcp, texts } from '../helpers/mcp.js';

// Twelve companies: one of them has a paused campaign with an error (health names the tool that resumes it).
const shared = sharedMcp(['--allow-writes'], { seed: { companies: 12 } });

const HOOK = 'https://hooks.example/mcp-terms';
/** The program's top-level commands: `agency <one of them>` is a command line. */
async function commandNames(): Promise<string[]> {
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const program = await buildProgram({ stdout: sink, stderr: sink }, () => async () => {});
  return program.commands.map((c) => c.name());
}

/** Every string of a result: its JSON texts' values, or the text itself (notes and warnings). */
function strings(result: unknown): string[] {
  const found: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') found.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  for (const text of texts(result)) {
    try {
      walk(JSON.parse(text));
    } catch {
      found.push(text);
    }
  }
  return found;
}

/** What in a result speaks the command line's terms (or holds a reference no host said). */
function commandLineTerms(result: unknown, commands: readonly string[]): string[] {
  const commandLine = new RegExp(`\\bagency (${commands.join('|')})\\b`);
  return strings(result).flatMap((text) => {
    const said = text.replace(USER_RUNS, '');
    const wrong = [/(^|[^\w-])--[a-z]/, commandLine, /[\uE000\uE001]/].some((p) => p.test(said));
    return wrong ? [text] : [];
  });
}

interface Case {
  tool: string;
  args: Record<string, unknown>;
  faults?: FaultRule[];
}

describe('agency mcp says everything in tool terms', () => {
  it('in the errors, hints, notes, warnings and results of every tool', async () => {
    const { sandbox } = shared.h;
    const commands = await commandNames();
    expect(commands).toEqual(expect.arrayContaining(['login', 'campaigns', 'companies']));
    const company = activeCompany(sandbox);
    const id = String(company.id);
    const [guest] = sandbox.store.guestsOf(company);
    if (!guest) throw new Error('a seeded company has a guest');
    const lost = (method: string, path: string): FaultRule => ({ method, path, kind: 'reset-after' });
    const unreadable = (path: string): FaultRule => ({
      method: 'GET',
      path,
      kind: 'status',
      status: 500,
      times: 0,
    });
    const cases: Case[] = [
      { tool: 'me', args: {} },
      { tool: 'me', args: { company: 'No Such Company Ltd' } },
      { tool: 'me', args: {}, faults: [{ path: '/v1/me', kind: 'status', status: 401, times: 0 }] },
      { tool: 'me', args: {}, faults: [{ path: '/v1/me', kind: 'not-json', times: 0 }] },
      { tool: 'companies_list', args: { limit: 2 } },
      { tool: 'companies_list', args: { search: '' } },
      { tool: 'companies_list', args: { columns: ['bogus'] } },
      { tool: 'companies_view', args: { company: company.name } },
      { tool: 'companies_view', args: { company: '999999' } },
      { tool: 'companies_users', args: { company: id } },
      { tool: 'companies_users', args: { company: 'acme-nope' } },
      { tool: 'companies_email_accounts', args: { company: id } },
      { tool: 'companies_email_accounts', args: { company: '0' } },
      { tool: 'keys_list', args: { company: id } },
      { tool: 'keys_list', args: { company: id, limit: 0 } },
      { tool: 'mailboxes', args: {} },
      { tool: 'mailboxes', args: { company: 'No Such Company Ltd' } },
      { tool: 'webhooks_list', args: { company: [id] } },
      { tool: 'webhooks_list', args: { limit: 2 } },
      { tool: 'campaigns_list', args: { company: id } },
      { tool: 'campaigns_list', args: { status: 'BOGUS' } },
      { tool: 'blacklist_list', args: { domains: true } },
      { tool: 'blacklist_list', args: {} },
      { tool: 'blacklist_check', args: { values: ['example.com', 'a@b.example'] } },
      { tool: 'blacklist_check', args: { values: [] } },
      { tool: 'inventory', args: { company: [id] } },
      { tool: 'inventory', args: { concurrency: 99 } },
      { tool: 'deliverability', args: {} },
      { tool: 'deliverability', args: { from: '2026-02-30' } },
      // A campaign's error ends with the command that resumes it: campaigns_resume with its arguments.
      { tool: 'health', args: {} },
      { tool: 'health', args: { severity: 'bogus' } },
      { tool: 'health', args: { inactive: true } },
      { tool: 'report', args: { company: [id] } },
      { tool: 'report', args: { from: 'yesterday' } },
      { tool: 'plan', args: { yaml: `companies:\n  - name: ${company.name.toLowerCase()}\n` } },
      { tool: 'plan', args: { yaml: 'companies:\n  - name: [unclosed\n' } },
      {
        tool: 'plan',
        args: { yaml: 'companies:\n  - name: Acme\n    webhooks:\n      - {event: nope, url: x}\n' },
      },
      { tool: 'history_health', args: {} },
      { tool: 'history_health', args: { since: 'last week' } },
      { tool: 'history_report', args: { company: [id] } },
      { tool: 'history_report', args: { since: '2026-13-01' } },
      { tool: 'history_deliverability', args: {} },
      { tool: 'history_deliverability', args: { since: 'yesterday' } },
      { tool: 'companies_create', args: { name: ['Brand New Terms Ltd'] } },
      { tool: 'companies_create', args: { name: [company.name] } },
      { tool: 'companies_create', args: { name: ['  '] } },
      { tool: 'keys_create', args: { company: [id], label: 'terms' } },
      { tool: 'keys_create', args: { company: [id], label: '' } },
      {
        tool: 'keys_create',
        args: { company: [id], label: 'lost' },
        faults: [{ method: 'POST', path: `/v2/agency/companies/${id}/api_keys`, kind: 'reset-before' }],
      },
      { tool: 'webhooks_subscribe', args: { url: HOOK, event: ['prospect_replied'] } },
      { tool: 'webhooks_subscribe', args: { url: 'not a url', event: ['prospect_replied'] } },
      {
        tool: 'webhooks_subscribe',
        args: { url: HOOK, event: ['prospect_replied'], company: [id] },
        faults: [lost('POST', '/v1/webhooks/subscribe')],
      },
      { tool: 'webhooks_unsubscribe', args: { url: HOOK, event: ['prospect_replied'] } },
      { tool: 'webhooks_unsubscribe', args: { url: 'not a url', event: ['prospect_replied'] } },
      { tool: 'webhooks_unsubscribe', args: { url: HOOK, event: ['prospect_replid'] } },
      { tool: 'webhooks_move', args: { from: HOOK, to: `${HOOK}/b`, all: true, dry_run: true } },
      { tool: 'webhooks_move', args: { from: HOOK, to: HOOK } },
      { tool: 'guests_invite', args: { company: id, email: ['new.guest@acme.example'], dry_run: true } },
      { tool: 'guests_invite', args: { company: id, email: ['not-an-address'] } },
      { tool: 'guests_invite', args: { company: id } },
      { tool: 'guests_permissions', args: { company: id, guest: ['nobody@acme.example'], mailboxes: true } },
      { tool: 'guests_permissions', args: { company: id, guest: ['nobody@acme.example'] } },
      { tool: 'guests_permissions', args: { company: id, guest: [guest.email], none: true, dry_run: true } },
      { tool: 'blacklist_add', args: { domains: true, values: ['spam.example'] } },
      { tool: 'blacklist_add', args: { domains: true, values: ['a@b.example'] } },
      { tool: 'blacklist_remove', args: { emails: true, values: ['a@b.example'] } },
      { tool: 'blacklist_remove', args: { emails: true, values: ['b.example'] } },
      { tool: 'apply', args: { yaml: `companies:\n  - name: ${company.name}\n    keys: [terms-apply]\n` } },
      { tool: 'apply', args: { yaml: 'companies:\n  - name: Acme\n  - name: Acme\n' } },
      { tool: 'campaigns_pause', args: {} },
      { tool: 'campaigns_pause', args: { campaign: ['abc'] } },
      { tool: 'campaigns_pause', args: { company: [id] }, faults: [lost('POST', '/v2/campaigns/*/pause')] },
      {
        tool: 'campaigns_pause',
        args: { company: [id] },
        faults: [lost('POST', '/v2/campaigns/*/pause'), unreadable('/v2/campaigns/*')],
      },
      { tool: 'campaigns_stop', args: { company: [id], dry_run: true } },
      { tool: 'campaigns_stop', args: { mailbox: ['not-an-address'] } },
      { tool: 'campaigns_resume', args: { company: [id], dry_run: true } },
      { tool: 'campaigns_resume', args: { company: [id], campaign: ['999999'] } },
      { tool: 'campaigns_bounce_shield', args: { company: [id] } },
      { tool: 'campaigns_bounce_shield', args: { company: [id], set: 0 } },
    ];
    const outcomes = new Map<string, Set<'error' | 'ok'>>();
    const problems: string[] = [];
    const said: string[] = [];
    for (const { tool, args, faults = [] } of cases) {
      sandbox.reset();
      for (const fault of faults) sandbox.addFault(fault);
      const result = (await shared.call(tool, args)) as CallToolResult;
      said.push(texts(result).join('\n'));
      outcomes.set(tool, (outcomes.get(tool) ?? new Set()).add(result.isError ? 'error' : 'ok'));
      for (const text of commandLineTerms(result, commands))
        problems.push(`${tool} ${JSON.stringify(args)}: ${text}`);
    }
    expect(problems).toEqual([]);
    // The references were there to say, in tool terms: a tool with its arguments, a list tool, a text
    // argument's line, what only the user can do.
    const all = said.join('\n');
    expect(all).toMatch(
      /once fixed: campaigns_resume \{\\"company\\":\[\\"\d+\\"\],\\"campaign\\":\[\\"\d+\\"\]\}/,
    );
    expect(all).toMatch(
      /`keys_create \{\\"company\\":\[\\"\d+\\"\],\\"label\\":\\"lost\\"\}` prints the key/,
    );
    expect(all).toMatch(/Its guests: companies_users \{\\"company\\":\\"\d+\\",\\"role\\":\\"guest\\"\}/);
    expect(all).toContain('line 3 of the plan');
    expect(all).toContain('"Acme\\" (line 2 of the plan)');
    expect(all).toContain('ask the user to run `agency login` again');
    expect(all).toContain("AGENCY_API_KEY in the server's environment");
    expect(all).toContain("run with the server's debug setting");
    expect(all).toContain('Use skip_existing');
    expect(all).toContain('Unknown value \\"bogus\\" for severity');
    // Every tool the server offers, failing and succeeding; what tools/list says of them in tool terms too.
    const { tools } = await shared.mcp.client.listTools();
    const listed = tools.flatMap((tool) =>
      commandLineTerms({ content: [{ type: 'text', text: JSON.stringify(tool) }] }, commands).map(
        (text) => `${tool.name}: ${text}`,
      ),
    );
    expect(listed).toEqual([]);
    const covered = tools.map((t) => [t.name, [...(outcomes.get(t.name) ?? [])].sort()]);
    expect(covered).toEqual(tools.map((t) => [t.name, ['error', 'ok']]));
  }, 120_000);

  it('the scan itself finds flags, command lines and references left unsaid', async () => {
    const commands = await commandNames();
    const result = (text: string) => ({ content: [{ type: 'text', text }] });
    expect(commandLineTerms(result('{"error":{"hint":"Use --skip-existing"}}'), commands)).toHaveLength(1);
    expect(commandLineTerms(result('note: see agency companies list'), commands)).toHaveLength(1);
    expect(commandLineTerms(result('{"detail":"\\ue000option\\u001fall\\ue001"}'), commands)).toHaveLength(1);
    expect(
      commandLineTerms(result('{"hint":"ask the user to run `agency login --profile x`"}'), commands),
    ).toEqual([]);
    expect(
      commandLineTerms(result('{"message":"The tool changes the agency; use skip_existing"}'), commands),
    ).toEqual([]);
  });
});
