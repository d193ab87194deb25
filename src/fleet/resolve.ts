/**
 * `<company>` as the user gives it: a numeric id, or an exact company name resolved through one
 * listing of the companies per run (cached), never guessed.
 */

import { exactInteger } from '../api/json.js';
import { paginateSearch } from '../api/paginate.js';
import { type Company, idKey } from '../api/types.js';
import { AgencyError, ExitCode, UsageError } from '../errors.js';
import { command, inputLine, option } from '../terms.js';
import { fetchAllCompanies } from './all-companies.js';
import { describeCompany, exactName, NameIndex } from './names.js';
import type { CompanyLister } from './ports.js';

export type CompanyRef = { id: number; name?: undefined } | { name: string; id?: undefined };

/**
 * Digits only → an id, which must be a positive whole number (else a usage error before any request);
 * anything else → a name. `where` says where the value came from ("--company", "ids.txt line 2").
 */
export function parseCompanyRef(value: string, where?: string): CompanyRef {
  const text = value.trim();
  const invalid = (why: string) =>
    new UsageError(`Invalid company id ${JSON.stringify(value)}${where ? ` (${where})` : ''}: ${why}.`);
  if (text === '') throw invalid('expected a company id or an exact company name');
  if (!/^\d+$/.test(text)) return { name: text };
  if (/^0+$/.test(text)) throw invalid('expected a positive whole number, such as 1042');
  // Beyond 2^53 an id is held exactly, as the service's answers hold it (a double would be a neighbour's).
  return { id: exactInteger(text) };
}

/** A name that no company has. Exit 4, like the service's 404 for an unknown company id. */
export class CompanyNotFoundError extends AgencyError {
  readonly exitCode = ExitCode.notFound;
}

/** Two companies share the name exactly; the tool never picks one for the user. */
class AmbiguousCompanyError extends AgencyError {
  readonly exitCode = ExitCode.usage;
}

export interface ResolvedCompany {
  id: number;
  /** The company's record when the listing was read (always for a name). */
  company?: Company | undefined;
}

/** One listing of the agency's companies per run, shared by every name that needs resolving. */
export class CompanyDirectory {
  #companies: Promise<Company[]> | undefined;
  #index: Promise<NameIndex<Company>> | undefined;

  constructor(private readonly api: CompanyLister) {}

  /** Every company of the agency (all pages), read once. */
  all(): Promise<Company[]> {
    this.#companies ??= fetchAllCompanies(this.api);
    return this.#companies;
  }

  index(): Promise<NameIndex<Company>> {
    this.#index ??= this.all().then((companies) => new NameIndex(companies));
    return this.#index;
  }

  /**
   * The companies with these ids. The list is read only until every one is found: a target on the
   * first page costs one request, not the whole list. An id the whole list lacks is exit 4.
   */
  async find(ids: readonly number[]): Promise<Company[]> {
    if (ids.length === 0) return [];
    // By their digits: an id beyond 2^53 is a new object at each reading.
    const missing = new Map(ids.map((id) => [idKey(id), id]));
    const found = new Map<string, Company>();
    const take = (company: Company) => {
      if (!missing.delete(idKey(company.id))) return;
      found.set(idKey(company.id), company);
    };
    if (this.listed) {
      for (const company of await this.all()) take(company);
    } else {
      for (const company of this.#seenIds.values()) take(company);
      if (missing.size > 0) await this.#search(take, () => missing.size === 0);
    }
    if (missing.size > 0) {
      throw new CompanyNotFoundError(`No company with id ${[...missing.keys()].join(', ')} in this agency.`, {
        hint: `See the ids with: ${command('companies list')}`,
      });
    }
    return ids.flatMap((id) => found.get(idKey(id)) ?? []);
  }

  /** Whether the listing has been (or is being) read, so an id can be matched to its record for free. */
  get listed(): boolean {
    return this.#companies !== undefined;
  }

  /**
   * Reads the list only until every one of `names` has been seen (names are unique in an agency): a
   * name on the first page costs one request. Read to its end, the list is kept as the whole listing,
   * so a name it lacks is told from look-alikes without reading it again.
   */
  async seek(names: readonly string[]): Promise<void> {
    if (this.listed) return;
    const wanted = new Set(names.map(exactName).filter((name) => !this.#seen.has(name)));
    if (wanted.size === 0) return;
    await this.#search(
      (company) => wanted.delete(exactName(company.name)),
      () => wanted.size === 0,
    );
  }

  /**
   * Reads the list from its first page, each company seen kept (by name and id) and handed to `take`,
   * until `done()`. Read to its end, the list is kept as the whole listing.
   */
  async #search(take: (company: Company) => void, done: () => boolean): Promise<void> {
    const read: Company[] = [];
    // Every company of a page that came is kept, also those after the one sought (it cost nothing).
    const fetchPage = async (page: number) => {
      const answer = await this.api.listCompaniesPage(page);
      for (const company of answer.content) this.#keep(company);
      return answer;
    };
    for await (const company of paginateSearch(fetchPage)) {
      read.push(company);
      take(company);
      if (done()) return;
    }
    this.#companies = Promise.resolve(read);
  }

  #keep(company: Company): void {
    const key = idKey(company.id);
    if (this.#seenIds.has(key)) return;
    this.#seenIds.set(key, company);
    const name = exactName(company.name);
    this.#seen.set(name, [...(this.#seen.get(name) ?? []), company]);
  }

  /** Companies seen by seek() before the list was read whole: by exact name, and by id. */
  readonly #seen = new Map<string, Company[]>();
  readonly #seenIds = new Map<string, Company>();

  async resolve(ref: CompanyRef): Promise<ResolvedCompany> {
    if (ref.id !== undefined) {
      const key = idKey(ref.id);
      const company = this.listed
        ? (await this.all()).find((c) => idKey(c.id) === key)
        : this.#seenIds.get(key);
      return { id: ref.id, company };
    }
    await this.seek([ref.name]);
    const seen = this.listed ? undefined : this.#seen.get(exactName(ref.name));
    if (seen?.length === 1) return { id: seen[0]?.id as number, company: seen[0] };
    const index = await this.index();
    const matches = index.exact(ref.name);
    const [only] = matches;
    if (only && matches.length === 1) return { id: only.id, company: only };
    if (matches.length > 1) {
      throw new AmbiguousCompanyError(
        `${matches.length} companies are named ${JSON.stringify(ref.name)}: ${matches.map(describeCompany).join(', ')}.`,
        { hint: 'Give the company id instead of the name.' },
      );
    }
    throw notFound(ref.name, index);
  }
}

function notFound(name: string, index: NameIndex<Company>): CompanyNotFoundError {
  const lookalikes = index.lookalikes(name);
  const hint = lookalikes.length
    ? `Names must match exactly (case and spacing count). Did you mean ${lookalikes.map(describeCompany).join(' or ')}?`
    : `See the names with: ${command('companies list')}`;
  return new CompanyNotFoundError(`No company named ${JSON.stringify(name)} in this agency.`, { hint });
}

/** A `<company>` value and where it came from ("--company #2", "ids.txt line 3"), for messages. */
export interface CompanyEntry {
  value: string;
  where: string;
}

/**
 * The lines of a file of companies: ids or exact names, one per line, whitespace trimmed, blank and `#`
 * lines skipped. Only a line's first tab-separated field counts, so `agency companies list` output feeds it.
 */
export function companyFileEntries(text: string, source: string): CompanyEntry[] {
  const entries: CompanyEntry[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((line, index) => {
      const value = line.split('\t')[0]?.trim() ?? '';
      if (value !== '' && !value.startsWith('#'))
        entries.push({ value, where: inputLine(source, index + 1) });
    });
  return entries;
}

/** What to do with a company given twice: act on it once, or refuse the run (nothing is sent). */
export type Repeats = 'once' | 'refuse';

/** A checked `<company>` value and where it came from. */
export interface SourcedRef {
  ref: CompanyRef;
  where: string;
}

/**
 * Every value checked locally, before any request; every problem (and with `refuse`, every value given
 * twice) reported at once as one usage error.
 */
export function parseCompanyEntries(entries: readonly CompanyEntry[], repeats: Repeats): SourcedRef[] {
  const problems: string[] = [];
  const refs: SourcedRef[] = [];
  const given = new Map<string, string>();
  for (const { value, where } of entries) {
    try {
      const ref = parseCompanyRef(value, where);
      const key = ref.id !== undefined ? `Company ${ref.id}` : `Company ${JSON.stringify(ref.name)}`;
      const first = given.get(key);
      if (first !== undefined && repeats === 'refuse')
        problems.push(`${key} is given twice (${first} and ${where}).`);
      given.set(key, first ?? where);
      refs.push({ ref, where });
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  throwProblems(problems);
  return refs;
}

/**
 * Several `<company>` values → companies, in the order given. Every value is checked before any request
 * (parseCompanyEntries); names share one listing, and every name that matches no company is reported at
 * once (exit 4).
 */
export async function resolveCompanies(
  entries: readonly CompanyEntry[],
  directory: CompanyDirectory,
  repeats: Repeats,
): Promise<ResolvedCompany[]> {
  const refs = parseCompanyEntries(entries, repeats);
  // One listing for every name, stopping at the page that holds the last of them.
  await directory.seek(refs.flatMap(({ ref }) => (ref.name === undefined ? [] : [ref.name])));
  const problems: string[] = [];
  const companies: ResolvedCompany[] = [];
  const reached = new Map<string, string>();
  const missing: CompanyNotFoundError[] = [];
  for (const { ref, where } of refs) {
    let resolved: ResolvedCompany;
    try {
      resolved = await directory.resolve(ref);
    } catch (error) {
      if (!(error instanceof CompanyNotFoundError)) throw error;
      missing.push(error);
      continue;
    }
    const first = reached.get(idKey(resolved.id));
    if (first === undefined) {
      reached.set(idKey(resolved.id), where);
      companies.push(resolved);
    } else if (repeats === 'refuse') {
      problems.push(`Company ${resolved.id} is given twice (${first} and ${where}).`);
    }
  }
  if (missing.length === 1) throw missing[0];
  if (missing.length > 1) {
    const lines = missing.map((error) => (error.hintText ? `${error.text} ${error.hintText}` : error.text));
    throw new CompanyNotFoundError(`${missing.length} companies not found:\n  ${lines.join('\n  ')}`);
  }
  throwProblems(problems);
  return companies;
}

function throwProblems(problems: readonly string[]): void {
  if (problems.length === 0) return;
  throw new UsageError(
    problems.length === 1
      ? (problems[0] as string)
      : `${problems.length} problems:\n  ${problems.join('\n  ')}`,
    { hint: 'Nothing was sent.' },
  );
}

/** The id a parsed `<company>` stands for: an id as it is, a name through a listing. */
export async function companyIdFor(api: CompanyLister, ref: CompanyRef): Promise<number> {
  if (ref.id !== undefined) return ref.id;
  return (await new CompanyDirectory(api).resolve(ref)).id;
}

/** An optional `--company`: parsed now, so a bad value fails before any request is made. */
export function parseOptionalCompanyRef(value: string | undefined): CompanyRef | undefined {
  return value === undefined ? undefined : parseCompanyRef(value, option('company'));
}

/** The id for an optional `--company` (undefined: the key's own account). */
export async function optionalCompanyIdFor(
  api: CompanyLister,
  ref: CompanyRef | undefined,
): Promise<number | undefined> {
  return ref === undefined ? undefined : companyIdFor(api, ref);
}
