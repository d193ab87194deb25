/**
 * What a route is: a path pattern, its methods, and a handler that gets the resolved account and
 * the request's parts. Each resources/*.ts exports its routes; server.ts puts them in one table.
 */
import type { ListRoute } from './faults.js';
import type { Store } from './store.js';
import { type HqContext, type RequestContext, SandboxError } from './types.js';

export type Body = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'invalid'; text: string };

export interface Input {
  method: string;
  params: string[];
  query: Record<string, string>;
  body: Body;
}

export interface Result {
  status: number;
  /** `undefined` = an answer without a body (204, or the blacklist's 201). */
  body: unknown;
  headers?: Record<string, string>;
}

/** Counters the control API reports; routes that create things add to them. */
export interface Counters {
  createdCompanies: number;
  createdKeys: number;
  /** Webhook pairs added by POST /v1/webhooks/subscribe. */
  webhooksSubscribed: number;
  /** Webhook pairs removed by POST /v1/webhooks/unsubscribe. */
  webhooksUnsubscribed: number;
  /** Values newly added to the agency blacklist (values already on it not counted). */
  blacklistAdded: number;
  /** Values removed from the agency blacklist by DELETE (values not on it not counted). */
  blacklistRemoved: number;
  /** Requests to POST .../invite_guest that were accepted. */
  guestInvitations: number;
  /** Requests to PUT .../guests/permissions that were accepted. */
  guestPermissionChanges: number;
}

export interface RouteEnv {
  store: Store;
  counters: Counters;
  /** An empty v1 list answers 204 (the service) instead of an empty JSON list. */
  v1Dialect: boolean;
}

/** A v1 list's answer: 204 with no body when empty and the sandbox speaks the service's v1. */
export function v1List(items: readonly unknown[], body: unknown, env: RouteEnv): Result {
  return items.length === 0 && env.v1Dialect ? { status: 204, body: undefined } : ok(body);
}

export type Route = {
  pattern: RegExp;
  methods: readonly string[];
  /** For the 'large-page' fault. */
  list?: ListRoute;
} & (
  | { agency: false; handle(context: RequestContext, input: Input, env: RouteEnv): Result }
  | { agency: true; handle(context: HqContext, input: Input, env: RouteEnv): Result }
);

export function ok(body: unknown): Result {
  return { status: 200, body };
}

export function jsonBody(body: Body): unknown {
  if (body.kind !== 'json') throw new SandboxError(400, 'Request body must be valid JSON');
  return body.value;
}

/** The route whose pattern matches `path` (relative to /rest), with the pattern's groups. */
export function findRoute(
  routes: readonly Route[],
  path: string,
): { route: Route; params: string[] } | undefined {
  for (const route of routes) {
    const m = route.pattern.exec(path);
    if (m) return { route, params: m.slice(1) };
  }
  return undefined;
}
