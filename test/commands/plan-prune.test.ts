/**
 * A plan file manages what it names: a subscription of a company whose entry (or the defaults) lists
 * webhooks, that the file does not list, is a "?" line of plan (--json: "unmanaged"), left alone by
 * apply, and unsubscribed by apply --prune (listed as a "- webhook" change and asked like every
 * change). A company whose entry lists no webhooks has none unmanaged.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import type { RecordedRequest } from '../../src/sandbox/index.js';
import { agencyEnv } from '../helpers/cli.js';
import { lines, sharedInProcessHarness } from '../helpers/core.js';
import { fakeTerminal } from '../helpers/fake-terminal.js';

const shared = sharedInProcessHarness({ seed: { companies: 6 } });
const HOOK = 'https://crm.example.com/hooks/woodpecker';
const OLD = 'https://old.example.com/hooks';
// Seeded: 1001 "Acme Ltd", 1002 … (active).
const ACME = 1001;

const setHooks = (company: number, hooks: [event: string, url: string][]) =>
  shared.h.sandbox.store.replaceWebhooks(
    `company:${company}`,
    hooks.map(([event, target_url]) => ({ event, target_url })),
  );
const hooksOf = (id: number) => {
  const { store } = shared.h.sandbox;
  const company = store.company(id);
  if (!company) throw new Error(`no company ${id}`);
  const context = { level: 'client' as const, account: `company:${id}`, agency: store.mainAgency, company };
  return store.webhooksOf(context).map((w) => `${w.event} ${w.target_url}`);
};
/** The POSTs in order: "company subscribe|unsubscribe event url". */
const writes = () =>
  shared.h
    .requests()
    .filter((r: RecordedRequest) => r.method === 'POST')
    .map((r) => {
      const body = r.body as { event: string; target_url: string };
      return `${r.headers['x-company-id']} ${r.path.split('/').at(-1)} ${body.event} ${body.target_url}`;
    });

let files = 0;
function planFile(text: string): string {
  const path = join(shared.tmp, `prune-${++files}.yaml`);
  writeFileSync(path, text);
  return path;
}
const nameOf = (id: number) => shared.h.sandbox.store.company(id)?.name ?? '';

/** Acme lists one webhook; the second company lists none (its webhooks are not the file's). */
function example(): { path: string; other: number } {
  const other = ACME + 1;
  setHooks(ACME, [
    ['PROSPECT_REPLIED', HOOK],
    ['EMAIL_OPENED', OLD],
    ['PROSPECT_REPLIED', OLD],
  ]);
  setHooks(other, [['EMAIL_OPENED', OLD]]);
  const path = planFile(
    [
      'companies:',
      '  - name: Acme Ltd',
      '    webhooks:',
      `      - { event: prospect_replied, url: ${HOOK} }`,
      `  - name: ${nameOf(other)}`,
      '    keys: []',
      '',
    ].join('\n'),
  );
  return { path, other };
}

describe('plan files manage what they name', () => {
  it('plan shows "?" lines for the subscriptions a managed company has and the file does not list', async () => {
    const { h } = shared;
    const { path } = example();
    const r = await h.run(['plan', '-f', path]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([
      `? webhook EMAIL_OPENED → ${OLD} for "Acme Ltd" is not in the file`,
      `? webhook PROSPECT_REPLIED → ${OLD} for "Acme Ltd" is not in the file`,
    ]);
    expect(r.stderr).toContain('2 webhooks not in the file (left alone; agency apply --prune removes them)');
    expect(r.stderr).toContain('No changes.');
    expect(writes()).toEqual([]);
    // Nothing pending: the "?" lines are not changes.
    expect((await h.run(['plan', '-f', path, '--exit-code'])).code).toBe(0);

    const json = await h.run(['--json', 'plan', '-f', path]);
    expect(json.code, json.stderr).toBe(0);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.changes).toEqual([]);
    expect(parsed.unmanaged).toEqual([
      { company: 'Acme Ltd', company_id: ACME, event: 'EMAIL_OPENED', url: OLD },
      { company: 'Acme Ltd', company_id: ACME, event: 'PROSPECT_REPLIED', url: OLD },
    ]);
  });

  it('apply without --prune leaves them; with --prune it lists, then unsubscribes them only', async () => {
    const { h } = shared;
    const { path, other } = example();
    const left = await h.run(['apply', '-f', path, '--yes']);
    expect(left.code, left.stderr).toBe(0);
    expect(left.stderr).toContain(`? webhook EMAIL_OPENED → ${OLD} for "Acme Ltd" is not in the file`);
    expect(left.stdout).toBe('');
    expect(writes()).toEqual([]);

    h.sandbox.reset();
    example();
    const pruned = await h.run(['apply', '-f', path, '--yes', '--prune']);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stderr).toContain(`- webhook EMAIL_OPENED → ${OLD} for "Acme Ltd" (not in the file)`);
    expect(pruned.stderr).toContain(
      'Plan: 2 to remove (0 companies, 0 keys, 0 webhooks, 2 webhooks to unsubscribe)',
    );
    expect(pruned.stderr).not.toContain('? webhook');
    expect(lines(pruned.stdout)).toEqual([
      `- webhook EMAIL_OPENED → ${OLD} for "Acme Ltd" (unsubscribed)`,
      `- webhook PROSPECT_REPLIED → ${OLD} for "Acme Ltd" (unsubscribed)`,
    ]);
    expect(writes()).toEqual([
      `${ACME} unsubscribe email_opened ${OLD}`,
      `${ACME} unsubscribe prospect_replied ${OLD}`,
    ]);
    expect(hooksOf(ACME)).toEqual([`PROSPECT_REPLIED ${HOOK}`]);
    // The company whose entry lists no webhooks keeps its own.
    expect(hooksOf(other)).toEqual([`EMAIL_OPENED ${OLD}`]);

    h.sandbox.reset();
    const again = await h.run(['apply', '-f', path, '--yes', '--prune']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('No changes.');
    expect(writes()).toEqual([]);
  });

  it('apply --prune --json: the unsubscriptions are changes with result "unsubscribed"', async () => {
    const { h } = shared;
    const { path } = example();
    const r = await h.run(['--json', 'apply', '-f', path, '--yes', '--prune']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      {
        type: 'unmanaged-webhook',
        company: 'Acme Ltd',
        company_id: ACME,
        event: 'EMAIL_OPENED',
        url: OLD,
        result: 'unsubscribed',
      },
      {
        type: 'unmanaged-webhook',
        company: 'Acme Ltd',
        company_id: ACME,
        event: 'PROSPECT_REPLIED',
        url: OLD,
        result: 'unsubscribed',
      },
    ]);
  });

  it('the defaults listing webhooks make every company of the file managed; an empty list manages too', async () => {
    const { h } = shared;
    const other = ACME + 1;
    setHooks(ACME, [['EMAIL_OPENED', OLD]]);
    setHooks(other, [['EMAIL_OPENED', OLD]]);
    const path = planFile(
      ['defaults:', '  webhooks: []', 'companies:', '  - Acme Ltd', `  - ${nameOf(other)}`, ''].join('\n'),
    );
    const r = await h.run(['plan', '-f', path]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([
      `? webhook EMAIL_OPENED → ${OLD} for "Acme Ltd" is not in the file`,
      `? webhook EMAIL_OPENED → ${OLD} for ${JSON.stringify(nameOf(other))} is not in the file`,
    ]);
  });

  it('an event at its 3 URLs moves to a 4th in one apply --prune: its pruned URLs go first; without it, blocked', async () => {
    const { h } = shared;
    const urls = ['https://a.example.com/h', 'https://b.example.com/h', 'https://c.example.com/h'];
    setHooks(
      ACME,
      urls.map((url) => ['EMAIL_OPENED', url] as [string, string]),
    );
    const path = planFile(
      [
        'companies:',
        '  - name: Acme Ltd',
        '    webhooks:',
        `      - { event: email_opened, url: ${HOOK} }`,
        '',
      ].join('\n'),
    );
    // Without --prune the 3 stay, so the 4th cannot be had: the plan says so and apply sends nothing.
    const plain = await h.run(['plan', '-f', path]);
    expect(plain.stdout + plain.stderr).toMatch(/has 3 URLs already/);
    const pruned = await h.run(['apply', '-f', path, '--yes', '--prune']);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(writes()).toEqual([
      ...urls.map((url) => `${ACME} unsubscribe email_opened ${url}`),
      `${ACME} subscribe email_opened ${HOOK}`,
    ]);
    expect(hooksOf(ACME)).toEqual([`EMAIL_OPENED ${HOOK}`]);
  });

  it('on a terminal, apply --prune asks with the removals counted; "n" sends nothing', async () => {
    const { h } = shared;
    const { path } = example();
    const terminal = fakeTerminal({ tty: true, stdinTTY: true, input: 'n\n' });
    const env = agencyEnv({ configDir: h.configDir, env: { FORCE_COLOR: undefined } });
    const code = await main(['apply', '-f', path, '--prune'], { ...terminal.streams, env });
    expect(code).toBe(1);
    expect(terminal.stderr()).toContain('Apply 2 changes?');
    expect(terminal.stderr()).toContain('Apply cancelled: nothing was changed.');
    expect(writes()).toEqual([]);
    expect(hooksOf(ACME)).toHaveLength(3);
  });
});
