/**
 * Creating many companies without ever half-doing it or inventing a creation: check the names against
 * the agency first (always: one listing), send chunks of 10 in order, and after an answer that was lost find
 * out from the company list what the lost request did. A client and a signal in, results out: no
 * output of its own besides the notes it is given, so tests drive it with a fake client.
 */
import { MAX_COMPANIES_PER_REQUEST } from '../api/resources/companies.js';
import type { Company, CreatedCompany } from '../api/types.js';
import { AgencyError, ApiError, ExitCode, InterruptedError } from '../errors.js';
import type { Progress } from '../output/progress.js';
import { listLines, MAX_LISTED } from '../output/summary.js';
import { command, option } from '../terms.js';
import { fetchAllCompanies } from './all-companies.js';
import { answerMayBeLost } from './lost-answer.js';
import { exactName, looksLikeLine, NameIndex } from './names.js';
import type { CompanyCreator, CompanyLister } from './ports.js';

/** What to do when a name exists already, whoever found it (the tool's check or the service). */
const SKIP_EXISTING_HINT = `Use ${option('skip-existing')} to create only the missing names.`;
/** What to do about a look-alike (a company cannot be renamed or deleted afterwards). */
const LOOKALIKE_HINT = `Companies cannot be renamed or deleted: use the existing name exactly, or add ${option('allow-similar')} to create it anyway.`;

export interface CreationPlan {
  toCreate: string[];
  /** Names that exist exactly (the one rule of names.ts), with the company that has each. */
  existing: { name: string; company: Company }[];
  /**
   * Names to create that differ from existing companies only in case or spacing: the create is refused
   * unless --allow-similar (the service can neither rename nor delete a company).
   */
  lookalikes: { name: string; companies: Company[] }[];
  /**
   * Ids of every company seen by the check before any request. After a lost answer, a company with one
   * of our names and an id outside this set is one that the lost request created.
   */
  seenIds: Set<number>;
}

/** How the run stopped early, for the final report. */
interface ChunkFailure {
  index: number;
  error: unknown;
  /** Names of the failed chunk whose fate the tool could not learn (the check after it failed). */
  unknown: string[];
}

export interface BulkResult {
  chunks: string[][];
  created: CreatedCompany[];
  failure: ChunkFailure | undefined;
}

/** Messages for the person watching; the caller decides where they go. */
export interface BulkNotes {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * Every create reads the whole company list first (one listing, whatever the number of names): it finds
 * the names that exist and their look-alikes before anything is sent, so that chunks of 10 cannot
 * half-succeed on a clash, and a lost answer is settled exactly (a company seen now and not before was
 * created by the request).
 */
export async function planCreation(api: CompanyLister, names: string[]): Promise<CreationPlan> {
  const all = await fetchAllCompanies(api);
  const index = new NameIndex(all);
  const plan: CreationPlan = {
    toCreate: [],
    existing: [],
    lookalikes: [],
    seenIds: new Set(all.map((c) => c.id)),
  };
  for (const name of names) {
    const company = index.find(name);
    if (company) {
      plan.existing.push({ name, company });
      continue;
    }
    plan.toCreate.push(name);
    const lookalikes = index.lookalikes(name);
    if (lookalikes.length > 0) plan.lookalikes.push({ name, companies: lookalikes });
  }
  return plan;
}

/** Requests the plan needs (0 when an existing name or a look-alike makes the real run refuse). */
export function requestsFor(
  plan: CreationPlan,
  escapes: { skipExisting: boolean; allowSimilar: boolean },
): number {
  const refused =
    (plan.existing.length > 0 && !escapes.skipExisting) ||
    (plan.lookalikes.length > 0 && !escapes.allowSimilar);
  return refused ? 0 : Math.ceil(plan.toCreate.length / MAX_COMPANIES_PER_REQUEST);
}

/**
 * Sends the plan's names in chunks of 10, in order, and stops at the first chunk that failed (or on
 * Ctrl-C: no new request starts). `writes` should not abort a POST in flight, so that its outcome is
 * learnt; `reads` serves the check after a lost answer.
 */
export async function createInChunks(
  clients: { reads: CompanyLister; writes: CompanyCreator },
  plan: CreationPlan,
  run: {
    signal: AbortSignal;
    notes: BulkNotes;
    progress?: Progress | undefined;
    /** Each chunk's companies as soon as they are known to exist (to print them then). */
    onCreated?: ((companies: readonly CreatedCompany[]) => void) | undefined;
  },
): Promise<BulkResult> {
  const chunks = chunk(plan.toCreate, MAX_COMPANIES_PER_REQUEST);
  const created: CreatedCompany[] = [];
  const { progress } = run;
  let failure: ChunkFailure | undefined;
  for (const [index, names] of chunks.entries()) {
    if (run.signal.aborted) {
      failure = { index, error: new InterruptedError(), unknown: [] };
      break;
    }
    try {
      const companies = await clients.writes.createCompanies(names);
      created.push(...companies);
      run.onCreated?.(companies);
      progress?.update(undefined, created.length);
    } catch (error) {
      if (!(error instanceof AgencyError)) throw error;
      progress?.done();
      if (!answerMayBeLost(error)) {
        failure = { index, error, unknown: [] };
        break;
      }
      const found = await reconcileChunk(clients.reads, names, plan, run.notes);
      if (found === undefined) {
        failure = { index, error, unknown: names };
        break;
      }
      created.push(...found);
      run.onCreated?.(found);
      // The service applies a request all or nothing: only a whole chunk found lets the run go on.
      if (found.length < names.length) {
        failure = { index, error, unknown: [] };
        break;
      }
      run.notes.warn(
        `The answer to request ${index + 1} of ${chunks.length} was lost (${error.message}), ` +
          `but all ${names.length} of its companies exist now: counted as created.`,
      );
    }
  }
  progress?.done();
  return { chunks, created, failure };
}

/**
 * After a POST whose answer was lost, asks the service which of the chunk's names exist now, so the
 * report says what happened instead of "maybe". Returns the chunk's companies that exist now and did
 * not before, in the chunk's order; undefined when the check itself failed.
 */
async function reconcileChunk(
  api: CompanyLister,
  names: string[],
  plan: CreationPlan,
  notes: BulkNotes,
): Promise<CreatedCompany[] | undefined> {
  notes.info('The answer to a creation request was lost or failed; checking which companies exist now…');
  let now: Company[];
  try {
    now = await fetchAllCompanies(api);
  } catch (error) {
    notes.warn(`The check failed: ${(error as Error).message}`);
    return undefined;
  }
  const byName = new Map<string, Company>();
  for (const company of now) {
    // A company seen before the request is never one that it created.
    if (plan.seenIds.has(company.id)) continue;
    // With several exact matches (someone else created a twin meanwhile), the newest is ours.
    const key = exactName(company.name);
    const other = byName.get(key);
    if (!other || other.id < company.id) byName.set(key, company);
  }
  const found: CreatedCompany[] = [];
  for (const name of names) {
    const company = byName.get(exactName(name));
    if (company)
      found.push({ id: company.id, name: company.name, owner: company.owner, active: company.active });
  }
  return found;
}

/**
 * Some names exist already and --skip-existing was not given: nothing is sent. The names are listed one
 * per line, at most `max` of them (all with --json, whose error object carries the message).
 */
export class NameClashError extends AgencyError {
  // A conflict with what exists (exit 5), not a failure of the service: nothing was sent.
  readonly exitCode = ExitCode.conflict;
  constructor(existing: CreationPlan['existing'], max = MAX_LISTED) {
    const count = existing.length;
    super(
      [
        `${count} of the names already ${count === 1 ? 'exists' : 'exist'}; nothing was created:`,
        ...listLines(describeExisting(existing), max),
      ].join('\n'),
      { hint: SKIP_EXISTING_HINT },
    );
  }
}

/**
 * Names that differ from existing companies only in case or inner spacing: the whole create is refused
 * (the service can neither rename nor delete a company), nothing sent, unless --allow-similar.
 */
export class LookalikeError extends AgencyError {
  readonly exitCode = ExitCode.conflict;
  constructor(lookalikes: CreationPlan['lookalikes'], max = MAX_LISTED) {
    const lines = lookalikes.map(({ name, companies }) => looksLikeLine(name, companies));
    const count = lookalikes.length;
    super(
      count === 1
        ? `${lines[0]}; nothing was created.`
        : [
            `${count} names look like existing companies; nothing was created:`,
            ...listLines(lines, max),
          ].join('\n'),
      { hint: LOOKALIKE_HINT },
    );
  }
}

/** `Acme Ltd (id 1001)`, one per existing name, for lists one per line. */
export function describeExisting(existing: CreationPlan['existing']): string[] {
  return existing.map((e) => `${e.name} (id ${e.company.id})`);
}

class BulkCreateError extends AgencyError {
  readonly exitCode;
  override readonly status: number | null;
  constructor(message: string, cause: unknown, hint: string | undefined) {
    const inner = cause instanceof AgencyError ? cause : undefined;
    super(message, { hint, cause, title: inner?.title, detail: inner?.detail });
    this.exitCode = inner ? inner.exitCode : ExitCode.failure;
    this.status = inner ? inner.status : null;
  }
}

/** The error of a run that stopped: what was created, what was not, and what is unknown, by name. */
export function chunkFailure(result: BulkResult, total: number): AgencyError {
  const { chunks, created, failure } = result;
  if (!failure) throw new Error('chunkFailure: the run did not fail');
  const { index, error, unknown } = failure;
  // The service refused the only request: all or nothing, so its error says everything. (A 5xx is
  // settled by the reading after it: that outcome is said by name below.)
  const nothingElse = created.length === 0 && unknown.length === 0;
  const refused = error instanceof ApiError && !answerMayBeLost(error);
  if (chunks.length === 1 && nothingElse && refused) return withSkipHint(error);
  const accounted = new Set([...created.map((c) => c.name), ...unknown].map(exactName));
  const notCreated = chunks
    .slice(index)
    .flat()
    .filter((name) => !accounted.has(exactName(name)));
  const list = (names: string[]) => names.map((name) => `\n    ${name}`).join('');
  const lines = [
    `Created ${created.length} of ${total}${created.length ? ' (listed on stdout)' : ''}.`,
    ...(unknown.length
      ? [
          `Unknown whether created (${unknown.length}) — check with \`${command('companies list')}\`:${list(unknown)}`,
        ]
      : []),
    ...(notCreated.length ? [`Not created (${notCreated.length}):${list(notCreated)}`] : []),
  ];
  const hint =
    created.length || unknown.length
      ? `Run the same command again with ${option('skip-existing')} to create the rest.`
      : error instanceof AgencyError
        ? error.hint
        : undefined;
  if (error instanceof InterruptedError)
    return new BulkCreateError(`Interrupted. ${lines.join('\n  ')}`, error, hint);
  const reason = error instanceof Error ? error.message : String(error);
  const failed =
    chunks.length > 1 ? `Request ${index + 1} of ${chunks.length} failed` : 'Creating the companies failed';
  return new BulkCreateError(`${failed}: ${reason}\n  ${lines.join('\n  ')}`, error, hint);
}

/**
 * A name created by someone else between the reading and the request is the service's refusal (400, or
 * 409 where it says so): that answer gets the same hint as the tool's own check.
 */
function withSkipHint(error: ApiError): ApiError {
  const words = `${error.title ?? ''} ${error.detail ?? ''} ${error.message}`;
  const duplicate = (error.status === 400 || error.status === 409) && /already exist|duplicate/i.test(words);
  if (!duplicate || error.hint !== undefined) return error;
  return new ApiError(error.message, {
    status: error.status,
    title: error.title,
    detail: error.detail,
    hint: SKIP_EXISTING_HINT,
  });
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}
