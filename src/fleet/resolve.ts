/**
 * `<company>` as the user gives it: a numeric id, or an exact company name resolved through one
 * listing of the companies per run (cached), never guessed.
 */
import { collect, paginate, paginateSearch } from '../api/paginate.js';
import type { Company } from '../api/types.js';
import { AgencyError, ExitCode, UsageError } from '../errors.js';
import { describeCompany, NameIndex } from './names.js';
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
  const id = Number(text);
  if (!Number.isSafeInteger(id)) throw invalid('the number is too large');
  return { id };
}

/** A name that no company has. Exit 4, like the service's 404 for an unknown company id. */
export class CompanyNotFoundError extends AgencyError {
  readonly exitCode = ExitCode.notFound;
}

/** Two companies share the name exactly; the tool never picks one for the user. */
export class AmbiguousCompanyError extends AgencyError {
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
    this.#companies ??= collect(paginate((page) => this.api.listCompaniesPage(page)));
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
    const missing = new Set(ids);
    const found = new Map<number, Company>();
    const take = (company: Company) => {
      if (!missing.delete(company.id)) return;
      found.set(company.id, company);
    };
    if (this.listed) {
      for (const company of await this.all()) take(company);
    } else {
      for await (const company of paginateSearch((page) => this.api.listCompaniesPage(page))) {
        take(company);
        if (missing.size === 0) break;
      }
    }
    if (missing.size > 0) {
      throw new CompanyNotFoundError(`No company with id ${[...missing].join(', ')} in this agency.`, {
        hint: 'See the ids with: agency companies list',
      });
    }
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  /** Whether the listing has been (or is being) read, so an id can be matched to its record for free. */
  get listed(): boolean {
    return this.#companies !== undefined;
  }

  async resolve(ref: CompanyRef): Promise<ResolvedCompany> {
    if (ref.id !== undefined) {
      const company = this.listed ? (await this.all()).find((c) => c.id === ref.id) : undefined;
      return { id: ref.id, company };
    }
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
    : 'See the names with: agency companies list';
  return new CompanyNotFoundError(`No company named ${JSON.stringify(name)} in this agency.`, { hint });
}

/**
 * Several `<company>` values → ids in the same order: every value is checked before any request, and
 * the names share one listing. Each entry says where it came from, for messages.
 */
export async function companyIdsOf(
  api: CompanyLister,
  entries: readonly { value: string; where: string }[],
): Promise<number[]> {
  const refs: CompanyRef[] = [];
  const problems: string[] = [];
  for (const { value, where } of entries) {
    try {
      refs.push(parseCompanyRef(value, where));
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (problems.length > 0) {
    throw new UsageError(
      problems.length === 1
        ? (problems[0] as string)
        : `${problems.length} problems:\n  ${problems.join('\n  ')}`,
      { hint: 'Nothing was sent.' },
    );
  }
  const directory = new CompanyDirectory(api);
  const ids: number[] = [];
  for (const ref of refs) ids.push((await directory.resolve(ref)).id);
  return ids;
}

/** The id a parsed `<company>` stands for: an id as it is, a name through a listing. */
export async function companyIdFor(api: CompanyLister, ref: CompanyRef): Promise<number> {
  if (ref.id !== undefined) return ref.id;
  return (await new CompanyDirectory(api).resolve(ref)).id;
}

/** An optional `--company`: parsed now, so a bad value fails before any request is made. */
export function parseOptionalCompanyRef(value: string | undefined): CompanyRef | undefined {
  return value === undefined ? undefined : parseCompanyRef(value, '--company');
}

/** The id for an optional `--company` (undefined: the key's own account). */
export async function optionalCompanyIdFor(
  api: CompanyLister,
  ref: CompanyRef | undefined,
): Promise<number | undefined> {
  return ref === undefined ? undefined : companyIdFor(api, ref);
}
