/**
 * The client's documented endpoints beyond the specification: webhooks where the service serves them,
 * the empty answers of v1 lists, subscriptions, campaigns, company users and the agency blacklist.
 */
import { describe, expect, it } from 'vitest';
import { AgencyClient, type HttpLike } from '../../src/api/client.js';
import type { HttpResponse, RequestSpec } from '../../src/api/http.js';
import { collect, paginateZeroBased } from '../../src/api/paginate.js';
import { ApiError, ResponseError } from '../../src/errors.js';

type Answer = { status?: number; data?: unknown } | { error: ApiError };

/** A fake HTTP layer: answers by path (a list per path, the last one repeats), recording each spec. */
function fake(routes: Record<string, Answer[]>) {
  const sent: RequestSpec[] = [];
  const http: HttpLike = {
    request: async (spec) => {
      sent.push(spec);
      const list = routes[spec.path] ?? [{ error: apiError(404, 'Not found') }];
      const answer = (list.length > 1 ? list.shift() : list[0]) as Answer;
      if ('error' in answer) throw answer.error;
      return {
        status: answer.status ?? 200,
        statusText: '',
        headers: {},
        data: answer.data,
      } satisfies HttpResponse;
    },
    close: async () => {},
  };
  return { client: new AgencyClient(http), sent };
}

const apiError = (status: number, title: string) => new ApiError(`answered ${status}`, { status, title });
const hook = { target_url: 'https://crm.example/hook', event: 'PROSPECT_REPLIED' };

describe('webhooks(): GET /v1/webhooks, else /v2/webhooks, remembered', () => {
  it('reads the spec path when it is served', async () => {
    const { client, sent } = fake({ '/v1/webhooks': [{ data: { webhooks: [hook] } }] });
    expect(await client.webhooks(7)).toEqual([hook]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'GET', path: '/v1/webhooks', companyId: 7 });
  });

  it.each([404, 405])('on %i falls back to /v2/webhooks and keeps using it for the run', async (status) => {
    const { client, sent } = fake({
      '/v1/webhooks': [{ error: apiError(status, 'Not found') }],
      '/v2/webhooks': [{ data: { webhooks: [hook] } }],
    });
    expect(await client.webhooks()).toEqual([hook]);
    expect(await client.webhooks(8)).toEqual([hook]);
    expect(await client.webhooks(9)).toEqual([hook]);
    expect(sent.map((s) => s.path)).toEqual(['/v1/webhooks', '/v2/webhooks', '/v2/webhooks', '/v2/webhooks']);
    expect(sent.map((s) => s.companyId)).toEqual([undefined, undefined, 8, 9]);
  });

  it('other errors of /v1/webhooks are not a reason to try v2', async () => {
    const { client, sent } = fake({ '/v1/webhooks': [{ error: apiError(409, 'Conflict') }] });
    await expect(client.webhooks(7)).rejects.toMatchObject({ status: 409 });
    expect(sent).toHaveLength(1);
  });

  it('404 on both paths reports the first answer and remembers nothing', async () => {
    const first = apiError(404, 'first');
    const { client, sent } = fake({
      '/v1/webhooks': [{ error: first }],
      '/v2/webhooks': [{ error: apiError(404, 'second') }],
    });
    await expect(client.webhooks(7)).rejects.toBe(first);
    await expect(client.webhooks(7)).rejects.toBe(first);
    expect(sent.map((s) => s.path)).toEqual(['/v1/webhooks', '/v2/webhooks', '/v1/webhooks', '/v2/webhooks']);
  });

  it.each([
    ['204', { status: 204, data: undefined }],
    ['an empty 200', { status: 200, data: undefined }],
    ['{"message"} without webhooks', { data: { message: "You haven't subscribed to any webhooks." } }],
    ['{"webhooks": null}', { data: { webhooks: null } }],
  ])('%s is an empty list', async (_what, answer) => {
    const { client, sent } = fake({ '/v1/webhooks': [answer] });
    expect(await client.webhooks()).toEqual([]);
    expect(sent[0]?.emptyIsNothing).toBe(true);
  });

  it('a webhook list of the wrong shape is still an error', async () => {
    const { client } = fake({ '/v1/webhooks': [{ data: { webhooks: 'x' } }] });
    await expect(client.webhooks()).rejects.toBeInstanceOf(ResponseError);
  });
});

describe('subscriptions', () => {
  it.each([
    ['subscribeWebhook', '/v1/webhooks/subscribe'],
    ['unsubscribeWebhook', '/v1/webhooks/unsubscribe'],
  ] as const)('%s posts {target_url, event} with the event in lower case', async (method, path) => {
    const { client, sent } = fake({ [path]: [{ status: 201, data: { message: 'Subscribed.' } }] });
    await client[method](1042, 'PROSPECT_REPLIED', 'https://crm.example/hook');
    expect(sent[0]).toMatchObject({
      method: 'POST',
      path,
      companyId: 1042,
      body: { target_url: 'https://crm.example/hook', event: 'prospect_replied' },
    });
  });
});

describe('subscribing a pair the service already has', () => {
  it('409 "Event defined for this url." is "exists"; another 409 stays an error', async () => {
    const defined = new ApiError('answered 409', {
      status: 409,
      title: 'E_WRONG_PARAM',
      detail: 'Event defined for this url.',
    });
    const { client } = fake({ '/v1/webhooks/subscribe': [{ error: defined }] });
    expect(await client.subscribeWebhook(7, 'prospect_replied', 'https://crm.example/hook')).toBe('exists');
    const limit = new ApiError('answered 409', { status: 409, detail: 'At most 3 URLs per event.' });
    const other = fake({ '/v1/webhooks/subscribe': [{ error: limit }] });
    await expect(
      other.client.subscribeWebhook(7, 'prospect_replied', 'https://crm.example/hook'),
    ).rejects.toMatchObject({ status: 409 });
  });
});

describe('campaigns(): GET /v1/campaign_list', () => {
  it('sends the statuses joined by commas and returns the bare array', async () => {
    const campaign = { id: 5, name: 'Q3', status: 'RUNNING' };
    const { client, sent } = fake({ '/v1/campaign_list': [{ data: [campaign] }] });
    expect(await client.campaigns(7, ['RUNNING', 'PAUSED'])).toEqual([campaign]);
    expect(sent[0]).toMatchObject({
      companyId: 7,
      query: { status: 'RUNNING,PAUSED' },
      emptyIsNothing: true,
    });
  });

  it('no status filter sends none; 204 is an empty list', async () => {
    const { client, sent } = fake({ '/v1/campaign_list': [{ status: 204 }] });
    expect(await client.campaigns()).toEqual([]);
    expect(sent[0]?.query?.status).toBeUndefined();
  });
});

describe('company users', () => {
  it('reads GET /v2/agency/companies/{cid}/users?page= as a page', async () => {
    const user = { id: 3, email: 'a@b.example', roles: ['owner'] };
    const page = { total_elements: 1, total_pages: 1, current_page_number: 2, page_size: 50 };
    const { client, sent } = fake({
      '/v2/agency/companies/9/users': [{ data: { content: [user], pagination_data: page } }],
    });
    expect((await client.listCompanyUsersPage(9, 2)).content).toEqual([user]);
    expect(sent[0]).toMatchObject({ method: 'GET', query: { page: 2 }, company: 9 });
    expect(sent[0]?.companyId).toBeUndefined();
  });
});

describe('the agency blacklist', () => {
  it('lists a 0-based page with per_page and returns the values and the total', async () => {
    const { client, sent } = fake({
      '/v2/agency/blacklist/domains': [{ data: { domains: ['a.example', 'b.example'], total: 1202 } }],
    });
    expect(await client.listBlacklistPage('domains', 0, 1000)).toEqual({
      items: ['a.example', 'b.example'],
      total: 1202,
    });
    expect(sent[0]).toMatchObject({ method: 'GET', query: { page: 0, per_page: 1000 } });
  });

  it('an empty answer is an empty page', async () => {
    const { client } = fake({ '/v2/agency/blacklist/emails': [{ status: 204 }] });
    expect(await client.listBlacklistPage('emails', 0, 100)).toEqual({ items: [], total: 0 });
  });

  it('without "total" a full page does not end the listing (only a short or empty page does)', async () => {
    const { client } = fake({
      '/v2/agency/blacklist/emails': [
        { data: { emails: ['a@x.example', 'b@x.example'] } },
        { data: { emails: ['c@x.example'] } },
      ],
    });
    const values = await collect(
      paginateZeroBased((page, perPage) => client.listBlacklistPage('emails', page, perPage), {
        perPage: 2,
        inFlight: 1,
      }),
    );
    expect(values).toEqual(['a@x.example', 'b@x.example', 'c@x.example']);
  });

  it('adds values with {"<kind>": [...]}, at most 500 a request', async () => {
    const { client, sent } = fake({ '/v2/agency/blacklist/emails': [{ status: 201 }] });
    await client.addToBlacklist('emails', ['a@b.example']);
    expect(sent[0]).toMatchObject({ method: 'POST', body: { emails: ['a@b.example'] } });
    const many = Array.from({ length: 501 }, (_, i) => `${i}@b.example`);
    await expect(client.addToBlacklist('emails', many)).rejects.toThrow(/at most 500/);
    expect(sent).toHaveLength(1);
  });
});

describe('empty answers to reads that need data', () => {
  it('an empty answer to me() names its status', async () => {
    const { client } = fake({ '/v1/me': [{ status: 201, data: undefined }] });
    await expect(client.me()).rejects.toThrow(/answered 201 with an empty body/);
  });
});
