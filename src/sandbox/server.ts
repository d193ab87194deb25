/**
 * `startSandbox`: the state (seeded or loaded), the route table, the per-account limiter, fault
 * injection and request recording, put together behind one node:http server. What each request
 * goes through is in api.ts; the rules in resources/*.ts; the control API in control.ts.
 */
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createApiHandler, type RecordedRequest } from './api.js';
import type { SandboxSettings } from './banner.js';
import { handleControl } from './control.js';
import { FaultList, type FaultRule } from './faults.js';
import { ConcurrencyLimiter } from './ratelimit.js';
import { blacklistRoutes } from './resources/blacklist.js';
import { campaignRoutes } from './resources/campaigns.js';
import { companyRoutes } from './resources/companies.js';
import { deliverabilityRoutes } from './resources/deliverability.js';
import { guestRoutes } from './resources/guests.js';
import { keyRoutes } from './resources/keys.js';
import { mailboxRoutes } from './resources/mailboxes.js';
import { reportRoutes, type SandboxReportOptions } from './resources/reports.js';
import { userRoutes } from './resources/users.js';
import { webhookRoutes } from './resources/webhooks.js';
import type { Counters, Route } from './routing.js';
import { loadOrSeed, saveState } from './state-file.js';
import { Store } from './store.js';
import type { SeedOptions, UserRecord } from './types.js';
import { createWaits } from './waits.js';
import { sendError } from './wire.js';

export type { RecordedRequest } from './api.js';
export { stateSummary } from './control.js';
export { errorBody, timestamp } from './error-body.js';

export interface SandboxOptions {
  /** 0 = ephemeral (default 0). */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Loaded if it exists; rewritten atomically (0600) after every mutation. */
  statePath?: string;
  /** Processing time of every API request, spent while holding the account's slot (default 0). */
  latencyMs?: number;
  /**
   * Network round trip of every API request in ms (default 0): half before the request reaches its
   * account's queue, half after its answer is ready, outside the account's slot (unlike latencyMs).
   */
  rttMs?: number;
  /** Waiting requests per account beyond the one in progress (default 6). */
  queueLimit?: number;
  /** Longest wait in the queue before 429 (default 15000). */
  queueTimeoutMs?: number;
  /** Size of a fresh world (ignored when a state file is loaded). */
  seed?: SeedOptions;
  /** Fixed HQ key of the agency owner (user 1); default: the saved one, else random. */
  hqKey?: string;
  /**
   * Serve what the service's public docs show where they differ from the specification: webhooks
   * only under GET /v2/webhooks (GET /v1/webhooks answers 404 in the v1 envelope), and the
   * deliverability listing's older paging names (total_count, pages_count). Default false.
   */
  docsMode?: boolean;
  /**
   * v1 paths answer as the service's docs show: errors in the v1 envelope
   * `{"status": {"status": "ERROR", "code", "msg"}}` and an empty list as 204 (default true; false =
   * the specification's error body and empty JSON lists on v1 paths too).
   */
  v1Dialect?: boolean;
  /** Campaign reports: how long one takes to prepare, and how many reads answer "pending" first. */
  reports?: SandboxReportOptions;
  /** Called once per API request when it is over (answered, or dropped: status 0), for a request log. */
  onRequest?: (entry: RequestLogEntry) => void;
}

export interface RequestLogEntry {
  method: string;
  /** Path and query string as received, e.g. '/rest/v2/agency/companies?page=2'. */
  path: string;
  /** 0 when no answer was sent (a dropped connection, a client that left). */
  status: number;
  /** From arrival to the end of the answer (fractional). */
  ms: number;
  /** Arrival and end, in ms since the epoch with sub-millisecond precision (for timelines). */
  startedAt: number;
  endedAt: number;
  /** Kind of the fault that fired, if any. */
  fault?: string;
  /** Rate-limit account ('hq:<agencyId>' or 'company:<id>'); '' when the request never got that far. */
  account: string;
  /** When the account's slot was given and given back (the service's own work), if it got one. */
  servedFrom?: number;
  servedTo?: number;
}

export interface Sandbox {
  /** 'http://127.0.0.1:PORT' */
  url: string;
  /** url + '/rest' */
  baseUrl: string;
  /** HQ key of the agency owner (user 1). */
  hqKey: string;
  /** Users of the main agency, owner first. */
  users: { name: string; email: string; hqKey: string }[];
  /** Every API request received (everything except /_sandbox), in order of arrival. */
  requests: RecordedRequest[];
  stats(): SandboxStats;
  /** Clears recorded requests, stats and faults; the data stays. */
  reset(): void;
  addFault(f: FaultRule): void;
  close(): Promise<void>;
  store: Store;
  /** The settings in effect (for the banner). */
  settings: SandboxSettings;
}

/** What the control API reports: connections and requests, and the counters of what routes created. */
export interface SandboxStats extends Counters {
  /** TCP connections accepted. */
  connections: number;
  /** API requests received. */
  requests: number;
  /** Most requests in progress at once per account (the limiter makes this at most 1). */
  maxConcurrentByAccount: Record<string, number>;
  /** Most requests in the account's queue at once (in progress + waiting; at most 1 + queueLimit). */
  maxQueuedByAccount: Record<string, number>;
  /** API requests that reached an account (authenticated, context resolved), per account. */
  requestsByAccount: Record<string, number>;
  /** Requests refused by the limiter (injected 429 faults are not counted). */
  rejected429: number;
  /** The same, per account. */
  rejected429ByAccount: Record<string, number>;
  /** The account's slot held, in ms (the service's own work, --latency included), per account. */
  servedMsByAccount: Record<string, number>;
}

const KEEP_ALIVE_MS = 30_000;

function routeTable(options: { docsMode: boolean; reports?: SandboxReportOptions | undefined }): Route[] {
  return [
    ...userRoutes,
    ...mailboxRoutes,
    ...webhookRoutes(options),
    ...campaignRoutes,
    ...companyRoutes,
    ...keyRoutes,
    ...blacklistRoutes,
    ...deliverabilityRoutes(options),
    ...guestRoutes(),
    ...reportRoutes(options.reports),
  ];
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const host = opts.host ?? '127.0.0.1';
  const queueLimit = opts.queueLimit ?? 6;
  const queueTimeoutMs = opts.queueTimeoutMs ?? 15_000;
  const statePath = opts.statePath;

  const store = statePath ? loadOrSeed(statePath, opts.seed) : Store.seed(opts.seed);
  if (opts.hqKey !== undefined) {
    if (opts.hqKey === '') throw new TypeError('hqKey must not be empty');
    store.setHqKey(1, opts.hqKey);
  }

  const faults = new FaultList();
  const limiter = new ConcurrencyLimiter({ queueLimit, queueTimeoutMs });
  const requests: RecordedRequest[] = [];
  const zero = () => ({
    connections: 0,
    requests: 0,
    rejected429: 0,
    createdCompanies: 0,
    createdKeys: 0,
    webhooksSubscribed: 0,
    webhooksUnsubscribed: 0,
    blacklistAdded: 0,
    blacklistRemoved: 0,
    guestInvitations: 0,
    guestPermissionChanges: 0,
  });
  const counters = zero();
  const byAccount = {
    requests: {} as Record<string, number>,
    rejected429: {} as Record<string, number>,
    servedMs: {} as Record<string, number>,
  };
  const stats = (): SandboxStats => ({
    ...counters,
    maxConcurrentByAccount: { ...limiter.maxConcurrent },
    maxQueuedByAccount: { ...limiter.maxQueued },
    requestsByAccount: { ...byAccount.requests },
    rejected429ByAccount: { ...byAccount.rejected429 },
    servedMsByAccount: { ...byAccount.servedMs },
  });
  const waits = createWaits();

  const reset = () => {
    requests.length = 0;
    Object.assign(counters, zero());
    byAccount.requests = {};
    byAccount.rejected429 = {};
    byAccount.servedMs = {};
    limiter.resetStats();
    faults.clear();
  };

  const settings: SandboxSettings = {
    latencyMs: opts.latencyMs ?? 0,
    rttMs: opts.rttMs ?? 0,
    queueLimit,
    queueTimeoutMs,
    docsMode: opts.docsMode ?? false,
    v1Dialect: opts.v1Dialect ?? true,
    statePath,
  };
  const handleApi = createApiHandler({
    onRequest: opts.onRequest,
    store,
    routes: routeTable({ docsMode: settings.docsMode, reports: opts.reports }),
    faults,
    limiter,
    counters,
    requests,
    latencyMs: settings.latencyMs,
    rttMs: settings.rttMs,
    byAccount,
    v1Dialect: settings.v1Dialect,
    queueLimit,
    queueTimeoutMs,
    waits,
  });
  const control = { store, faults, requests: () => requests, stats, reset };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const work =
      url.pathname === '/_sandbox' || url.pathname.startsWith('/_sandbox/')
        ? handleControl(control, req, res, url)
        : handleApi(req, res, url);
    work.catch((error: unknown) => {
      if (waits.ended) return;
      if (!res.headersSent && !res.destroyed)
        sendError(res, 500, `Sandbox error: ${(error as Error).message}`);
      else res.destroy();
    });
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 5_000;
  server.on('connection', (socket: Socket) => {
    counters.connections += 1;
    socket.setNoDelay(true);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // The state file is written only once the sandbox runs: one that cannot start (its port taken)
  // leaves no file behind, and an existing one untouched.
  if (statePath) {
    try {
      saveState(statePath, store);
    } catch (error) {
      await new Promise((resolve) => server.close(resolve));
      throw error;
    }
    store.onChange = () => saveState(statePath, store);
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const mainUsers = store.users(store.mainAgency.id);

  return {
    url,
    baseUrl: `${url}/rest`,
    hqKey: (store.user(1) as UserRecord).hqKey,
    users: mainUsers.map((u) => ({ name: u.name, email: u.email, hqKey: u.hqKey })),
    requests,
    stats,
    reset,
    addFault: (rule) => faults.add(rule),
    close: () =>
      new Promise<void>((resolve, reject) => {
        waits.endAll();
        limiter.dispose();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
    store,
    settings,
  };
}
