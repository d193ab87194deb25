/**
 * `agency health` over many clients: each client's mailboxes, campaigns and webhooks read at once
 * through its own account (x-company-id; the HTTP layer keeps each account within its queue depth),
 * several clients at a time (the fan-out `inventory` uses), then the checks of health-checks.ts
 * against those reads and the client's line of the deliverability listing. Results come per client,
 * in the clients' order, so that rows can be produced as each client is done.
 */
import { type Deliverability, idKey } from '../api/types.js';
import { AgencyError, InterruptedError } from '../errors.js';
import type { DeliverabilityRow } from '../reports/deliverability.js';
import type { Problem } from '../reports/health.js';
import type { Client } from './clients.js';
import { rowsFor } from './deliverability.js';
import { type CampaignFacts, type ClientFacts, checkClient, unreadable } from './health-checks.js';
import type { MailEntry } from './inventory-parts.js';
import { mapInOrder, type OrderedRun } from './ordered.js';

export interface AccountReader {
  mailboxes(companyId?: number): Promise<MailEntry[]>;
  campaigns(companyId?: number): Promise<CampaignFacts>;
  webhooks(companyId?: number): Promise<unknown[]>;
}

export interface ClientResult {
  client: Client;
  /** 'inactive': the client cannot be read (409) and is not checked; that is not a problem. */
  state: 'checked' | 'inactive';
  problems: Problem[];
}

type Outcome<T> = { value: T } | { error: AgencyError };

async function attempt<T>(read: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { value: await read() };
  } catch (error) {
    if (error instanceof InterruptedError || !(error instanceof AgencyError)) throw error;
    return { error };
  }
}

/** A client's reads: mailboxes, campaigns, webhooks. */
const READS = 3;

/**
 * When a lane may start its next client. A client's reads queue back to back in its own account, so
 * the service is done with them about READS × (its time per request) after they were sent, whatever
 * the round trip: the next client's reads, sent then, arrive as the service finishes this client's,
 * and the lanes keep `concurrency` accounts at work instead of leaving each idle for a round trip.
 * The time per request is the spacing of a client's answers (the median of the last ones).
 */
class LanePacer {
  readonly #spacings: number[] = [];
  #median: number | undefined;

  note(spacingMs: number): void {
    this.#spacings.push(spacingMs);
    if (this.#spacings.length > 31) this.#spacings.shift();
    if (this.#spacings.length < 3) return;
    const sorted = [...this.#spacings].sort((a, b) => a - b);
    this.#median = sorted[sorted.length >> 1];
  }

  /** The service's time per request, once a few answers have shown it. */
  perRequest(): number | undefined {
    return this.#median;
  }
}

/**
 * One client: its three reads at once, then every check whose read succeeded. `release` frees the
 * lane: once the first answer is in, when the pacer says the service is about done with the client,
 * and at the latest when one read is left (the service is on it).
 */
async function checkOne(
  api: AccountReader,
  client: Client,
  /** The client's row of the listing, once the listing is in (asked only when the checks need it). */
  deliverability: () => Promise<DeliverabilityRow | undefined>,
  release: () => void,
  pacer: LanePacer,
): Promise<ClientResult> {
  const { id } = client;
  const sentAt = Date.now();
  let left = READS;
  let lastAnswer: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  const settled = <T>(outcome: Outcome<T>) => {
    const now = Date.now();
    if (lastAnswer === undefined) {
      const perRequest = pacer.perRequest();
      if (perRequest !== undefined) timer = setTimeout(release, sentAt + READS * perRequest - now);
    } else pacer.note(now - lastAnswer);
    lastAnswer = now;
    if (--left === 1) release();
    return outcome;
  };
  const [mailboxes, campaigns, webhooks] = await Promise.all([
    attempt(() => api.mailboxes(id)).then(settled),
    attempt(() => api.campaigns(id)).then(settled),
    attempt(() => api.webhooks(id)).then(settled),
  ]).finally(() => clearTimeout(timer));
  const outcomes = { mailboxes, campaigns, webhooks };
  const failed = Object.entries(outcomes).flatMap(([part, outcome]) =>
    'error' in outcome ? [[part, outcome.error] as const] : [],
  );
  // The service answers 409 for an inactive client: nothing of it can be read, and nothing is wrong.
  if (failed.some(([, error]) => error.status === 409)) return { client, state: 'inactive', problems: [] };
  const value = <T>(outcome: Outcome<T>) => ('value' in outcome ? outcome.value : undefined);
  const facts: ClientFacts = {
    id,
    name: client.name,
    owner: client.owner,
    mailboxes: value(mailboxes),
    campaigns: value(campaigns),
    webhooks: value(webhooks),
    // The listing may still be coming in while the client's own lists are read.
    deliverability: await deliverability(),
  };
  const problems = failed.map(([part, error]) => unreadable(client, `${part}: ${error.message}`, part));
  return { client, state: 'checked', problems: [...problems, ...checkClient(facts)] };
}

/**
 * Every client checked, `concurrency` at a time (a lane moves on when the service is about done with
 * its client, see LanePacer), as they come (`clients` may still be coming in); `onResult` gets each client's result in the clients' order as soon as it and every client
 * before it are done (so rows are printed as they come, and an interrupted run keeps them). An
 * inactive client the company list marked is not read.
 */
export function checkClients(
  api: AccountReader,
  clients: readonly Client[] | AsyncIterable<Client>,
  listing: Promise<readonly Deliverability[]>,
  options: {
    concurrency: number;
    signal: AbortSignal;
    /** How many clients are streamed in (for "N of M done" when the service is gone). */
    total?: number | undefined;
    onDone?: () => void;
    onResult?: (result: ClientResult) => void;
  },
): Promise<OrderedRun<ClientResult>> {
  const byId = listing.then((items) => new Map(rowsFor(undefined, items).map((row) => [idKey(row.id), row])));
  // Awaited by each client checked; a run stopped before any (Ctrl-C while the listing is read) must
  // not leave its failure unhandled.
  byId.catch(() => undefined);
  const pacer = new LanePacer();
  return mapInOrder(
    clients,
    options.concurrency,
    async (client, _index, release): Promise<ClientResult> => {
      const result =
        client.active === false
          ? { client, state: 'inactive' as const, problems: [] }
          : await checkOne(api, client, () => byId.then((map) => map.get(idKey(client.id))), release, pacer);
      options.onDone?.();
      return result;
    },
    (result) => options.onResult?.(result),
    options.signal,
    options.total,
  );
}
