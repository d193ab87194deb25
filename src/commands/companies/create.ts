/**
 * `agency companies create`: names from --name and --file, checked locally, then created in chunks of 10
 * by src/fleet/bulk-create.ts; this handler reads the input and prints the outcome.
 */
import type { Command } from '@commander-js/extra-typings';
import { MAX_COMPANIES_PER_REQUEST } from '../../api/resources/companies.js';
import type { CreatedCompany } from '../../api/types.js';
import { InterruptedError, UsageError } from '../../errors.js';
import type { CreationPlan } from '../../fleet/bulk-create.js';
import { lookalikeWarning } from '../../fleet/names.js';
import { parseNameLines, validateNames } from '../../input/parse.js';
import { readRunInput } from '../../input/read.js';
import { companyColumns } from '../../output/columns.js';
import { progressLine } from '../../output/progress.js';
import { type RowStream, rowStream } from '../../output/row-stream.js';
import { exists, listLines, MAX_LISTED } from '../../output/summary.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { command, option } from '../../terms.js';
import { collectValues, helpText, type OptionsOf, type Run } from '../command.js';

const configureCreate = (companies: Command) =>
  companies
    .command('create')
    .description('create client companies (checked, in chunks of 10)')
    .option('--name <name>', 'a company name (repeatable)', collectValues)
    .option('--file <path>', "read names from a file, one per line ('-' = stdin; blank and # lines skipped)")
    .option(
      '--skip-existing',
      'create only names that do not exist yet; print the existing companies too (result "exists")',
    )
    .option(
      '--allow-similar',
      'create a name even if an existing company differs from it only in case or spacing',
    )
    .option('--dry-run', 'show what would be created; send no POST')
    .option('--with-keys', "include each new company's automatically created API key in the output")
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints the created companies (id, name, owner, active, result). Names are
          checked before anything is sent: none empty, none twice. The company list is
          read first: a name that exists already exits 5, nothing created (with
          --skip-existing it is printed too, result "exists", so a re-run gets every
          id); a name that differs from an existing one only in case or spacing
          ("acme ltd" and "Acme Ltd") exits 5, nothing created, unless --allow-similar:
          companies cannot be renamed or deleted. If a chunk of 10 fails, the output
          says exactly what was created.
        `,
        examples: `
          $ agency companies create --name "Acme Ltd"
          $ agency companies create --name "Acme Ltd" --name "Blue Harbor Dental" --json
          $ agency companies create --file clients.txt --skip-existing
        `,
      }),
    );

type CreateOptions = OptionsOf<typeof configureCreate>;

/** A company of the run's input: one it created, or (--skip-existing) one that had the name already. */
type CreatedRow = CreatedCompany & { api_key?: string; result: 'created' | 'exists' };
type PlanRow = { action: string; name: string; id?: number };

const PLAN_COLUMNS: Column<PlanRow>[] = [
  { header: 'action', value: (r) => r.action, priority: 0 },
  { header: 'name', value: (r) => r.name },
  { header: 'id', value: (r) => r.id },
];

function createdColumns(withKeys: boolean | undefined): Column<CreatedRow>[] {
  const columns = companyColumns<CreatedRow>();
  if (withKeys) columns.push({ header: 'api key', value: (c) => c.api_key, kind: 'id' });
  columns.push({ header: 'result', value: (c) => c.result });
  return columns;
}

async function createCompanies(rt: Runtime, opts: CreateOptions): Promise<void> {
  const { out } = rt;
  // An unknown --columns name is refused before anything is read or sent.
  if (opts.dryRun) out.columns(PLAN_COLUMNS);
  else out.columns(createdColumns(opts.withKeys));
  const names = await readNames(rt, opts);
  const bulk = await import('../../fleet/bulk-create.js');
  const reads = rt.api();
  const plan = await bulk.planCreation(reads, names);

  // A name that differs from an existing one only in case or spacing is refused (a company can be
  // neither renamed nor deleted), or with --allow-similar created with a warning.
  if (opts.allowSimilar || opts.dryRun) {
    for (const { name, companies } of plan.lookalikes) out.warn(lookalikeWarning(name, companies));
  }
  if (opts.dryRun) return printPlan(rt, plan, opts);

  // With --json every name is listed (scripts read them); on a screen, the first 20 and "and N more".
  const max = out.json ? Number.POSITIVE_INFINITY : MAX_LISTED;
  if (plan.lookalikes.length > 0 && !opts.allowSimilar) throw new bulk.LookalikeError(plan.lookalikes, max);
  if (plan.existing.length > 0 && !opts.skipExisting) throw new bulk.NameClashError(plan.existing, max);
  if (plan.existing.length > 0) {
    out.info(
      [
        `${plan.existing.length} already ${plan.existing.length === 1 ? 'exists' : 'exist'} (printed too, result "exists"):`,
        ...listLines(bulk.describeExisting(plan.existing), max),
      ].join('\n'),
    );
  }
  const existing: CreatedRow[] = plan.existing.map(({ company: c }) => ({
    id: c.id,
    name: c.name,
    owner: c.owner,
    active: c.active,
    result: 'exists',
  }));
  if (plan.toCreate.length === 0) {
    out.info('Nothing to create: every name exists already.');
    await printAll(rt, existing, [], opts);
    return;
  }

  const several = plan.toCreate.length > MAX_COMPANIES_PER_REQUEST;
  // Piped, each chunk's rows are written as it is created: a reader that left (`| head -1`) stops the
  // run before the next chunk. With --with-keys the rows wait for the keys, read after the last chunk.
  const rows = opts.withKeys ? undefined : rowStream(out, createdColumns(false));
  const stream = rows?.streaming ? rows : undefined;
  // The existing companies first: they are known before any request.
  if (stream) for (const row of existing) stream.push(row);
  const result = await bulk.createInChunks(
    // Ctrl-C does not abort a POST in flight: its outcome must be known to be reported. No new one starts.
    { reads, writes: rt.api({ interruptible: false }) },
    plan,
    {
      signal: rt.ctx.signal,
      notes: { info: (m) => out.info(m), warn: (m) => out.warn(m) },
      progress: several ? progressLine(rt, 'companies created') : undefined,
      onCreated:
        stream &&
        ((companies) =>
          printCreated(
            rt,
            companies.map((c) => ({ ...c, result: 'created' as const })),
            stream,
          )),
    },
  );
  const created = result.created.map((c): CreatedRow => ({ ...c, result: 'created' }));
  const { failure } = result;
  // On a partial failure, stdout carries exactly what was created.
  if (stream) await stream.end();
  else if (!failure) await printAll(rt, existing, created, opts);
  else if (created.length > 0) await printAll(rt, [], created, opts);
  if (failure) throw bulk.chunkFailure(result, plan.toCreate.length);
  out.success(`Created ${created.length} compan${created.length === 1 ? 'y' : 'ies'}.`);
}

async function readNames(rt: Runtime, opts: CreateOptions): Promise<string[]> {
  const entries = (opts.name ?? []).map((name, i) => ({ name, where: `${option('name')} #${i + 1}` }));
  if (opts.file !== undefined) {
    const { text, source } = await readRunInput(rt, opts.file, 'company names, one per line');
    entries.push(...parseNameLines(text, source));
  }
  if (entries.length === 0) {
    throw new UsageError('No company names given.', {
      hint: `Use ${option('name')} "Acme Ltd" (repeatable) or ${option('file')} names.txt.`,
    });
  }
  return validateNames(entries);
}

async function printPlan(rt: Runtime, plan: CreationPlan, opts: CreateOptions): Promise<void> {
  const { requestsFor } = await import('../../fleet/bulk-create.js');
  const escapes = { skipExisting: opts.skipExisting === true, allowSimilar: opts.allowSimilar === true };
  const requests = requestsFor(plan, escapes);
  // What makes the real run create nothing: an existing name, a look-alike (each without its flag).
  const reasons = refusals(plan, escapes);
  const { out } = rt;
  if (out.json) {
    out.jsonValue({
      dry_run: true,
      refused: reasons.length > 0,
      requests,
      to_create: plan.toCreate,
      existing: plan.existing.map((e) => ({ name: e.name, id: e.company.id })),
      lookalikes: plan.lookalikes.map((l) => ({
        name: l.name,
        looks_like: l.companies.map((c) => ({ id: c.id, name: c.name })),
      })),
    });
  } else {
    const similar = new Set(plan.lookalikes.map((l) => l.name));
    const rows: PlanRow[] = [
      ...plan.toCreate.map((name) => ({ action: similar.has(name) ? 'similar' : 'create', name })),
      ...plan.existing.map((e) => ({ action: 'exists', name: e.name, id: e.company.id })),
    ];
    await out.list(rows, PLAN_COLUMNS);
  }
  // Said in words, so that nobody reads the table above as what the real run would do.
  out.info(
    reasons.length > 0
      ? `Dry run: the real run would be refused: ${reasons.join('; ')}. Nothing was sent.`
      : `Dry run: would create ${plan.toCreate.length} in ${requests} request${requests === 1 ? '' : 's'}; ` +
          `${exists(plan.existing.length)} already. Nothing was sent.`,
  );
}

function refusals(plan: CreationPlan, escapes: { skipExisting: boolean; allowSimilar: boolean }): string[] {
  const reasons: string[] = [];
  const similar = plan.lookalikes.length;
  if (similar > 0 && !escapes.allowSimilar) {
    reasons.push(
      `${similar} ${similar === 1 ? 'name looks' : 'names look'} like an existing company; add ${option('allow-similar')} to create ${similar === 1 ? 'it' : 'them'} anyway`,
    );
  }
  const existing = plan.existing.length;
  if (existing > 0 && !escapes.skipExisting) {
    const others = plan.toCreate.length;
    reasons.push(
      `${existing} ${existing === 1 ? 'name exists' : 'names exist'}; add ${option('skip-existing')}` +
        (others > 0 ? ` to create the other ${others}` : ''),
    );
  }
  return reasons;
}

/** Each new company's row, said first to exist (if stdout fails, the error names it). */
function printCreated(rt: Runtime, created: readonly CreatedRow[], rows: RowStream<CreatedRow>): void {
  for (const company of created) {
    if (company.result === 'exists') {
      rows.push(company);
      continue;
    }
    rt.out.created({
      what: `company ${JSON.stringify(company.name)} (id ${company.id})`,
      readBack: `agency companies view ${company.id}`,
    });
    rows.push(company);
  }
}

/** The whole list at the end (a table, --json, or rows that wait for --with-keys): existing ones first. */
async function printAll(
  rt: Runtime,
  existing: CreatedRow[],
  created: CreatedRow[],
  opts: CreateOptions,
): Promise<void> {
  const rows = rowStream(rt.out, createdColumns(opts.withKeys));
  if (opts.withKeys) await attachKeys(rt, created);
  printCreated(rt, [...existing, ...created], rows);
  await rows.end();
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
        rt.out.warn(`Could not read the key of company ${company.id}: ${(error as Error).message}`);
      }
      missing.push(company.id);
    }
  }
  if (missing.length > 0) {
    rt.out.warn(
      `No key shown for ${missing.length} new compan${missing.length === 1 ? 'y' : 'ies'} ` +
        `(${missing.join(', ')}); read it later with: ${command('keys list <company>')}`,
    );
  }
}

export function defineCreate(companies: Command, run: Run): void {
  configureCreate(companies).action(run(createCompanies));
}
