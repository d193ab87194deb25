/** `agency api <path>`: a raw call with the profile's key, for endpoints the tool has no command for. */
import type { Command } from '@commander-js/extra-typings';
import type { Method } from '../../api/http.js';
import { collect, paginate } from '../../api/paginate.js';
import type { HttpResponse } from '../../api/response.js';
import { expectPage, isRecord } from '../../api/types.js';
import { UsageError } from '../../errors.js';
import { optionalCompanyIdFor, parseOptionalCompanyRef } from '../../fleet/resolve.js';
import { HEADER_CONTROL } from '../../input/header.js';
import { readRunInput } from '../../input/read.js';
import { terminalSafe } from '../../output/text.js';
import type { Runtime } from '../../runtime.js';
import { collectValues, helpText, type OptionsOf, printsNoList, type Run } from '../command.js';

const configure = (api: Command) =>
  printsNoList(api)
    .argument('<path>', 'path under the base URL, e.g. /v2/agency/companies?active=true')
    .option('-X, --method <method>', 'HTTP method (default GET, or POST with --data)')
    .option('--data <json>', "request body: JSON text, @file, or '-' for stdin")
    .option('--company <company>', 'send x-company-id for this company (id or exact name)')
    .option('--paginate', "follow 'page' and merge every page's content into one array")
    .option(
      '-H, --header <header>',
      "add a request header, 'Name: value' (repeatable; not x-api-key)",
      collectValues,
    )
    .option('-i, --include', 'print the status line and the response headers before the body')
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints the response body (JSON, indented); an error status is reported like
          any other command's. With --paginate, an answer that has no pages (no
          'content' list) is printed as it is. With -i, the status line and headers come
          first (as HTTP/1.1 prints them), then a blank line.
        `,
        examples: `
          $ agency api /v1/me
          $ agency api /v2/agency/companies --paginate | jq length
          $ agency api /v2/agency/companies/1042/api_keys --data '{"label":"zapier"}'
          $ agency api /v1/me -i -H 'X-Request-Id: 42'
        `,
      }),
    );

const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

export type ApiOptions = OptionsOf<typeof configure>;

export async function rawCall(rt: Runtime, rawPath: string, opts: ApiOptions): Promise<void> {
  const { path, query } = parsePath(rawPath);
  const method = parseMethod(opts.method ?? (opts.data === undefined ? 'GET' : 'POST'));
  const companyRef = parseOptionalCompanyRef(opts.company);
  const headers = parseHeaders(opts.header ?? []);
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
  const companyId = await optionalCompanyIdFor(api, companyRef);

  if (opts.paginate) {
    // The first answer decides: one without pages (no `content` list) is printed as it is.
    const firstAnswer = await api.raw({ method, path, query: { ...query, page: first }, companyId, headers });
    if (!isPaged(firstAnswer.data)) return print(rt, firstAnswer, opts.include === true);
    const items = await collect(
      paginate(
        async (page) => {
          const res =
            page === first
              ? firstAnswer
              : await api.raw({ method, path, query: { ...query, page }, companyId, headers });
          return expectPage(res.data, (_v): _v is unknown => true, path);
        },
        { from: first },
      ),
    );
    if (opts.include) out.out(statusBlock(firstAnswer, rt.terminal.stdoutIsTTY, rt.ctx.apiKey));
    out.jsonValue(items);
    return;
  }

  print(rt, await api.raw({ method, path, query, body, companyId, headers }), opts.include === true);
}

function print(rt: Runtime, res: HttpResponse, include: boolean): void {
  if (include) rt.out.out(statusBlock(res, rt.terminal.stdoutIsTTY, rt.ctx.apiKey));
  if (res.data !== undefined) rt.out.jsonValue(res.data);
}

function isPaged(data: unknown): boolean {
  return isRecord(data) && Array.isArray(data.content);
}

/**
 * `-i`: "HTTP/1.1 200 OK", one "name: value" line per header, then a blank line, as curl -i prints
 * them. Header values come from the server: inert on a terminal, and a key the server echoes back (in
 * a key header, or anywhere in a value) is redacted.
 */
function statusBlock(res: HttpResponse, tty: boolean, key: string | undefined): string {
  const lines = [`HTTP/1.1 ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`];
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) {
      const shown = /api[-_]?key/i.test(name) ? '[redacted]' : key ? one.split(key).join('[redacted]') : one;
      lines.push(`${name}: ${shown}`);
    }
  }
  const text = `${lines.join('\n')}\n\n`;
  return tty ? terminalSafe(text) : text;
}

/**
 * `-H 'Name: value'`, checked before anything is sent: a name and a colon, one line, and never the
 * key's header (the key comes from the profile or AGENCY_API_KEY only).
 */
export function parseHeaders(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const raw of values) {
    const colon = raw.indexOf(':');
    const name = colon < 0 ? '' : raw.slice(0, colon).trim();
    if (colon < 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || /[\r\n\0]/.test(raw)) {
      throw new UsageError(`Invalid header ${JSON.stringify(raw)}: use -H 'Name: value'.`);
    }
    const control = HEADER_CONTROL.exec(raw);
    if (control) {
      const code = `\\u${control[0].charCodeAt(0).toString(16).padStart(4, '0')}`;
      throw new UsageError(
        `The header ${JSON.stringify(name)} holds a control character (${code}), which a header cannot carry; nothing was sent.`,
      );
    }
    if (name.toLowerCase() === 'x-api-key') {
      throw new UsageError('The key cannot be given with -H: it comes from the profile or AGENCY_API_KEY.', {
        hint: 'There is deliberately no key option: a command line is visible to other users.',
      });
    }
    headers[name] = raw.slice(colon + 1).trim();
  }
  return headers;
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
    ({ text, source } = await readRunInput(
      rt,
      data === '-' ? '-' : data.slice(1),
      'the request body (JSON)',
    ));
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`The request body from ${source} is not valid JSON: ${(error as Error).message}`);
  }
}

export function define(api: Command, run: Run): void {
  configure(api).action(run(rawCall));
}
