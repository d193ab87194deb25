/**
 * Which clients `deliverability` and `health` look at (contract, "Fleet health"): none = every client
 * of the agency; --company (repeatable) and --file name them; --all / --active = the active ones;
 * --inactive = the inactive ones. Checked locally first; a named id costs no company listing when the
 * deliverability listing already names the client, and otherwise only the pages until it is found.
 */

import { collect, paginate } from '../api/paginate.js';
import { type Company, type Deliverability, idKey } from '../api/types.js';
import { UsageError } from '../errors.js';
import type { Period } from '../input/period.js';
import { option } from '../terms.js';
import { fetchAllCompanies } from './all-companies.js';
import { type DeliverabilityReader, readDeliverability } from './deliverability.js';
import type { CompanyLister } from './ports.js';
import { CompanyDirectory, type CompanyRef } from './resolve.js';
import { readRefs, type TargetOptions } from './targets.js';

export interface ClientTargetOptions extends TargetOptions {
  active?: boolean | undefined;
  inactive?: boolean | undefined;
}

export type ClientSelection =
  /** No targets: every client. */
  | { kind: 'every' }
  /** --all / --active (true), --inactive (false): the company list with that filter. */
  | { kind: 'listed'; active: boolean }
  /** --company / --file, in the user's order. */
  | { kind: 'named'; refs: CompanyRef[] };

/** Companies named (--company, --file) and chosen by a filter (--all, --active, --inactive) at once. */
export function namedAndFiltered(): UsageError {
  const [company, file, all, active, inactive] = ['company', 'file', 'all', 'active', 'inactive'].map(
    (name) => option(name),
  );
  return new UsageError(
    `${company} and ${file} name the companies; ${all}, ${active} and ${inactive} cannot be added.`,
  );
}

/** The selection the options ask for; bad values are a usage error before any request. */
export function clientSelection(options: ClientTargetOptions): ClientSelection {
  const named = (options.company ?? []).length > 0 || options.file !== undefined;
  const filtered = options.all || options.active || options.inactive;
  if (named && filtered) throw namedAndFiltered();
  if (named) {
    const refs = readRefs(options).map(({ ref }) => ref);
    if (refs.length === 0) {
      throw new UsageError(
        `${options.file?.source ?? option('file')} names no company (only blank or # lines).`,
      );
    }
    return { kind: 'named', refs };
  }
  if (filtered) return { kind: 'listed', active: !options.inactive };
  return { kind: 'every' };
}

export interface Client {
  id: number;
  name: string;
  /** The client's owner: known when the company list was read for it. */
  owner?: string | undefined;
  /** Unknown when the client was named by id and the company list was not read. */
  active?: boolean | undefined;
}

/**
 * The named clients, each once, in the user's order. `known` names clients for free (the
 * deliverability listing); an id it does not name is looked up in the company list, read only until
 * every such id is found (an id outside the agency: exit 4); a name is resolved through the list.
 */
export async function namedClients(
  refs: readonly CompanyRef[],
  directory: CompanyDirectory,
  known: ReadonlyMap<string, string>,
  /** Look up every id in the company list, also those the listing names (for their owners). */
  owners = false,
): Promise<Client[]> {
  const unknownIds = refs.flatMap((ref) =>
    ref.id !== undefined && (owners || !known.has(idKey(ref.id))) ? [ref.id] : [],
  );
  const found = new Map<string, Company>();
  for (const company of await directory.find(unknownIds)) found.set(idKey(company.id), company);
  const clients: Client[] = [];
  const seen = new Set<string>();
  for (const ref of refs) {
    let client: Client;
    if (ref.id === undefined) {
      const { id, company } = await directory.resolve(ref);
      client = { id, name: company?.name ?? ref.name, owner: company?.owner, active: company?.active };
    } else {
      const company = found.get(idKey(ref.id));
      client = {
        id: ref.id,
        name: company?.name ?? known.get(idKey(ref.id)) ?? '',
        owner: company?.owner,
        active: company?.active,
      };
    }
    if (seen.has(idKey(client.id))) continue;
    seen.add(idKey(client.id));
    clients.push(client);
  }
  return clients;
}

/** Each company once, where it was first listed (a list whose pages shifted can name one twice). */
function onceEach(companies: readonly Company[]): Company[] {
  const seen = new Set<string>();
  return companies.filter((c) => !seen.has(idKey(c.id)) && Boolean(seen.add(idKey(c.id))));
}

export interface ClientReader extends CompanyLister, DeliverabilityReader {}

export interface SelectedClients {
  /** The clients to report on, in order; undefined = the clients the deliverability listing names. */
  clients: Client[] | undefined;
  /** The deliverability listing of the period (only up to the named clients when ids alone are given). */
  items: Deliverability[];
}

/**
 * The clients of a selection and the period's deliverability listing, read together. `every`: what no
 * target means: 'listing' = the clients the listing names (deliverability), 'active' = every active
 * company (health; an inactive one cannot be read).
 */
export async function selectClients(
  api: ClientReader,
  selection: ClientSelection,
  period: Period,
  every: 'listing' | 'active',
  /** --limit N: only the first N clients of the selection, in its order; no page read beyond them. */
  limit?: number,
  /** Named clients' owners are wanted (an owner column): each is looked up in the company list. */
  owners = false,
): Promise<SelectedClients> {
  if (selection.kind === 'every' && every === 'listing') {
    return { clients: undefined, items: await readDeliverability(api, period, undefined, limit) };
  }
  if (selection.kind !== 'named') {
    const active = selection.kind === 'listed' ? selection.active : true;
    const toClients = (companies: Company[]) =>
      onceEach(companies).map(({ id, name, owner }) => ({ id, name, owner, active }));
    if (limit !== undefined) {
      // The first N companies, then the listing only as far as it names them.
      const companies = await collect(paginate((p) => api.listCompaniesPage(p, active), { limit }));
      const items = await readDeliverability(api, period, new Set(companies.map((c) => idKey(c.id))));
      return { clients: toClients(companies), items };
    }
    const [companies, items] = await Promise.all([
      fetchAllCompanies(api, active),
      readDeliverability(api, period),
    ]);
    return { clients: toClients(companies), items };
  }
  const directory = new CompanyDirectory(api);
  const refs = limit === undefined ? selection.refs : selection.refs.slice(0, limit);
  const ids = refs.flatMap((ref) => (ref.id === undefined ? [] : [ref.id]));
  const idsOnly = ids.length === refs.length;
  const [items] = await Promise.all([
    readDeliverability(api, period, idsOnly ? new Set(ids.map(idKey)) : undefined),
    // A name needs the whole company list anyway: read it while the listing comes in.
    idsOnly ? undefined : directory.all(),
  ]);
  const known = new Map(items.map((item) => [idKey(item.id), item.name]));
  return { clients: await namedClients(refs, directory, known, owners), items };
}

export interface ClientsToCheck {
  /** The clients in order: a list, or (every/listed) a stream that follows the company list's pages. */
  clients: readonly Client[] | AsyncIterable<Client>;
  /** How many there are (--limit counted in), as the company list's first page says when streamed. */
  total: number | undefined;
  /** The period's deliverability listing, still coming in. */
  listing: Promise<Deliverability[]>;
}

/**
 * The clients `health` checks, and the period's listing as a promise. Their own reads need only the
 * company list, and each page's clients can be read as soon as it arrives: so the HQ account reads the
 * first page alone, and the clients' reads start while the rest of the list and the listing's pages
 * come in (`limit`: no page beyond the first N clients). Named clients need the listing first (it
 * names them).
 */
export async function clientsToCheck(
  api: ClientReader,
  selection: ClientSelection,
  period: Period,
  limit?: number,
  owners = false,
): Promise<ClientsToCheck> {
  if (selection.kind === 'named') {
    const { clients = [], items } = await selectClients(api, selection, period, 'active', undefined, owners);
    const chosen = limit === undefined ? clients : clients.slice(0, limit);
    return { clients: chosen, total: chosen.length, listing: Promise.resolve(items) };
  }
  const active = selection.kind === 'listed' ? selection.active : true;
  let total: number | undefined;
  let firstPage: Company[] = [];
  const companies = paginate(
    async (page: number) => {
      const answer = await api.listCompaniesPage(page, active);
      if (page === 1) {
        total = answer.pagination_data?.total_elements;
        firstPage = answer.content;
      }
      return answer;
    },
    { limit },
  )[Symbol.asyncIterator]();
  const first = await companies.next();
  // No client: nothing to look up in the listing. --limit within the first page: the listing only
  // up to the page naming the last of those clients.
  const wanted =
    limit !== undefined && limit <= firstPage.length
      ? new Set(firstPage.slice(0, limit).map((c) => idKey(c.id)))
      : undefined;
  const listing = first.done ? Promise.resolve([]) : readDeliverability(api, period, wanted);
  // Awaited later; a failure still reaches the caller then, but is not an unhandled rejection meanwhile.
  listing.catch(() => undefined);
  if (total !== undefined && limit !== undefined) total = Math.min(total, limit);
  const clients = async function* (): AsyncGenerator<Client> {
    // A list whose pages shifted while it was read can name a company twice: it is one client.
    const seen = new Set<string>();
    try {
      for (let step = first; !step.done; step = await companies.next()) {
        const { id, name, owner } = step.value;
        if (seen.has(idKey(id))) continue;
        seen.add(idKey(id));
        yield { id, name, owner, active };
      }
    } finally {
      // A run that stops early (Ctrl-C, --limit reached, an error) asks for no further page.
      await companies.return(undefined);
    }
  };
  return { clients: clients(), total: first.done ? 0 : total, listing };
}
