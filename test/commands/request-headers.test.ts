/**
 * Contract "Requests": every request of an ordinary command (not only `api`) carries the key,
 * `accept: application/json` and `user-agent: agency-cli/<version>`; a body goes with
 * `content-type: application/json`; `x-company-id` only when the user asked for a company.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CompanyRecord } from '../../src/sandbox/store.js';
import { CANARY_KEY, type Harness, ROOT } from '../helpers/cli.js';
import { activeCompany, type SentRequest, sent, startCoreHarness } from '../helpers/core.js';

const { version: VERSION } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

let h: Harness;
let company: CompanyRecord;
beforeAll(async () => {
  h = await startCoreHarness({}, { inProcess: true });
  company = activeCompany(h.sandbox);
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => h.sandbox.reset());

function expectStandardHeaders(requests: SentRequest[]): void {
  expect(requests.length).toBeGreaterThan(0);
  for (const q of requests) {
    expect(q.headers['x-api-key'], `${q.method} ${q.path}`).toBe(CANARY_KEY);
    expect(q.headers.accept, `${q.method} ${q.path}`).toBe('application/json');
    expect(q.headers['user-agent'], `${q.method} ${q.path}`).toBe(`agency-cli/${VERSION}`);
  }
}

describe('request headers of ordinary commands', () => {
  it('companies list (every page): standard headers, no x-company-id', async () => {
    const r = await h.run(['companies', 'list']);
    expect(r.code, r.stderr).toBe(0);
    const requests = sent(h.sandbox);
    expect(requests.length).toBeGreaterThan(1);
    expectStandardHeaders(requests);
    expect(requests.map((q) => q.headers['x-company-id'])).toEqual(requests.map(() => undefined));
  });

  it('keys create: the POST has standard headers, a JSON content type and no x-company-id', async () => {
    const r = await h.run(['keys', 'create', String(company.id), '--label', 'headers-check']);
    expect(r.code, r.stderr).toBe(0);
    const requests = sent(h.sandbox);
    expectStandardHeaders(requests);
    const posts = requests.filter((q) => q.method === 'POST');
    expect(posts.map((q) => q.body)).toEqual([{ label: 'headers-check' }]);
    expect(posts[0]?.headers['content-type']).toMatch(/^application\/json\b/);
    expect(requests.every((q) => q.headers['x-company-id'] === undefined)).toBe(true);
  });

  it('me: x-company-id only with --company', async () => {
    const own = await h.run(['me']);
    expect(own.code, own.stderr).toBe(0);
    const ownRequests = sent(h.sandbox);
    expectStandardHeaders(ownRequests);
    expect(ownRequests.map((q) => [q.path, q.headers['x-company-id']])).toEqual([['/v1/me', undefined]]);

    h.sandbox.reset();
    const client = await h.run(['me', '--company', String(company.id)]);
    expect(client.code, client.stderr).toBe(0);
    const clientRequests = sent(h.sandbox);
    expectStandardHeaders(clientRequests);
    expect(clientRequests.map((q) => [q.path, q.headers['x-company-id']])).toEqual([
      ['/v1/me', String(company.id)],
    ]);
  });
});
