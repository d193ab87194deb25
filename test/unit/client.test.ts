import { describe, expect, it } from 'vitest';
import { AgencyClient, type HttpLike } from '../../src/api/client.js';
import type { HttpResponse, RequestSpec } from '../../src/api/http.js';
import { ResponseError } from '../../src/errors.js';

/** A fake HTTP layer: answers from a list and records each request spec. */
function fake(...answers: unknown[]) {
  const sent: RequestSpec[] = [];
  const http: HttpLike = {
    request: async (spec) => {
      sent.push(spec);
      return { status: 200, statusText: 'OK', headers: {}, data: answers.shift() } satisfies HttpResponse;
    },
    close: async () => {},
  };
  return { client: new AgencyClient(http), sent };
}

const page = (content: unknown[]) => ({
  content,
  pagination_data: { total_elements: content.length, total_pages: 1, current_page_number: 1, page_size: 50 },
});

describe('AgencyClient', () => {
  it('lists companies with page and the active filter, and no company context', async () => {
    const { client, sent } = fake(page([{ id: 1, name: 'A', owner: 'o', active: true }]));
    const result = await client.listCompaniesPage(2, false);
    expect(result.content).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: 'GET',
      path: '/v2/agency/companies',
      query: { active: false, page: 2 },
    });
    expect(sent[0]?.companyId).toBeUndefined();
  });

  it('creates companies with the body shape of the spec', async () => {
    const { client, sent } = fake({ companies: [{ id: 7, name: 'A', owner: 'o', active: true }] });
    expect(await client.createCompanies(['A'])).toEqual([{ id: 7, name: 'A', owner: 'o', active: true }]);
    expect(sent[0]).toMatchObject({
      method: 'POST',
      path: '/v2/agency/companies',
      body: { companies: [{ name: 'A' }] },
    });
  });

  it('creates a key with only the label in the body and the id in the path', async () => {
    const { client, sent } = fake({ api_key: 'k-123' });
    expect(await client.createKey(1042, 'zapier')).toBe('k-123');
    expect(sent[0]).toMatchObject({
      method: 'POST',
      path: '/v2/agency/companies/1042/api_keys',
      body: { label: 'zapier' },
    });
    expect(sent[0]?.companyId).toBeUndefined();
  });

  it('sends x-company-id for account reads only when a company is given', async () => {
    const { client, sent } = fake([], [], { webhooks: [] }, { webhooks: [] });
    await client.mailboxes();
    await client.mailboxes(1042);
    await client.webhooks();
    await client.webhooks(1042);
    expect(sent.map((s) => s.companyId)).toEqual([undefined, 1042, undefined, 1042]);
  });

  it('accepts mailboxes as a bare array (documented) and as {content} (possible future form)', async () => {
    const mailbox = { id: 1, type: 'SMTP', details: { email: 'a@b.example' } };
    const { client } = fake([mailbox], { content: [mailbox], pagination_data: page([]).pagination_data });
    expect(await client.mailboxes()).toEqual([mailbox]);
    expect(await client.mailboxes()).toEqual([mailbox]);
  });

  it('reads email accounts from {content} without pagination data', async () => {
    const { client, sent } = fake({ content: [{ id: 3, type: 'SMTP', details: {} }] });
    expect(await client.emailAccounts(9)).toHaveLength(1);
    expect(sent[0]).toMatchObject({ path: '/v2/agency/companies/9/email_accounts' });
    expect(sent[0]?.companyId).toBeUndefined();
  });

  it('keeps fields it does not know (output is "exactly as the API returns them")', async () => {
    const item = { id: 1, name: 'A', owner: 'o', active: true, linkedin_slots: 0, future_field: 'x' };
    const { client } = fake(page([item]));
    expect((await client.listCompaniesPage(1)).content[0]).toEqual(item);
  });

  it('reads a page whose pagination_data has only what paging needs (total_pages, current_page_number)', async () => {
    const item = { id: 1, name: 'A', owner: 'o', active: true };
    const answer = { content: [item], pagination_data: { total_pages: 1, current_page_number: 1 } };
    expect((await fake(answer).client.listCompaniesPage(1)).pagination_data).toEqual(answer.pagination_data);
    const wrongType = { content: [item], pagination_data: { ...answer.pagination_data, page_size: '50' } };
    await expect(fake(wrongType).client.listCompaniesPage(1)).rejects.toBeInstanceOf(ResponseError);
  });

  it('rejects answers of the wrong shape with a clear error instead of printing garbage', async () => {
    const cases: [() => Promise<unknown>, unknown][] = [
      [() => fake({ nope: 1 }).client.listCompaniesPage(1), undefined],
      [() => fake(page([{ name: 'no id' }])).client.listCompaniesPage(1), undefined],
      [
        () => fake({ content: [], pagination_data: { total_pages: 'x' } }).client.listCompaniesPage(1),
        undefined,
      ],
      [() => fake({}).client.createKey(1, 'l'), undefined],
      [() => fake({ companies: 'x' }).client.createCompanies(['a']), undefined],
      [() => fake('text').client.me(), undefined],
      [() => fake({ other: [] }).client.mailboxes(), undefined],
      [() => fake({ webhooks: [{ target_url: 'x' }] }).client.webhooks(), undefined],
    ];
    for (const [call] of cases) await expect(call()).rejects.toBeInstanceOf(ResponseError);
  });
});
