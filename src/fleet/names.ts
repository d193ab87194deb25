/**
 * The one rule for which company names exist (contract, "Which names exist"): a company has a name
 * when its name equals that name after trimming surrounding whitespace. Case and inner spacing count,
 * as in the service's own duplicate rule, so a dry run, a plan and the real run always agree.
 * A name that differs only in case or spacing is a look-alike: a warning, never a match.
 */

export interface NamedCompany {
  id: number;
  name: string;
}

/** The form two names are compared in to decide that they are the same name. */
export function exactName(name: string): string {
  return name.trim();
}

/**
 * The form in which look-alikes meet: case, compatibility forms and all whitespace folded away.
 * Used for warnings and suggestions, and to refuse two such names within one input (the safe side
 * if the service folds case) — never to decide that a company exists.
 */
export function looseName(name: string): string {
  return name.normalize('NFKC').toLocaleLowerCase('en').replace(/\s+/g, '');
}

/** The companies of the agency indexed by both forms; built once per run from one listing. */
export class NameIndex<C extends NamedCompany> {
  readonly #exact = new Map<string, C[]>();
  readonly #loose = new Map<string, C[]>();

  constructor(readonly companies: readonly C[]) {
    for (const company of companies) {
      push(this.#exact, exactName(company.name), company);
      push(this.#loose, looseName(company.name), company);
    }
  }

  /** Every company that has this name (normally at most one: the service refuses equal names). */
  exact(name: string): C[] {
    return this.#exact.get(exactName(name)) ?? [];
  }

  /** The company that has this name; with several, the oldest (lowest id). */
  find(name: string): C | undefined {
    return oldest(this.exact(name));
  }

  /** Companies whose names differ from this one only in case or spacing (never an exact match). */
  lookalikes(name: string): C[] {
    const exact = exactName(name);
    return (this.#loose.get(looseName(name)) ?? []).filter((c) => exactName(c.name) !== exact);
  }
}

/** `looks like "Acme Ltd" (id 1001)` — or several, joined with "or". */
function looksLike(companies: readonly NamedCompany[]): string {
  return `looks like ${companies.map(describeCompany).join(' or ')}`;
}

/** `"acme ltd" looks like "Acme Ltd" (id 1001)`: why a create is refused. */
export function looksLikeLine(name: string, companies: readonly NamedCompany[]): string {
  return `${JSON.stringify(name)} ${looksLike(companies)}`;
}

/** The warning for a name that is not an existing company but resembles some. */
export function lookalikeWarning(name: string, companies: readonly NamedCompany[]): string {
  return `${JSON.stringify(name)} is not an existing company name, but it ${looksLike(companies)}; names must match exactly (case and spacing count).`;
}

/**
 * `for "Acme Ltd"`: how every line of `plan` and `apply` names the company a change is for (a key, a
 * webhook added or unmanaged, a guest), one preposition for all of them.
 */
export function forCompany(name: string): string {
  return `for ${JSON.stringify(name)}`;
}

/** `"Acme Ltd" (id 1001)` */
export function describeCompany(company: NamedCompany): string {
  return `${JSON.stringify(company.name)} (id ${company.id})`;
}

export interface SourcedName {
  name: string;
  /** Where the name came from, e.g. "names.txt line 4" or "--name #2". */
  where: string;
}

/**
 * Groups of names within one input that differ only in case or spacing (exact copies included),
 * in the order of their first appearance. Each group has at least two entries.
 */
export function duplicateNames<T extends SourcedName>(entries: readonly T[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const entry of entries) push(groups, looseName(entry.name), entry);
  return [...groups.values()].filter((group) => group.length > 1);
}

/** `Duplicate company name: "Acme" (line 3), "ACME" (line 9).` */
export function duplicateMessage(group: readonly SourcedName[]): string {
  return `Duplicate company name: ${group.map((e) => `${JSON.stringify(e.name)} (${e.where})`).join(', ')}.`;
}

function oldest<C extends NamedCompany>(companies: readonly C[]): C | undefined {
  let best: C | undefined;
  for (const c of companies) if (!best || c.id < best.id) best = c;
  return best;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
