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
  await rt.ctx.out.list(companies, companyColumns, emptyCompanies(filter, page));
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
  await rt.ctx.out.list(accounts, columns, `Company ${id} has no email accounts.`);
}

// ---------------------------------------------------------------------------------------------
// Creation

export interface CreateOptions {
  name: string[];
  file?: string | undefined;
  skipExisting?: boolean | undefined;
  dryRun?: boolean | undefined;
  withKeys?: boolean | undefined;
}

type CreatedRow = CreatedCompany & { api_key?: string };

interface Plan {
  toCreate: string[];
  existing: { name: string; company: Company }[];
  /** Whether the existing companies were fetched (needed for >10 names, --skip-existing and --dry-run). */
  checked: boolean;
}

export async function createCompanies(rt: Runtime, opts: CreateOptions): Promise<void> {
  const { out } = rt.ctx;
  const names = await readNames(rt, opts);
  const plan = await planCreation(rt, names, opts);

  if (opts.dryRun) return printPlan(rt, plan);

  if (plan.existing.length > 0 && !opts.skipExisting) {
    throw new NameClashError(
      `${plan.existing.length} of the names already exist: ${plan.existing
        .map((e) => `${JSON.stringify(e.name)} (id ${e.company.id})`)
        .join(', ')}. Nothing was created.`,
    );
  }
  if (plan.existing.length > 0) {
    out.info(`Skipping ${plan.existing.length} existing: ${plan.existing.map((e) => e.name).join(', ')}`);
  }
  if (plan.toCreate.length === 0) {
    out.info('Nothing to create: every name exists already.');
    await printCreated(rt, [], opts);
    return;
  }

  const chunks = chunk(plan.toCreate, MAX_COMPANIES_PER_REQUEST);
  const api = rt.api();
  const created: CreatedRow[] = [];
  const progress = chunks.length > 1 ? progressLine(rt.ctx, 'companies created') : undefined;
  for (const [index, names] of chunks.entries()) {
    try {
      if (rt.ctx.signal.aborted) throw new InterruptedError();
      created.push(...(await api.createCompanies(names)));
      progress?.update(undefined, created.length);
    } catch (error) {
      progress?.done();
      const reconciled = await reconcileChunk(rt, error, names, plan);
      created.push(...reconciled);
      // The contract: on a partial failure, stdout carries exactly what was created.
      if (created.length > 0) await printCreated(rt, created, opts).catch(() => undefined);
      throw chunkFailure(error, { index, chunks, created, reconciled, total: plan.toCreate.length });
    }
  }
  progress?.done();
  await printCreated(rt, created, opts);
  out.success(`Created ${created.length} compan${created.length === 1 ? 'y' : 'ies'}.`);
}

async function readNames(rt: Runtime, opts: CreateOptions): Promise<string[]> {
  const entries = opts.name.map((name, i) => ({ name, where: `--name #${i + 1}` }));
  if (opts.file !== undefined) {
    const { text, source } = await readInput(rt.ctx, opts.file);
    entries.push(...parseNameLines(text, source));
  }
  if (entries.length === 0) {
    throw new UsageError('No company names given.', { hint: 'Use --name "Acme Ltd" (repeatable) or --file names.txt.' });
  }
  return validateNames(entries);
}

/**
 * Up to 10 names go in one request, which the service applies all-or-nothing. More than that, or
 * --skip-existing / --dry-run, first reads every existing company, so that a clash is found before
 * the first chunk is sent rather than after some chunks succeeded.
 */
async function planCreation(rt: Runtime, names: string[], opts: CreateOptions): Promise<Plan> {
  const needsCheck = names.length > MAX_COMPANIES_PER_REQUEST || opts.skipExisting === true || opts.dryRun === true;
  if (!needsCheck) return { toCreate: names, existing: [], checked: false };
  const byKey = new Map<string, Company>();
  for (const company of await fetchAllCompanies(rt)) byKey.set(nameKey(company.name), company);
  const plan: Plan = { toCreate: [], existing: [], checked: true };
  for (const name of names) {
    const company = byKey.get(nameKey(name));
    if (company) plan.existing.push({ name, company });
    else plan.toCreate.push(name);
  }
  return plan;
}

async function printPlan(rt: Runtime, plan: Plan): Promise<void> {
  const requests = Math.ceil(plan.toCreate.length / MAX_COMPANIES_PER_REQUEST);
  const { out } = rt.ctx;
  if (out.json) {
    out.jsonValue({
      dry_run: true,
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
  out.info(
    `Dry run: would create ${plan.toCreate.length} in ${requests} request${requests === 1 ? '' : 's'}; ` +
      `${plan.existing.length} exist already. Nothing was sent.`,
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

/** The service gives each new company a key; the creator sees it in the company's key list. */
async function attachKeys(rt: Runtime, created: CreatedRow[]): Promise<void> {
  const api = rt.api();
  for (const company of created) {
    if (company.api_key !== undefined) continue;
    try {
      const page = await api.listKeysPage(company.id, 1);
      const key = page.content[0]?.api_key;
      if (key !== undefined) company.api_key = key;
      else rt.ctx.out.warn(`No key was found for the new company ${company.id}.`);
    } catch (error) {
      if (error instanceof InterruptedError) throw error;
      rt.ctx.out.warn(`Could not read the key of company ${company.id}: ${(error as Error).message}`);
    }
  }
}

/**
 * After a POST whose answer was lost (reset, timeout, unreadable body), ask the service which of the
 * chunk's names exist now, so the report says what really happened instead of "maybe".
 */
async function reconcileChunk(rt: Runtime, error: unknown, names: string[], plan: Plan): Promise<CreatedRow[]> {
  if (error instanceof ApiError || error instanceof InterruptedError || error instanceof UsageError) return [];
  if (!(error instanceof AgencyError)) return [];
  try {
    rt.ctx.out.info('The answer to a creation request was lost; checking which companies exist now…');
    const wanted = new Set(names.map(nameKey));
    const before = new Set(plan.existing.map((e) => e.company.id));
    const now = await fetchAllCompanies(rt);
    return now
      .filter((c) => wanted.has(nameKey(c.name)) && !before.has(c.id))
      .map(({ id, name, owner, active }) => ({ id, name, owner, active }));
  } catch {
    return [];
  }
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

function chunkFailure(
  error: unknown,
  info: { index: number; chunks: string[][]; created: CreatedRow[]; reconciled: CreatedRow[]; total: number },
): AgencyError {
  const { index, chunks, created, reconciled, total } = info;
  const createdKeys = new Set(created.map((c) => nameKey(c.name)));
  const notCreated = chunks
    .slice(index)
    .flat()
    .filter((name) => !createdKeys.has(nameKey(name)));
  const reason = error instanceof Error ? error.message : String(error);
  const lines = [
    `Created ${created.length} of ${total}${created.length ? ' (listed on stdout)' : ''}.`,
    ...(reconciled.length ? [`Of the failed request, ${reconciled.length} were created all the same (checked).`] : []),
    ...(notCreated.length ? [`Not created (${notCreated.length}): ${notCreated.join(', ')}`] : []),
  ];
  const hint = created.length
    ? 'Run the same command again with --skip-existing to create the rest.'
    : error instanceof AgencyError
      ? error.hint
      : undefined;
  if (error instanceof InterruptedError) return new BulkCreateError(`Interrupted. ${lines.join(' ')}`, error, hint);
  const failed = chunks.length > 1 ? `Request ${index + 1} of ${chunks.length} failed` : 'Creating the companies failed';
  return new BulkCreateError(`${failed}: ${reason}\n  ${lines.join('\n  ')}`, error, hint);
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}
