/** `agency api <path>`: a raw call with the profile's key, for endpoints the tool has no command for. */
import type { Command } from '@commander-js/extra-typings';
import type { Method } from '../../api/http.js';
import { collect, paginate } from '../../api/paginate.js';
import { expectPage } from '../../api/types.js';
import { UsageError } from '../../errors.js';
import { companyIdFor, parseCompanyRef } from '../../fleet/resolve.js';
import { readInput } from '../../input/read.js';
import type { Runtime } from '../../runtime.js';
import { helpText, type Run } from '../room.js';

export function define(api: Command, run: Run): void {
  api
    .argument('<path>', 'path under the base URL, e.g. /v2/agency/companies?active=true')
    .option('-X, --method <method>', 'HTTP method (default GET, or POST with --data)')
    .option('--data <json>', "request body: JSON text, @file, or '-' for stdin")
    .option('--company <company>', 'send x-company-id for this company (id or exact name)')
    .option('--paginate', "follow 'page' and merge every page's content into one array")
    .addHelpText(
      'after',
      helpText(
        "Prints the response body (JSON, indented); an error status is reported like\nany other command's.",
        [
          'agency api /v1/me',
          'agency api /v2/agency/companies --paginate | jq length',
          `agency api /v2/agency/companies/1042/api_keys --data '{"label":"zapier"}'`,
        ],
      ),
    )
    .action(run(rawCall));
}

const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

export interface ApiOptions {
  method?: string | undefined;
  data?: string | undefined;
  company?: string | undefined;
  paginate?: boolean | undefined;
}

export async function rawCall(rt: Runtime, rawPath: string, opts: ApiOptions): Promise<void> {
  const { path, query } = parsePath(rawPath);
  const method = parseMethod(opts.method ?? (opts.data === undefined ? 'GET' : 'POST'));
  const companyRef = opts.company === undefined ? undefined : parseCompanyRef(opts.company, '--company');
  const body = opts.data === undefined ? undefined : await readBody(rt, opts.data);
  if (opts.paginate && method !== 'GET') throw new UsageError('--paginate works only with GET.');
  if (body !== undefined && (method === 'GET' || method === 'HEAD')) {
    throw new UsageError(
      `A ${method} request cannot have a body; use -X POST (or leave -X out) with --data.`,
    );
  }
  const first = query.page === undefined ? 1 : Number(query.page);
  if (opts.paginate && (!Number.isSafeInteger(first) || first < 1))
    throw new UsageError('The page in the path must be a whole number from 1.');
  const api = rt.api();
  const { out } = rt;
  const companyId = companyRef === undefined ? undefined : await companyIdFor(api, companyRef);

  if (opts.paginate) {
    const items = await collect(
      paginate(
        async (page) => {
          const res = await api.raw({ method, path, query: { ...query, page }, companyId });
          return expectPage(res.data, (_v): _v is unknown => true, path);
        },
        { from: first },
      ),
    );
    out.jsonValue(items);
    return;
  }

  const res = await api.raw({ method, path, query, body, companyId });
  if (res.data !== undefined) out.jsonValue(res.data);
}

/** Only paths under the base URL: an absolute URL would send the key to another host. */
export function parsePath(raw: string): { path: string; query: Record<string, string> } {
  const text = raw.trim();
  if (text === '' || /^[a-z][a-z0-9+.-]*:/i.test(text) || text.startsWith('//')) {
    throw new UsageError(
      `Invalid path ${JSON.stringify(raw)}: give a path under the base URL, such as /v1/me.`,
    );
  }
  const url = new URL(text.startsWith('/') ? text : `/${text}`, 'http://base.invalid');
  if (url.hash) throw new UsageError('The path must not contain a fragment (#).');
  return { path: url.pathname, query: Object.fromEntries(url.searchParams) };
}

function parseMethod(raw: string): Method {
  const method = raw.toUpperCase() as Method;
  if (!METHODS.includes(method))
    throw new UsageError(`Unsupported method ${JSON.stringify(raw)}: use one of ${METHODS.join(', ')}.`);
  return method;
}

async function readBody(rt: Runtime, data: string): Promise<unknown> {
  let text = data;
  let source = '--data';
  if (data === '-' || data.startsWith('@')) {
    ({ text, source } = await readInput(data === '-' ? '-' : data.slice(1), rt.terminal, rt.ctx.signal));
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`The request body from ${source} is not valid JSON: ${(error as Error).message}`);
  }
}
