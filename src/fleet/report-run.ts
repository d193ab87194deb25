/**
 * `agency report` over many clients: per client, through its own account (HQ key + x-company-id), a
 * report asked for the period (POST; a lost answer or a 5xx is asked again once: asking changes
 * nothing), then read by its hash until READY (pollOffsets: the first poll after 0.2 s, each gap a tenth
 * of the time waited so far, at most 5 s), for at most `waitMs`. FAILED/ERROR, a report never ready, a request that
 * failed or rows that do not add up end only that client. Clients run `concurrency` at once, and each
 * result is handed on in the clients' order (src/fleet/ordered.ts), so rows are printed as they come.
 */
import { paginate } from '../api/paginate.js';
import { REPORT_FAILED, REPORT_READY, type ReportAnswer } from '../api/resources/reports.js';
import { AgencyError, ExitCode, InterruptedError } from '../errors.js';
import type { CampaignReport, ClientResults, FailedClient } from '../reports/campaigns.js';
import { type Client, type ClientSelection, namedClients } from './clients.js';
import { answerMayBeLost } from './lost-answer.js';
import { mapInOrder, type OrderedRun } from './ordered.js';
import type { CompanyLister } from './ports.js';
import { clientResults, totalsOf, UnreadableRow } from './report.js';
import { CompanyDirectory } from './resolve.js';

export interface ReportReader extends CompanyLister {
  askCampaignReport(companyId: number, period: { from: string; to: string }): Promise<string>;
  readReport(companyId: number, hash: string): Promise<ReportAnswer>;
}

/**
 * The polls of a report: the first after `firstMs`, then each gap a `share` of the time since the hash
 * came, at least `firstMs` and at most `maxMs`. A poll finds a report at most one gap after it is ready,
 * so the time lost stays under a tenth of the wait, whatever the service takes: a report ready in 2 s
 * is found within 0.2 s (about 10 polls), one ready in a minute within 5 s (about 50). A poll is one GET
 * on the client's own queue. (Gaps half as long again each time, from 0.5 s, lost a quarter of the wait
 * on average: 1.24–1.26× the floor in `npm run bench`.)
 */
const POLLS = { firstMs: 200, share: 0.1, maxMs: 5_000 } as const;

/** When each poll of a report is due, in ms after the hash came (not after the last answer: a slow answer
 * does not push the schedule back). */
export function* pollOffsets(): Generator<number, never> {
  let at: number = POLLS.firstMs;
  for (;;) {
    yield at;
    at += Math.floor(Math.min(Math.max(at * POLLS.share, POLLS.firstMs), POLLS.maxMs));
  }
}

/** How long a client's report may take before the client fails as "not ready" (--wait). */
export const DEFAULT_WAIT_MS = 120_000;

export type ClientOutcome =
  | { client: Client; results: ClientResults }
  | { client: Client; failed: FailedClient; exitCode: ExitCode };

/** A client's report could not be made: the service said so, or never had it ready. */
class ReportNotMade extends Error {}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new InterruptedError());
    const stop = () => {
      clearTimeout(timer);
      reject(new InterruptedError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal.addEventListener('abort', stop, { once: true });
  });
}

async function ask(api: ReportReader, id: number, period: { from: string; to: string }): Promise<string> {
  try {
    return await api.askCampaignReport(id, period);
  } catch (error) {
    if (!answerMayBeLost(error)) throw error;
    return api.askCampaignReport(id, period);
  }
}

/** The report's rows once READY; throws ReportNotMade when it failed or was not ready within `waitMs`. */
async function rowsWhenReady(
  api: ReportReader,
  id: number,
  hash: string,
  options: { waitMs: number; signal: AbortSignal },
): Promise<unknown[]> {
  const start = Date.now();
  const deadline = start + options.waitMs;
  for (const offset of pollOffsets()) {
    await sleep(Math.max(0, Math.min(start + offset, deadline) - Date.now()), options.signal);
    const answer = await api.readReport(id, hash);
    if (answer.status === REPORT_READY) return answer.rows ?? [];
    if (REPORT_FAILED.includes(answer.status)) {
      throw new ReportNotMade(`the service could not make the report (status ${answer.status})`);
    }
    if (Date.now() >= deadline) {
      const seconds = Math.round(options.waitMs / 1000);
      throw new ReportNotMade(
        // Data, not a message: it reaches --json and MCP results as it is, so it names no option of one host.
        `the report was not ready after ${seconds} s (status ${answer.status}); try again later, or allow it a longer wait`,
      );
    }
  }
  throw new Error('unreachable: pollOffsets never ends');
}

function failure(client: Client, message: string, status: number | null, exitCode: ExitCode): ClientOutcome {
  return {
    client,
    failed: { company_id: client.id, name: client.name, error: { status, message } },
    exitCode,
  };
}

/** One client's report, or why it could not be made; an interruption is thrown. */
async function reportOf(
  api: ReportReader,
  client: Client,
  period: { from: string; to: string },
  options: { waitMs: number; signal: AbortSignal },
): Promise<ClientOutcome> {
  try {
    const hash = await ask(api, client.id, period);
    const rows = await rowsWhenReady(api, client.id, hash, options);
    return { client, results: clientResults(client.id, client.name, rows) };
  } catch (error) {
    if (error instanceof InterruptedError) throw error;
    if (error instanceof AgencyError) return failure(client, error.message, error.status, error.exitCode);
    if (error instanceof ReportNotMade) return failure(client, error.message, null, ExitCode.failure);
    if (error instanceof UnreadableRow) {
      const message = `the report of company ${client.id} was not understood: ${error.message}`;
      return failure(client, message, null, ExitCode.failure);
    }
    throw error;
  }
}

/**
 * The company list's clients as its pages come in; `listed()` is every client of the pages read so far,
 * in order, those not yet handed on included: a run stopped early names them among the clients not done.
 */
export interface ListedClients extends AsyncIterable<Client> {
  listed(): readonly Client[];
}

/**
 * The clients of a selection, in order: the named ones (resolved through the company list, read only
 * as far as needed), or the company list's clients as its pages come in (none = every active client).
 */
export async function reportTargets(
  api: CompanyLister,
  selection: ClientSelection,
  limit?: number,
): Promise<readonly Client[] | ListedClients> {
  if (selection.kind === 'named') {
    const refs = limit === undefined ? selection.refs : selection.refs.slice(0, limit);
    return namedClients(refs, new CompanyDirectory(api), new Map());
  }
  const active = selection.kind === 'listed' ? selection.active : true;
  // Pages are asked ahead and may come back in any order: kept by page number.
  const pages = new Map<number, Client[]>();
  const companies = paginate(
    async (page: number) => {
      const answer = await api.listCompaniesPage(page, active);
      pages.set(page, answer.content.map(toClient));
      return answer;
    },
    { limit },
  );
  const clients = (async function* () {
    for await (const company of companies) yield toClient(company);
  })();
  const listed = () => {
    const all = [...pages].sort(([a], [b]) => a - b).flatMap(([, page]) => page);
    return limit === undefined ? all : all.slice(0, limit);
  };
  return Object.assign(clients, { listed });
}

function toClient({ id, name, active }: { id: number; name: string; active: boolean }): Client {
  return { id, name, active };
}

/** Every client's report, `concurrency` at a time; `onResult` in the clients' order as each is done. */
export function reportClients(
  api: ReportReader,
  clients: readonly Client[] | AsyncIterable<Client>,
  period: { from: string; to: string },
  options: {
    concurrency: number;
    waitMs: number;
    signal: AbortSignal;
    onStart?: (client: Client) => void;
    onResult?: (outcome: ClientOutcome) => void;
  },
): Promise<OrderedRun<ClientOutcome>> {
  return mapInOrder(
    clients,
    options.concurrency,
    (client) => {
      options.onStart?.(client);
      return reportOf(api, client, period, options);
    },
    (outcome) => options.onResult?.(outcome),
    options.signal,
  );
}

/**
 * The run as one value (what --json prints, the HTML page shows and the history store keeps): the
 * clients whose report was made, in order, and those that failed; stopped early, the clients not done.
 */
export function reportOfRun(
  period: { from: string; to: string },
  outcomes: readonly ClientOutcome[],
  notDone?: readonly Client[],
): CampaignReport {
  const clients: ClientResults[] = [];
  const failed: FailedClient[] = [];
  for (const outcome of outcomes) {
    if ('results' in outcome) clients.push(outcome.results);
    else failed.push(outcome.failed);
  }
  const totals = totalsOf(clients.map((client) => client.totals));
  return { period, totals, clients, failed, ...(notDone ? { not_done: notDone.map((c) => c.id) } : {}) };
}
