/**
 * What a plan cannot do is a `!` line, never a `+` change that apply must fail: a webhook beyond the
 * service's 3 URLs per event and account. `!` lines are not pending changes (`plan --exit-code` stays 0
 * for them), and apply sends nothing for them. A company the key's user has no access to is a `!` line
 * too; the rest of the plan is computed and the exit is the 403's (3).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  activeCompany,
  companyTomCannotSee,
  lines,
  sharedInProcessHarness,
  teammate,
} from '../helpers/core.js';

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

/** The plan's lines about what the file names: the seeded subscriptions it does not list ("?") left out. */
const fileLines = (stdout: string) => lines(stdout).filter((line) => !line.startsWith('? '));
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
    expect(fileLines(plan.stdout)).toEqual([full(company, 'TASK_DONE', hook)]);
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
    expect(fileLines(plan.stdout)).toEqual([
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

describe('a teammate whose user has no access to some companies of the file', () => {
  it('plan: those companies are ! lines, the rest is planned, exit 3 (also with --exit-code); apply leaves them alone', async () => {
    const { h } = shared;
    const tom = teammate(h.sandbox);
    const visible = activeCompany(h.sandbox, tom.id);
    const hidden = companyTomCannotSee(h.sandbox);
    const hook = 'https://crm.example.com/hooks/teammate';
    const path = file(
      [
        'defaults:',
        '  keys: [teammate-sync]',
        '  webhooks:',
        `    - { event: task_created, url: ${hook} }`,
        'companies:',
        `  - ${JSON.stringify(hidden.name)}`,
        `  - ${JSON.stringify(visible.name)}`,
        '',
      ].join('\n'),
    );
    const asTom = { env: { AGENCY_API_KEY: tom.hqKey } };
    const blockedLine = `! ${tom.name} has no access to ${JSON.stringify(hidden.name)} (id ${hidden.id}): its keys and webhooks cannot be read`;
    const changes = [
      `+ key "teammate-sync" for ${JSON.stringify(visible.name)}`,
      `+ webhook TASK_CREATED → ${hook} for ${JSON.stringify(visible.name)}`,
    ];

    const plan = await h.run(['plan', '-f', path], asTom);
    expect(plan.code, plan.stderr).toBe(3);
    expect(fileLines(plan.stdout)).toEqual([...changes, blockedLine]);
    expect(plan.stderr).toMatch(/Plan: 2 to add \(0 companies, 1 key, 1 webhook\); 1 in place; 1 blocked;/);
    expect(plan.stderr).toContain("error: 1 of the file's companies could not be read");
    expect((await h.run(['plan', '-f', path, '--exit-code'], asTom)).code).toBe(3);
    const json = JSON.parse((await h.run(['plan', '-f', path, '--json'], asTom)).stdout);
    expect(json.blocked).toEqual([
      {
        company: hidden.name,
        company_id: hidden.id,
        user: tom.name,
        reason: 'its keys and webhooks cannot be read',
      },
    ]);

    h.sandbox.reset();
    const apply = await h.run(['apply', '-f', path, '--yes'], asTom);
    expect(apply.code, apply.stderr).toBe(3);
    expect(lines(apply.stdout)).toEqual([
      expect.stringMatching(
        new RegExp(`^\\+ key "teammate-sync" for ${JSON.stringify(visible.name)}: \\S+$`),
      ),
      changes[1],
    ]);
    const posts = h.requests().filter((q) => q.method === 'POST');
    expect(posts).toHaveLength(2);
    for (const post of posts) {
      expect(post.path).not.toContain(`/${hidden.id}/`);
      expect(post.headers['x-company-id']).not.toBe(String(hidden.id));
    }
  });
});
