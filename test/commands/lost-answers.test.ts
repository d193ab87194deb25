/**
 * A write whose answer is lost (the sandbox's `reset-after`: processed, then the connection dropped;
 * `reset-before`: dropped before the service read it) is never sent again: the tool reads back what
 * it wrote and reports what the service shows. Keys (keys create, apply) and webhooks (subscribe,
 * unsubscribe, apply), each checked by stdout, stderr, the exit code and what the sandbox received
 * and holds.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID, type RecordedRequest } from '../../src/sandbox/index.js';
import { type Harness, startHarness } from '../helpers/cli.js';
import { testDir } from '../helpers/temp-dir.js';

const SUBSCRIBE = '/rest/v1/webhooks/subscribe';
const UNSUBSCRIBE = '/rest/v1/webhooks/unsubscribe';

function withSandbox(test: (h: Harness) => Promise<void>): () => Promise<void> {
  return async () => {
    const h = await startHarness({}, { inProcess: true });
    try {
      await test(h);
    } finally {
      await h.close();
    }
  };
}

function received(h: Harness, method: string, path: string): RecordedRequest[] {
  return h.requests().filter((q) => q.method === method && q.path === path);
}

/** An active company of the sandbox's agency, and the path of its keys. */
function activeCompany(h: Harness, index: number) {
  const company = h.sandbox.store.companies(MAIN_AGENCY_ID, { active: true })[index];
  if (!company) throw new Error('the sandbox has too few active companies');
  return { id: company.id, name: company.name, keysPath: `/v2/agency/companies/${company.id}/api_keys` };
}

/** `webhooks <verb> --event prospect_opt_out --url URL --company ID`. */
const optOut = (verb: string, url: string, id: number) => [
  'webhooks',
  verb,
  '--event',
  'prospect_opt_out',
  '--url',
  url,
  '--company',
  String(id),
];

const keysLabelled = (h: Harness, companyId: number, label: string) =>
  h.sandbox.store
    .keysOf(companyId)
    .filter((k) => k.label === label)
    .map((k) => k.key);

describe.concurrent('keys create after a lost answer', () => {
  it(
    'the key that appeared is reported as created and printed alone; one POST',
    withSandbox(async (h) => {
      const company = activeCompany(h, 0);
      h.sandbox.addFault({ kind: 'reset-after', method: 'POST', path: company.keysPath });
      const r = await h.run(['keys', 'create', String(company.id), '--label', 'lost-1']);
      expect(r.code, r.stderr).toBe(0);
      const made = keysLabelled(h, company.id, 'lost-1');
      expect(made).toHaveLength(1);
      expect(r.stdout).toBe(`${made[0]}\n`);
      expect(r.stderr).toMatch(/answer to creating the key "lost-1" for company \d+ was lost/);
      expect(r.stderr).toContain(`Created key "lost-1" for company ${company.id}.`);
      expect(received(h, 'POST', `/rest${company.keysPath}`)).toHaveLength(1);
      // Read before and after the lost answer.
      expect(received(h, 'GET', `/rest${company.keysPath}`)).toHaveLength(2);
    }),
  );

  it(
    '--new after a lost answer: the keys read before tell the new key from the old one with the label',
    withSandbox(async (h) => {
      const company = activeCompany(h, 1);
      const old = await h.run(['keys', 'create', String(company.id), '--label', 'lost answer']);
      expect(old.code, old.stderr).toBe(0);
      h.sandbox.addFault({ kind: 'reset-after', method: 'POST', path: company.keysPath });
      const r = await h.run(['keys', 'create', String(company.id), '--label', 'lost answer', '--new']);
      expect(r.code, r.stderr).toBe(0);
      const both = keysLabelled(h, company.id, 'lost answer');
      expect(both).toHaveLength(2);
      expect(both[0]).toBe(old.stdout.trim());
      expect(r.stdout).toBe(`${both[1]}\n`);
      expect(r.stderr).toMatch(/was lost, but its keys, read again, show the new key: it was created/);
      expect(received(h, 'POST', `/rest${company.keysPath}`)).toHaveLength(2);
    }),
  );

  it(
    'dropped before the service read it: the keys show none, so it says nothing was created',
    withSandbox(async (h) => {
      const company = activeCompany(h, 2);
      h.sandbox.addFault({ kind: 'reset-before', method: 'POST', path: company.keysPath });
      const r = await h.run(['keys', 'create', String(company.id), '--label', 'never-made']);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        `company ${company.id} has no new key labelled "never-made": it was not created`,
      );
      expect(r.stderr).toMatch(
        /Nothing was created\. `agency keys create \d+ --label never-made` prints the key if it exists/,
      );
      expect(keysLabelled(h, company.id, 'never-made')).toHaveLength(0);
      expect(received(h, 'POST', `/rest${company.keysPath}`)).toHaveLength(1);
    }),
  );

  it(
    'for several companies: the lost one is a created row like the others, and exit 0',
    withSandbox(async (h) => {
      const [a, b, c] = [activeCompany(h, 3), activeCompany(h, 4), activeCompany(h, 5)];
      h.sandbox.addFault({ kind: 'reset-after', method: 'POST', path: b.keysPath });
      const r = await h.run([
        'keys',
        'create',
        String(a.id),
        String(b.id),
        String(c.id),
        '--label',
        'bulk-lost',
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim().split('\n')).toEqual(
        [a, b, c].map((x) => `${x.id}\t${keysLabelled(h, x.id, 'bulk-lost')[0]}`),
      );
      expect(r.stderr).toContain('Created 3 keys labelled "bulk-lost".');
      for (const x of [a, b, c]) expect(received(h, 'POST', `/rest${x.keysPath}`)).toHaveLength(1);
    }),
  );
});

describe.concurrent('webhooks after a lost answer', () => {
  it(
    'subscribe: the webhooks read again show the subscription, so the row is subscribed and exit 0',
    withSandbox(async (h) => {
      const { id } = activeCompany(h, 0);
      const url = 'https://lost.example/h';
      h.sandbox.addFault({ kind: 'reset-after', method: 'POST', path: '/v1/webhooks/subscribe' });
      const r = await h.run(optOut('subscribe', url, id));
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${id}\tPROSPECT_OPT_OUT\t${url}\tsubscribed\n`);
      expect(r.stderr).toMatch(
        /answer to subscribing company \d+ to PROSPECT_OPT_OUT → \S+ was lost; its webhooks, read again, show it done/,
      );
      expect(received(h, 'POST', SUBSCRIBE)).toHaveLength(1);
      const list = await h.run(['webhooks', '--company', String(id)]);
      expect(list.stdout.split('\n').filter((line) => line.includes(url))).toHaveLength(1);
    }),
  );

  it(
    'subscribe dropped before the service read it: the row fails saying it was not done, and a retry is safe',
    withSandbox(async (h) => {
      const { id } = activeCompany(h, 1);
      const url = 'https://lost.example/before';
      h.sandbox.addFault({ kind: 'reset-before', method: 'POST', path: '/v1/webhooks/subscribe' });
      const r = await h.run(optOut('subscribe', url, id));
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(
        new RegExp(
          `^${id}\tPROSPECT_OPT_OUT\t\\S+\tfailed\t.*its webhooks, read again, show it was not done\n$`,
        ),
      );
      expect(received(h, 'POST', SUBSCRIBE)).toHaveLength(1);
      const again = await h.run(optOut('subscribe', url, id));
      expect(again.stdout).toBe(`${id}\tPROSPECT_OPT_OUT\t${url}\tsubscribed\n`);
    }),
  );

  it(
    'unsubscribe: the webhooks read again show it gone, so the row is unsubscribed and exit 0',
    withSandbox(async (h) => {
      const { id } = activeCompany(h, 2);
      const url = 'https://lost.example/unsub';
      expect((await h.run(optOut('subscribe', url, id))).code).toBe(0);
      h.sandbox.addFault({ kind: 'reset-after', method: 'POST', path: '/v1/webhooks/unsubscribe' });
      const r = await h.run(optOut('unsubscribe', url, id));
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${id}\tPROSPECT_OPT_OUT\t${url}\tunsubscribed\n`);
      expect(received(h, 'POST', UNSUBSCRIBE)).toHaveLength(1);
      const list = await h.run(['webhooks', '--company', String(id)]);
      expect(list.stdout).not.toContain(url);
    }),
  );
});

describe('apply after a lost answer', () => {
  it(
    "a key's lost answer: the plan read the keys, so the key that appeared is a created line with the key",
    withSandbox(async (h) => {
      const company = activeCompany(h, 0);
      {
        const file = join(testDir('agency-lost-'), 'agency.yaml');
        writeFileSync(
          file,
          `companies:\n  - name: ${JSON.stringify(company.name)}\n    keys: [apply-lost]\n    webhooks:\n      - { event: prospect_opt_out, url: "https://lost.example/apply" }\n`,
        );
        h.sandbox.addFault({ kind: 'reset-after', method: 'POST', path: company.keysPath });
        h.sandbox.addFault({ kind: 'reset-after', method: 'POST', path: '/v1/webhooks/subscribe' });
        const r = await h.run(['apply', '-f', file, '--yes']);
        expect(r.code, r.stderr).toBe(0);
        const key = keysLabelled(h, company.id, 'apply-lost')[0];
        expect(r.stdout).toBe(
          `+ key "apply-lost" for ${JSON.stringify(company.name)}: ${key}\n` +
            `+ webhook PROSPECT_OPT_OUT → https://lost.example/apply for ${JSON.stringify(company.name)}\n`,
        );
        expect(received(h, 'POST', `/rest${company.keysPath}`)).toHaveLength(1);
        expect(received(h, 'POST', SUBSCRIBE)).toHaveLength(1);
        const second = await h.run(['apply', '-f', file, '--yes']);
        expect(second.stderr).toContain('No changes.');
      }
    }),
  );
});
