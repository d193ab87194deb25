/**
 * The agency's blacklist (GET/POST/DELETE /v2/agency/blacklist/{emails|domains}), HQ key only. Reads
 * are 0-based: `page` (default 0) and `per_page` (default 100, 1 to 1,000; else 400) →
 * `{"emails"|"domains": [...], "total": N}`; with `email_filter=a,b,...` only those values that are
 * listed, and `total` is how many were found (the request URL may be at most 4,100 characters: api.ts).
 * A POST adds `{"emails"|"domains": [...]}`, 1 to 500 values, each an address or a domain (else 400
 * naming it, nothing added), stored lower-case; values already listed are kept once. It answers 201
 * with no body. A DELETE takes the same body and removes the values listed (others are ignored):
 * 200 with no body.
 */
import { jsonBody, ok, type Result, type Route, type RouteEnv } from '../routing.js';
import { type BlacklistRecord, type HqContext, isObject, SandboxError } from '../types.js';

const DEFAULT_PER_PAGE = 100;
const MAX_PER_PAGE = 1000;
const MAX_VALUES_PER_POST = 500;

type Kind = keyof BlacklistRecord;

const EMAIL = /^[^@\s]+@([a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/i;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/i;

function wholeNumber(
  raw: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  if (raw === undefined) return fallback;
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new SandboxError(400, `${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return n;
}

function listBlacklist(env: RouteEnv, context: HqContext, kind: Kind, query: Record<string, string>) {
  const page = wholeNumber(query.page, 'page', 0, 0, Number.MAX_SAFE_INTEGER);
  const perPage = wholeNumber(query.per_page, 'per_page', DEFAULT_PER_PAGE, 1, MAX_PER_PAGE);
  const listed = env.store.blacklist(context.agency.id)[kind];
  const filter = query.email_filter;
  let all = listed;
  if (filter !== undefined) {
    const asked = new Set(filter.split(',').map((v) => v.trim().toLowerCase()));
    all = listed.filter((value) => asked.has(value));
  }
  const start = page * perPage;
  return { [kind]: start >= all.length ? [] : all.slice(start, start + perPage), total: all.length };
}

/** The checked, lower-cased values of a POST or DELETE body; any bad value is 400 and nothing changes. */
function valuesOf(kind: Kind, body: unknown): string[] {
  const values = isObject(body) ? body[kind] : undefined;
  if (!Array.isArray(values)) throw new SandboxError(400, `Request body must be {"${kind}": [...]}`);
  if (values.length === 0) throw new SandboxError(400, `"${kind}" must not be empty`);
  if (values.length > MAX_VALUES_PER_POST) {
    throw new SandboxError(400, `At most ${MAX_VALUES_PER_POST} ${kind} per request (got ${values.length})`);
  }
  const form = kind === 'emails' ? EMAIL : DOMAIN;
  const clean = values.map((value, i) => {
    if (typeof value !== 'string' || !form.test(value.trim())) {
      throw new SandboxError(
        400,
        `${kind}[${i}] is not ${kind === 'emails' ? 'an email address' : 'a domain'}: ${JSON.stringify(value)}`,
      );
    }
    return value.trim().toLowerCase();
  });
  return clean;
}

function addToBlacklist(env: RouteEnv, context: HqContext, kind: Kind, body: unknown): Result {
  env.counters.blacklistAdded += env.store.addToBlacklist(context.agency.id, kind, valuesOf(kind, body));
  return { status: 201, body: undefined };
}

function removeFromBlacklist(env: RouteEnv, context: HqContext, kind: Kind, body: unknown): Result {
  const values = valuesOf(kind, body);
  env.counters.blacklistRemoved += env.store.removeFromBlacklist(context.agency.id, kind, values);
  return { status: 200, body: undefined };
}

export const blacklistRoutes: Route[] = [
  {
    pattern: /^\/v2\/agency\/blacklist\/(emails|domains)$/,
    methods: ['GET', 'POST', 'DELETE'],
    agency: true,
    handle: (c, { method, params, query, body }, env) => {
      const kind = params[0] as Kind;
      if (method === 'GET') return ok(listBlacklist(env, c, kind, query));
      if (method === 'DELETE') return removeFromBlacklist(env, c, kind, jsonBody(body));
      return addToBlacklist(env, c, kind, jsonBody(body));
    },
  },
];
