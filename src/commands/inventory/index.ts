/**
 * `agency inventory [targets]`: one report over the agency's companies (or those named with
 * --company / --file). The company list is read first (with a progress line on a terminal); then
 * each company is audited (fleet/inventory.ts), several at once.
 */
import { type Command, Option } from '@commander-js/extra-typings';
import type { AgencyClient } from '../../api/client.js';
import { collect, paginate } from '../../api/paginate.js';
import type { Company, Page } from '../../api/types.js';
import {
  ExitCode,
  exitCodeForStatus,
  InterruptedError,
  PartialFailureError,
  UsageError,
} from '../../errors.js';
import { CAMPAIGN_STATUSES } from '../../fleet/campaign-status.js';
import { rowsFailed, sharedExitCode } from '../../fleet/failures.js';
import {
  auditCompany,
  type CompanyReport,
  formatCounts,
  isPartFailure,
  PART_FAILURE_CELLS,
  type PartFailure,
  reportParts,
  showPart,
  typicalReport,
} from '../../fleet/inventory.js';
import { mapInOrder } from '../../fleet/ordered.js';
import type { CompanyLister } from '../../fleet/ports.js';
import { CompanyDirectory } from '../../fleet/resolve.js';
import { selectTargets } from '../../fleet/targets.js';
import { optionalPositiveInt, parsePositiveInt } from '../../input/parse.js';
import { readRunInput } from '../../input/read.js';
import { activeStyle } from '../../output/columns.js';
import { progressLine } from '../../output/progress.js';
import { rowStream } from '../../output/row-stream.js';
import { listedWhere, NOUNS, plural } from '../../output/summary.js';
import { ListCell } from '../../output/text.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { option } from '../../terms.js';
import { collectValues, helpText, type OptionsOf, type Run } from '../command.js';

const configure = (command: Command) =>
  command
    .option('--company <company>', 'audit this company (id or exact name; repeatable)', collectValues)
    .option('--file <path>', "audit the companies of a file: ids or exact names, one per line ('-' = stdin)")
    .addOption(new Option('--all', 'the active companies only, as for fleet commands').conflicts('inactive'))
    .addOption(new Option('--active', 'the active companies only (the same as --all)').conflicts('inactive'))
    .addOption(new Option('--inactive', 'only inactive companies').conflicts('active'))
    .option('--concurrency <n>', 'client companies audited at once (default 4)')
    .option('--limit <n>', 'audit only the first N companies (in the order listed)')
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints one row per company: id, name, active, keys (those your user created),
          mailboxes (an SMTP entry and its paired IMAP entry count once; entry types;
          mailboxes with an error), webhook events, email accounts, campaigns by status
          and campaigns with an error, and last its problems in words ("2 mailbox errors",
          "inactive": kept on a narrow terminal, where the counters give way), then a
          summary on stderr.

          Which companies: with no option, every company of the agency, active and
          inactive (an inactive one is a row that says so: the service refuses to read
          it). --all and --active audit the active ones only (--all means every active
          company for every fleet command); --inactive only the inactive ones; --company
          and --file only those named. Other per-company failures are part of the report.
          Each row is printed as soon as it and the rows before it are audited (in company
          order; on a terminal once there are more than 20), so Ctrl-C keeps them.
        `,
        examples: `
          $ agency inventory --active
          $ agency inventory --company "Acme Ltd"
          $ agency inventory --json | jq -r '.[]|select(.campaigns.errors > 0).name'
        `,
      }),
    );

export const DEFAULT_CONCURRENCY = 4;
/** More companies than a screenful: the table on a terminal is printed as the audit goes. */
const PROGRESSIVE_FROM = 20;
const MAX_CONCURRENCY = 32;

export type InventoryOptions = OptionsOf<typeof configure>;

/**
 * One row per company. Its id, its name and its problems are what a reader came for; on a narrow
 * terminal the counters and descriptions give way first. Names are the JSON fields (dotted inside a
 * part); headers say whose errors they count.
 */
/** A part's column: a failed read shows `error 503` there (PART_FAILURE_CELLS), which a streamed table keeps room for. */
const PART = { mayShow: PART_FAILURE_CELLS };

const columns: Column<CompanyReport>[] = [
  { header: 'id', value: (r) => r.id },
  { header: 'name', value: (r) => r.name },
  // PROBLEMS says "inactive" too: on a narrow terminal this column goes before a name has to wrap.
  { header: 'active', value: (r) => r.active, style: activeStyle, priority: 3 },
  { header: 'keys', ...PART, value: (r) => showPart(r.keys, (k) => String(k.count)), kind: 'count' },
  {
    header: 'mailboxes',
    ...PART,
    value: (r) => showPart(r.mailboxes, (m) => String(m.count)),
    kind: 'count',
  },
  {
    header: 'mailbox types',
    field: 'mailboxes.types',
    ...PART,
    value: (r) => showPart(r.mailboxes, (m) => formatCounts(m.types)),
    kind: 'list',
  },
  {
    header: 'mailbox errors',
    field: 'mailboxes.errors',
    aliases: ['errors'],
    ...PART,
    value: (r) => showPart(r.mailboxes, (m) => String(m.errors)),
    kind: 'count',
    priority: 3,
  },
  // Descriptive lists (priority 4): hidden before any counter, wrapped after their commas beyond 35
  // columns rather than hiding an error column.
  {
    header: 'webhooks',
    ...PART,
    value: (r) => showPart(r.webhooks, (w) => new ListCell(w.events)),
    kind: 'list',
  },
  // Hidden with the lists, before the error counts: it mostly repeats MAILBOXES, and PROBLEMS counts
  // its errors with the mailboxes' (one broken mailbox is "1 mailbox error", whichever list shows it).
  {
    header: 'email accounts',
    aliases: ['accounts'],
    ...PART,
    value: (r) => showPart(r.email_accounts, (e) => String(e.count)),
    kind: 'count',
    priority: 4,
  },
  {
    header: 'campaigns',
    ...PART,
    value: (r) => showPart(r.campaigns, (c) => formatCounts(c.by_status, CAMPAIGN_STATUSES)),
    kind: 'list',
  },
  {
    header: 'campaign errors',
    field: 'campaigns.errors',
    ...PART,
    value: (r) => showPart(r.campaigns, (c) => String(c.errors)),
    kind: 'count',
    priority: 3,
  },
  // Last, so that the fields of piped rows keep their places.
  { header: 'problems', value: (r) => new ListCell(r.problems, ', ') },
];

export async function inventory(rt: Runtime, opts: InventoryOptions): Promise<void> {
  const concurrency =
    opts.concurrency === undefined
      ? DEFAULT_CONCURRENCY
      : parsePositiveInt(opts.concurrency, option('concurrency'));
  if (concurrency > MAX_CONCURRENCY)
    throw new UsageError(`${option('concurrency')} is at most ${MAX_CONCURRENCY}.`);
  const limit = optionalPositiveInt(opts.limit, option('limit'));
  rt.out.columns(columns);
  const named = (opts.company ?? []).length > 0 || opts.file !== undefined;
  if (named && (opts.all || opts.active || opts.inactive)) {
    const { namedAndFiltered } = await import('../../fleet/clients.js');
    throw namedAndFiltered();
  }
  const file = opts.file === undefined ? undefined : await readRunInput(rt, opts.file);
  const api = rt.api({ connections: concurrency + 1 });

  const listing = progressLine(rt, 'companies listed');
  let companies: Company[];
  try {
    const lister = countingLister(api, listing.update);
    companies = named
      ? await namedCompanies(lister, { company: opts.company, file })
      : await collect(paginate((page) => lister.listCompaniesPage(page, activeFilter(opts)), { limit }));
  } finally {
    listing.done();
  }

  if (limit !== undefined) companies = companies.slice(0, limit);

  // Each row is printed as soon as it and every row before it are audited (company order): a pipe
  // sees rows early, and Ctrl-C keeps what was audited.
  const progress = progressLine(
    rt,
    `of ${plural(companies.length, NOUNS.company)} audited`,
    companies.length,
  );
  // On a terminal, a long audit prints each row as it is done, in a table laid out from typical
  // reports; a short one waits and fits the table to the real rows (an empty column is hidden first).
  const sample = companies.length > PROGRESSIVE_FROM ? companies.map(typicalReport) : undefined;
  const rows = rowStream(rt.out, columns, { sample, beforeRow: progress.done });
  let done = 0;
  const countKeys = async (id: number) => (await collect(paginate((p) => api.listKeysPage(id, p)))).length;
  const run = await mapInOrder(
    companies,
    concurrency,
    async (company) => {
      const report = await auditCompany(api, company, countKeys);
      progress.update(undefined, ++done);
      return report;
    },
    (report) => {
      rows.push(report); // on a terminal this clears the progress line; it is drawn again below the row
      progress.update(undefined, done);
    },
    rt.ctx.signal,
  ).finally(progress.done);
  await rows.end({ empty: 'No companies to audit.' });
  const interrupted = rt.ctx.signal.aborted || run.error instanceof InterruptedError;
  if (run.error !== undefined && !interrupted) throw run.error;
  if (interrupted) {
    throw new PartialFailureError(
      `Interrupted after ${run.results.length} of ${plural(companies.length, NOUNS.company)}; the ones audited are ${listedWhere(rt.terminal.stdoutIsTTY)}.`,
      ExitCode.interrupted,
    );
  }
  summarize(rt, run.results, named);
}

function activeFilter(opts: InventoryOptions): boolean | undefined {
  if (opts.all || opts.active) return true;
  return opts.inactive ? false : undefined;
}

/** The company lister, telling the progress line how many companies each page brought. */
function countingLister(
  api: AgencyClient,
  update: (page: Page<Company>['pagination_data'], n: number) => void,
) {
  let listed = 0;
  const lister: CompanyLister = {
    listCompaniesPage: async (page, active) => {
      const result = await api.listCompaniesPage(page, active);
      listed += result.content.length;
      update(result.pagination_data, listed);
      return result;
    },
  };
  return lister;
}

/**
 * The companies of --company / --file, in the user's order, each once. Ids cost only the pages of the
 * company list up to the last of them (a name, the whole list); an id outside the agency is exit 4.
 */
async function namedCompanies(
  lister: CompanyLister,
  options: { company?: string[] | undefined; file?: { text: string; source: string } | undefined },
): Promise<Company[]> {
  const directory = new CompanyDirectory(lister);
  const targets = await selectTargets(options, directory);
  return directory.find(targets.map((t) => t.companyId as number));
}

function summarize(rt: Runtime, reports: readonly CompanyReport[], named: boolean): void {
  const failed = reports.filter((r) => reportParts(r).some(isPartFailure));
  const unexpected = failed.filter((r) => failures(r, false).length > 0);
  rt.out.info(
    `Audited ${reports.length} compan${reports.length === 1 ? 'y' : 'ies'}` +
      (failed.length
        ? `; ${failed.length} could not be read in full (${failed.length - unexpected.length} inactive).`
        : '.'),
  );
  // Across the agency an inactive company is a finding; a company named explicitly must be readable
  // (as with every fleet target), so there its 409 counts toward the exit code too.
  const counted = named ? failed : unexpected;
  if (counted.length === 0) return;
  // One failure per company, with the reason of its first part that failed (a company is listed once);
  // the exit code is the one all its parts share.
  throw rowsFailed(
    named
      ? `${counted.length} of the named companies could not be read in full:`
      : `${plural(counted.length, NOUNS.company)} could not be read for reasons other than being inactive:`,
    counted.map((r) => {
      const parts = failures(r, named);
      return {
        subject: r.id,
        ...(parts[0] as PartFailure).error,
        exitCode: sharedExitCode(parts.map((part) => partExitCode(part.error.status))),
      };
    }),
  );
}

function partExitCode(status: number | null): ExitCode {
  return status === null ? ExitCode.failure : exitCodeForStatus(status);
}

/** The parts of a report that failed; an inactive company's 409s only when `withInactive`. */
function failures(report: CompanyReport, withInactive: boolean): PartFailure[] {
  return reportParts(report).filter(
    (part): part is PartFailure => isPartFailure(part) && (withInactive || part.error.status !== 409),
  );
}

export function define(command: Command, run: Run): void {
  configure(command).action(run(inventory));
}
