/** `companies list | create | email-accounts`. */
import { MAX_COMPANIES_PER_REQUEST } from '../api/client.js';
import { collect, paginate } from '../api/paginate.js';
import type { Company, CreatedCompany, EmailAccount } from '../api/types.js';
import type { Runtime } from '../cli.js';
import { AgencyError, ApiError, ExitCode, InterruptedError, UsageError } from '../errors.js';
import type { Column } from '../output/writer.js';
import { activeStyle, detail } from './columns.js';
import { readInput } from './input.js';
import { nameKey, parseCompanyId, parseNameLines, parsePositiveInt, validateNames } from './parse.js';
import { progressLine } from './progress.js';

export const companyColumns: Column<Company>[] = [
  { header: 'id', value: (c) => c.id },
  { header: 'name', value: (c) => c.name },
  { header: 'owner', value: (c) => c.owner },
  { header: 'active', value: (c) => c.active, style: activeStyle },
  { header: 'campaigns', value: (c) => c.running_campaigns },
  { header: 'email slots', value: (c) => c.email_slots },
  { header: 'linkedin slots', value: (c) => c.linkedin_slots },
];

export interface ListOptions {
  active?: boolean | undefined;
  inactive?: boolean | undefined;
  page?: string | undefined;
  limit?: string | undefined;
}

export async function listCompanies(rt: Runtime, opts: ListOptions): Promise<void> {
  const page = opts.page === undefined ? undefined : parsePositiveInt(opts.page, '--page');
  const limit = opts.limit === undefined ? undefined : parsePositiveInt(opts.limit, '--limit');
  const active = opts.active ? true : opts.inactive ? false : undefined;
  const api = rt.api();
  const progress = progressLine(rt.ctx, 'companies');
  const companies = await collect(
    paginate((p) => api.listCompaniesPage(p, active), { page, limit, onPage: progress.update }),
  ).finally(progress.done);
  const filter = active === undefined ? '' : active ? 'active ' : 'inactive ';
  await rt.ctx.out.list(companies, companyColumns, {
    empty: emptyCompanies(filter, page),
    noun: ['company', 'companies'],
  });
}

function emptyCompanies(filter: string, page: number | undefined): string {
  if (page !== undefined) return `No ${filter}companies on page ${page}.`;
  if (filter) return `No ${filter}companies.`;
  return 'No companies yet — create one with: agency companies create --name "Acme Ltd"';
}

/** Every company of the agency, all pages, one request at a time. */
export function fetchAllCompanies(rt: Runtime, active?: boolean): Promise<Company[]> {
  const api = rt.api();
  return collect(paginate((p) => api.listCompaniesPage(p, active)));
}

export async function listEmailAccounts(rt: Runtime, company: string): Promise<void> {
  const id = parseCompanyId(company);
  const accounts = await rt.api().emailAccounts(id);
  const columns: Column<EmailAccount>[] = [
    { header: 'id', value: (a) => a.id },
    { header: 'type', value: (a) => a.type },
    { header: 'email', value: (a) => detail(a, 'email') },
    { header: 'provider', value: (a) => detail(a, 'provider') },
    { header: 'from name', value: (a) => detail(a, 'from_name') },
    { header: 'campaigns', value: (a) => detail(a, 'running_campaigns') },
    { header: 'error', value: (a) => detail(a, 'error') },
  ];
  await rt.ctx.out.list(accounts, columns, {
    empty: `Company ${id} has no email accounts.`,
    noun: ['email account', 'email accounts'],
  });
}

// ---------------------------------------------------------------------------------------------
// Creation

export interface CreateOptions {
  name?: string[] | undefined;
  file?: string | undefined;
  skipExisting?: boolean | undefined;
  dryRun?: boolean | undefined;
  withKeys?: boolean | undefined;
}

type CreatedRow = CreatedCompany & { api_key?: string };

interface Plan {
  toCreate: string[];
  existing: { name: string; company: Company }[];
  /**
   * Ids of every company seen by the check (needed for >10 names, --skip-existing and --dry-run);
   * undefined when nothing was checked. After a lost answer, a company with one of our names and an
   * id outside this set is one that the lost request created.
   */
  seenIds: Set<number> | undefined;
}

/** How one chunk ended, for the final report. */
interface ChunkFailure {
  index: number;
  error: unknown;
  /** Names of the failed chunk whose fate the tool could not learn. */
  unknown: string[];
}

export async function createCompanies(rt: Runtime, opts: CreateOptions): Promise<void> {
  const { out } = rt.ctx;
  const names = await readNames(rt, opts);
  const plan = await planCreation(rt, names, opts);

  if (opts.dryRun) return printPlan(rt, plan, opts);

  if (plan.existing.length > 0 && !opts.skipExisting) {
    throw new NameClashError(
      `${plan.existing.length} of the names already exist: ${plan.existing
        .map((e) => `${JSON.stringify(e.name)} (id ${e.company.id})`)
        .join(', ')}. Nothing was created.`,
    );
  }
  if (plan.existing.length > 0) {
    out.info(
      `Skipping ${plan.existing.length} existing: ${plan.existing
        .map((e) => `${JSON.stringify(e.name)} (id ${e.company.id})`)
        .join(', ')}`,
    );
  }
  if (plan.toCreate.length === 0) {
    out.info('Nothing to create: every name exists already.');
    await printCreated(rt, [], opts);
    return;
  }

  const chunks = chunk(plan.toCreate, MAX_COMPANIES_PER_REQUEST);
  // Ctrl-C does not abort a POST in flight: its outcome must be known to be reported. No new one starts.
  const api = rt.api({ interruptible: false });
  const created: CreatedRow[] = [];
  const progress = chunks.length > 1 ? progressLine(rt.ctx, 'companies created') : undefined;
  let failure: ChunkFailure | undefined;
  for (const [index, names] of chunks.entries()) {
    if (rt.ctx.signal.aborted) {
      failure = { index, error: new InterruptedError(), unknown: [] };
      break;
    }
    try {
      created.push(...(await api.createCompanies(names)));
      progress?.update(undefined, created.length);
    } catch (error) {
      if (!(error instanceof AgencyError)) throw error;
      progress?.done();
      if (!answerMayBeLost(error)) {
        failure = { index, error, unknown: [] };
        break;
      }
      let found = await reconcileChunk(rt, names, plan);
      // Unchecked names (10 or fewer) may have existed before; all-or-nothing says a part is not ours.
      if (found && plan.seenIds === undefined && found.length < names.length) found = [];
      if (found === undefined) {
        failure = { index, error, unknown: names };
        break;
      }
      created.push(...found);
      // The service applies a request all or nothing: only a whole chunk found lets the run go on.
      if (found.length < names.length) {
        failure = { index, error, unknown: [] };
        break;
      }
      out.warn(
        `The answer to request ${index + 1} of ${chunks.length} was lost (${error.message}), ` +
          `but all ${names.length} of its companies exist now: counted as created.`,
      );
    }
  }
  progress?.done();

  if (failure) {
    // The contract: on a partial failure, stdout carries exactly what was created.
    if (created.length > 0) await printCreated(rt, created, opts);
    throw chunkFailure(failure, chunks, created, plan.toCreate.length);
  }
  await printCreated(rt, created, opts);
  out.success(`Created ${created.length} compan${created.length === 1 ? 'y' : 'ies'}.`);
}

async function readNames(rt: Runtime, opts: CreateOptions): Promise<string[]> {
  const entries = (opts.name ?? []).map((name, i) => ({ name, where: `--name #${i + 1}` }));
  if (opts.file !== undefined) {
    const { text, source } = await readInput(rt.ctx, opts.file);
    entries.push(...parseNameLines(text, source));
  }
  if (entries.length === 0) {
    throw new UsageError('No company names given.', {
      hint: 'Use --name "Acme Ltd" (repeatable) or --file names.txt.',
    });
  }
  return validateNames(entries);
}

/**
 * Up to 10 names go in one request, which the service applies all-or-nothing. More than that, or
 * --skip-existing / --dry-run, first reads every existing company, so that a clash is found before
 * the first chunk is sent rather than after some chunks succeeded.
 */
async function planCreation(rt: Runtime, names: string[], opts: CreateOptions): Promise<Plan> {
  const needsCheck =
    names.length > MAX_COMPANIES_PER_REQUEST || opts.skipExisting === true || opts.dryRun === true;
  if (!needsCheck) return { toCreate: names, existing: [], seenIds: undefined };
  const all = await fetchAllCompanies(rt);
  const byKey = new Map<string, Company>();
  for (const company of all) byKey.set(nameKey(company.name), company);
  const plan: Plan = { toCreate: [], existing: [], seenIds: new Set(all.map((c) => c.id)) };
  for (const name of names) {
    const company = byKey.get(nameKey(name));
    if (company) plan.existing.push({ name, company });
    else plan.toCreate.push(name);
  }
  return plan;
}

async function printPlan(rt: Runtime, plan: Plan, opts: CreateOptions): Promise<void> {
  // Without --skip-existing, one existing name makes the real run create nothing.
  const refused = plan.existing.length > 0 && !opts.skipExisting;
  const requests = refused ? 0 : Math.ceil(plan.toCreate.length / MAX_COMPANIES_PER_REQUEST);
  const { out } = rt.ctx;
  if (out.json) {
    out.jsonValue({
      dry_run: true,
      refused,
      requests,
      to_create: plan.toCreate,
      existing: plan.existing.map((e) => ({ name: e.name, id: e.company.id })),
    });
  } else {
    type Row = { action: string; name: string; id?: number };
    const rows: Row[] = [
      ...plan.toCreate.map((name) => ({ action: 'create', name })),
      ...plan.existing.map((e) => ({ action: 'exists', name: e.name, id: e.company.id })),
    ];
    await out.list(rows, [
      { header: 'action', value: (r) => r.action },
      { header: 'name', value: (r) => r.name },
      { header: 'id', value: (r) => r.id },
    ]);
  }
  const exist = `${plan.existing.length} exist already`;
  out.info(
    refused
      ? `Dry run: ${exist}, so the real run would create nothing` +
          (plan.toCreate.length > 0
            ? `; add --skip-existing to create the other ${plan.toCreate.length}. Nothing was sent.`
            : '. Nothing was sent.')
      : `Dry run: would create ${plan.toCreate.length} in ${requests} request${requests === 1 ? '' : 's'}; ` +
          `${exist}. Nothing was sent.`,
  );
}

async function printCreated(rt: Runtime, created: CreatedRow[], opts: CreateOptions): Promise<void> {
  if (opts.withKeys) await attachKeys(rt, created);
  const columns: Column<CreatedRow>[] = [
    { header: 'id', value: (c) => c.id },
    { header: 'name', value: (c) => c.name },
    { header: 'owner', value: (c) => c.owner },
    { header: 'active', value: (c) => c.active, style: activeStyle },
  ];
  if (opts.withKeys) columns.push({ header: 'api key', value: (c) => c.api_key });
  await rt.ctx.out.list(created, columns);
}

/**
 * The service gives each new company a key; the creator sees it in the company's key list. Never
 * throws: the created companies are printed whatever happens here.
 */
async function attachKeys(rt: Runtime, created: CreatedRow[]): Promise<void> {
  const api = rt.api();
  const missing: number[] = [];
  for (const company of created) {
    if (company.api_key !== undefined) continue;
    if (rt.ctx.signal.aborted) {
      missing.push(company.id);
      continue;
    }
    try {
      const page = await api.listKeysPage(company.id, 1);
      const key = page.content[0]?.api_key;
      if (key !== undefined) company.api_key = key;
      else missing.push(company.id);
    } catch (error) {
      if (!(error instanceof InterruptedError)) {
        rt.ctx.out.warn(`Could not read the key of company ${company.id}: ${(error as Error).message}`);
      }
      missing.push(company.id);
    }
  }
  if (missing.length > 0) {
    rt.ctx.out.warn(
      `No key shown for ${missing.length} new compan${missing.length === 1 ? 'y' : 'ies'} ` +
        `(${missing.join(', ')}); read it later with: agency keys list <company>`,
    );
  }
}

/**
 * A 4xx answer means the request was refused (nothing created). A network failure, an unreadable
 * body or a 5xx (a gateway may answer after the service did the work) leave the outcome open.
 */
function answerMayBeLost(error: AgencyError): boolean {
  if (error instanceof UsageError || error instanceof InterruptedError) return false;
  if (error instanceof ApiError) return error.status >= 500;
  return true;
}

/**
 * After a POST whose answer was lost, asks the service which of the chunk's names exist now, so the
 * report says what happened instead of "maybe". Returns the chunk's companies that exist now and did
 * not before, in the chunk's order; undefined when the check itself failed.
 */
async function reconcileChunk(rt: Runtime, names: string[], plan: Plan): Promise<CreatedRow[] | undefined> {
  const { out } = rt.ctx;
  out.info('The answer to a creation request was lost or failed; checking which companies exist now…');
  let now: Company[];
  try {
    now = await fetchAllCompanies(rt);
  } catch (error) {
    out.warn(`The check failed: ${(error as Error).message}`);
    return undefined;
  }
  const byKey = new Map<string, Company>();
  for (const company of now) {
    if (plan.seenIds?.has(company.id)) continue;
    // With several matches (someone else created a near twin), the newest is ours.
    const key = nameKey(company.name);
    const other = byKey.get(key);
    if (!other || other.id < company.id) byKey.set(key, company);
  }
  const found: CreatedRow[] = [];
  for (const name of names) {
    const company = byKey.get(nameKey(name));
    if (company)
      found.push({ id: company.id, name: company.name, owner: company.owner, active: company.active });
  }
  return found;
}

class NameClashError extends AgencyError {
  // The same exit code as the service's 400 for a duplicate name: nothing was created either way.
  readonly exitCode = ExitCode.failure;
  constructor(message: string) {
    super(message, { hint: 'Use --skip-existing to create only the missing names.' });
  }
}

class BulkCreateError extends AgencyError {
  readonly exitCode;
  override readonly status: number | null;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  constructor(message: string, cause: unknown, hint: string | undefined) {
    super(message, { hint, cause });
    const inner = cause as Partial<ApiError>;
    this.exitCode = cause instanceof AgencyError ? cause.exitCode : ExitCode.failure;
    this.status = cause instanceof AgencyError ? cause.status : null;
    this.title = inner.title;
    this.detail = inner.detail;
  }
}

/** The error of a run that stopped: what was created, what was not, and what is unknown, by name. */
function chunkFailure(
  failure: ChunkFailure,
  chunks: string[][],
  created: CreatedRow[],
  total: number,
): AgencyError {
  const { index, error, unknown } = failure;
  // The service refused the only request: all or nothing, so its error says everything.
  if (chunks.length === 1 && created.length === 0 && unknown.length === 0 && error instanceof ApiError) {
    return error;
  }
  const createdKeys = new Set(created.map((c) => nameKey(c.name)));
  const unknownKeys = new Set(unknown.map(nameKey));
  const notCreated = chunks
    .slice(index)
    .flat()
    .filter((name) => !createdKeys.has(nameKey(name)) && !unknownKeys.has(nameKey(name)));
  const list = (names: string[]) => names.map((name) => `\n    ${name}`).join('');
  const lines = [
    `Created ${created.length} of ${total}${created.length ? ' (listed on stdout)' : ''}.`,
    ...(unknown.length
      ? [
          `Unknown whether created (${unknown.length}) — check with \`agency companies list\`:${list(unknown)}`,
        ]
      : []),
    ...(notCreated.length ? [`Not created (${notCreated.length}):${list(notCreated)}`] : []),
  ];
  const hint =
    created.length || unknown.length
      ? 'Run the same command again with --skip-existing to create the rest.'
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

function chunk<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}
