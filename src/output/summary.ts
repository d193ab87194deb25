/**
 * Messages that fit a screen and tell the truth: counts that say what was left out, long lists cut
 * to what a person can read (the whole list stays available with --json), failures grouped by reason.
 * Pure text; the writer decides where it goes.
 */

/** At most this many names or ids in a message; then "and N more". */
export const MAX_LISTED = 20;

/** The nouns messages count, singular and plural. */
export const NOUNS = {
  company: ['company', 'companies'],
  client: ['client', 'clients'],
  key: ['key', 'keys'],
  guest: ['guest', 'guests'],
  change: ['change', 'changes'],
  account: ['account', 'accounts'],
  campaign: ['campaign', 'campaigns'],
} as const satisfies Record<string, readonly [string, string]>;

/** "1 company", "2 companies": a count with its noun in the right form. */
export function plural(count: number, noun: readonly [string, string]): string {
  return `${count} ${count === 1 ? noun[0] : noun[1]}`;
}

/** "1 exists", "2 exist". */
export function exists(count: number): string {
  return `${count} ${count === 1 ? 'exists' : 'exist'}`;
}

/**
 * One line per item, indented, at most `max` of them, then "and N more" — what a refusal or a skip
 * lists under its sentence.
 */
export function listLines(items: readonly string[], max = MAX_LISTED, indent = '  '): string[] {
  // Showing 20 and "and 1 more" would hide a line to save none.
  const shown = items.length <= max + 1 ? items : items.slice(0, max);
  const lines = shown.map((item) => indent + item);
  if (shown.length < items.length) lines.push(`${indent}and ${items.length - shown.length} more`);
  return lines;
}

/** "1001, 1003, 1004 and 82 more": a short list on one line. */
export function inlineList(items: readonly (string | number)[], max = MAX_LISTED): string {
  const shown = items.length <= max + 1 ? items : items.slice(0, max);
  const text = shown.join(', ');
  return shown.length < items.length ? `${text} and ${items.length - shown.length} more` : text;
}

/**
 * Where the rows a run printed are, for the message that ends it: "above" on a terminal; a pipe's or a
 * file's reader sees no "above".
 */
export function listedWhere(stdoutIsTTY: boolean): string {
  return stdoutIsTTY ? 'listed above' : 'listed on stdout';
}

export interface CountFacts {
  /** Items printed. */
  shown: number;
  noun: readonly [string, string];
  /** How many the service says there are in all (pagination_data.total_elements), when known. */
  total?: number | undefined;
  /** --limit, when given. */
  limit?: number | undefined;
  /** --page and the number of pages, when one page was asked for. */
  page?: number | undefined;
  totalPages?: number | undefined;
  /** --search text, when the list was filtered. */
  search?: string | undefined;
  /** How many were read before filtering (with --search). */
  read?: number | undefined;
}

/** What a command knows about a list beyond its length (the writer adds how many it shows). */
export type CountContext = Omit<CountFacts, 'shown' | 'noun'>;

/**
 * The count under a table, saying what the table does not show:
 * "123 companies", "8 of 123 companies (--limit 8)", "24 companies (page 4 of 4)",
 * "3 of 123 companies match "acme"", "first 2 companies matching "acme" (--limit 2)".
 */
export function countLine(facts: CountFacts): string {
  const { shown, noun, total, limit, page, totalPages, search, read } = facts;
  if (search !== undefined) {
    // Stopped at --limit: how many more match is not known (the rest was not read).
    if (limit !== undefined && shown >= limit) {
      return `first ${plural(shown, noun)} matching ${JSON.stringify(search)} (--limit ${limit})`;
    }
    const of = read !== undefined ? ` of ${read}` : '';
    const verb = shown === 1 ? 'matches' : 'match';
    return `${shown}${of} ${noun[shown === 1 && of === '' ? 0 : 1]} ${verb} ${JSON.stringify(search)}`;
  }
  if (page !== undefined) {
    const pages = totalPages !== undefined ? `page ${page} of ${totalPages}` : `page ${page}`;
    const all = total !== undefined && total !== shown ? `; ${total} in all` : '';
    return `${plural(shown, noun)} (${pages}${all})`;
  }
  if (limit !== undefined && shown >= limit && total !== shown) {
    const of = total !== undefined ? ` of ${total}` : '';
    return `${shown}${of} ${noun[shown === 1 && of === '' ? 0 : 1]} (--limit ${limit})`;
  }
  return plural(shown, noun);
}

export interface Failure {
  /** What failed: a company id (or name). */
  subject: string | number;
  /** The reason as the reader should see it; failures with the same reason are grouped. */
  reason: string;
}

/**
 * Failures grouped by reason, the commonest first:
 * "85 failed: 403 Forbidden — no access to these companies" followed by the subjects on one line.
 */
export function groupFailures(failures: readonly Failure[], max = MAX_LISTED): string[] {
  const groups = new Map<string, { count: number; subjects: Set<string | number> }>();
  for (const f of failures) {
    const group = groups.get(f.reason) ?? { count: 0, subjects: new Set() };
    group.count += 1;
    // Two events of one company fail alike: the company is named once.
    group.subjects.add(f.subject);
    groups.set(f.reason, group);
  }
  return [...groups]
    .sort((a, b) => b[1].count - a[1].count)
    .flatMap(([reason, { count, subjects }]) => [
      `${count} failed: ${reason}`,
      `  ${subjectList([...subjects], max)}`,
    ]);
}

/**
 * The subjects under a reason: ids are companies' and say so ("companies 1007, 1014"), where a bare
 * number on its own line read like a count; a name or "this account" speaks for itself.
 */
function subjectList(subjects: readonly (string | number)[], max: number): string {
  const list = inlineList(subjects, max);
  if (!subjects.every((subject) => typeof subject === 'number')) return list;
  return `${subjects.length === 1 ? 'company' : 'companies'} ${list}`;
}

/** Words for the statuses a fleet run meets per company; other failures keep their own message. */
const STATUS_REASONS: Record<number, string> = {
  401: '401 Unauthorized — the key was refused',
  403: '403 Forbidden — no access to these companies',
  404: '404 Not Found — not companies of this agency',
  409: '409 Conflict — inactive, or a limit of the service reached',
  429: '429 Too Many Requests — the service stayed busy',
};

/**
 * The reason a row failed, worded so that rows failing the same way group together: by status where
 * the status says it all (each 403 names its own company; the reason is the same), else the message,
 * with the company's own id taken out (the companies are listed under the reason), so that 247
 * companies the network failed alike read as one reason, not 247.
 */
export function failureReason(error: { status: number | null; message: string }): string {
  // A 409 has several causes (an inactive company, a limit of the service): the service's words say
  // which.
  const detail = serviceDetail(error.message);
  if (error.status === 409 && detail) return `409 Conflict — ${withoutCompanyId(detail).replace(/\.$/, '')}`;
  if (error.status !== null && STATUS_REASONS[error.status]) return STATUS_REASONS[error.status] as string;
  const reason = error.status === null ? error.message : `${error.status} — ${error.message}`;
  return withoutCompanyId(reason);
}

/** "list the webhooks of company 1005", "/companies/1005/api_keys": the same words for every company. */
function withoutCompanyId(text: string): string {
  return text
    .replace(/\b(the |a )?(c|C)ompany \d+\b/g, (_, article: string | undefined, c: string) =>
      c === 'C' ? 'Company' : `${article ?? 'the '}company`,
    )
    .replace(/\/companies\/\d+\//g, '/companies/{id}/');
}

/**
 * The service's own words at the end of a message ("... answered 409 E_WRONG_PARAM — Company 1007 is
 * inactive" → "Company 1007 is inactive"): the short reason a table cell shows; else undefined.
 */
export function serviceDetail(message: string): string | undefined {
  const at = message.lastIndexOf(' — ');
  const detail = at < 0 ? '' : message.slice(at + 3).trim();
  return detail === '' ? undefined : detail;
}

interface Paged {
  pagination_data?: { total_elements?: number | undefined; total_pages: number } | undefined;
}

/**
 * A page fetcher that remembers what the last page it read said about the whole list, for the count
 * under a table ("8 of 123 companies (--limit 8)", "page 3 of 3").
 */
export function pageFacts<P extends Paged>(
  fetch: (page: number) => Promise<P>,
): {
  fetch: (page: number) => Promise<P>;
  facts: (opts: { limit?: number | undefined; page?: number | undefined }) => CountContext;
} {
  let total: number | undefined;
  let totalPages: number | undefined;
  return {
    fetch: async (page) => {
      const result = await fetch(page);
      total = result.pagination_data?.total_elements ?? total;
      totalPages = result.pagination_data?.total_pages ?? totalPages;
      return result;
    },
    facts: ({ limit, page }) => ({ total, totalPages, limit, page }),
  };
}
