/**
 * What a plan cannot do is a `!` line, never a `+` change that apply must fail: a webhook beyond the
 * service's 3 URLs per event and account. `!` lines are not pending changes (`plan --exit-code` stays 0
 * for them), and apply sends nothing for them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { activeCompany, lines, sharedInProcessHarness } from '../helpers/core.js';

const shared = sharedInProcessHarness();
const SUBSCRIBE = '/rest/v1/webhooks/subscribe';

let files = 0;
function file(text: string): string {
  const path = join(shared.tmp, `plan-${++files}.yaml`);
  writeFileSync(path, text);
  return path;
}

/** Subscribes the company's account to `event` at each URL (through the tool, as a user would). */
async function subscribe(companyId: number, event: string, urls: string[]): Promise<void> {
  for (const url of urls) {
    const r = await shared.h.run([
      'webhooks',
      'subscribe',
      '--event',
      event,
      '--url',
      url,
      '--company',
      String(companyId),
    ]);
    expect(r.code, r.stderr).toBe(0);
  }
}

const full = (company: { id: number; name: string }, event: string, url: string) =>
  `! ${JSON.stringify(company.name)} (id ${company.id}) cannot get webhook ${event} → ${url}: ${event} has 3 URLs already, the service's limit per event and account`;

describe('a webhook beyond the 3-URL limit', () => {
  it('plan shows it as a ! line (not a change), --exit-code ignores it, apply sends nothing for it', async () => {
    const { h } = shared;
    const company = activeCompany(h.sandbox);
    await subscribe(company.id, 'task_done', [
      'https://a.example/1',
      'https://a.example/2',
      'https://a.example/3',
    ]);
    const hook = 'https://crm.example.com/hooks/woodpecker';
    const path = file(
      `companies:\n  - name: ${JSON.stringify(company.name)}\n    webhooks:\n      - { event: task_done, url: ${hook} }\n`,
    );
    h.sandbox.reset();
    const plan = await h.run(['plan', '-f', path, '--exit-code']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(lines(plan.stdout)).toEqual([full(company, 'TASK_DONE', hook)]);
    expect(plan.stderr).toMatch(/No changes\. 1 in place; 1 blocked;/);
    const json = JSON.parse((await h.run(['plan', '-f', path, '--json'])).stdout);
    expect(json.changes).toEqual([]);
    expect(json.blocked).toEqual([
      {
        company: company.name,
        company_id: company.id,
        reason: expect.stringContaining('has 3 URLs already'),
      },
    ]);

    const apply = await h.run(['apply', '-f', path, '--yes']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toBe('');
    expect(h.requests().filter((q) => q.method === 'POST')).toEqual([]);
  });

  it('two new URLs for an event with 2: the first is a change, the second a ! line; apply makes the first', async () => {
    const { h } = shared;
    const company = activeCompany(h.sandbox);
    await subscribe(company.id, 'task_ignored', ['https://b.example/1', 'https://b.example/2']);
    const [third, fourth] = ['https://b.example/3', 'https://b.example/4'];
    const path = file(
      [
        'companies:',
        `  - name: ${JSON.stringify(company.name)}`,
        '    webhooks:',
        `      - { event: task_ignored, url: ${third} }`,
        `      - { event: task_ignored, url: ${fourth} }`,
        '',
      ].join('\n'),
    );
    const plan = await h.run(['plan', '-f', path, '--exit-code']);
    expect(plan.code).toBe(6);
    expect(lines(plan.stdout)).toEqual([
      `+ webhook TASK_IGNORED → ${third} for ${JSON.stringify(company.name)}`,
      full(company, 'TASK_IGNORED', fourth),
    ]);
    h.sandbox.reset();
    const apply = await h.run(['apply', '-f', path, '--yes']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(lines(apply.stdout)).toEqual([
      `+ webhook TASK_IGNORED → ${third} for ${JSON.stringify(company.name)}`,
    ]);
    expect(
      h
        .requests()
        .filter((q) => q.path === SUBSCRIBE)
        .map((q) => q.status),
    ).toEqual([201]);
  });
});
