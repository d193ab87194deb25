/**
 * `agency inventory`: one report over all companies. Agency endpoints (key lists, email accounts) run on the
 * HQ account, one request at a time; mailboxes and webhooks run per client account via x-company-id,
 * several companies at once (each client account has its own rate limit).
 */
import { type Command, Option } from '@commander-js/extra-typings';
import type { AgencyClient } from '../../api/client.js';
import { mapPool, Serial } from '../../api/limit.js';
import { collect, paginate } from '../../api/paginate.js';
import type { Company } from '../../api/types.js';
import { AgencyError, InterruptedError, PartialFailureError, UsageError } from '../../errors.js';
import { fetchAllCompanies } from '../../fleet/all-companies.js';
import { parsePositiveInt } from '../../input/parse.js';
import { activeStyle } from '../../output/columns.js';
import { progressLine } from '../../output/progress.js';
import type { Runtime } from '../../runtime.js';

import { helpText, type Run } from '../room.js';

export function define(command: Command, run: Run): void {
  command
    .addOption(new Option('--active', 'only active companies').conflicts('inactive'))
    .addOption(new Option('--inactive', 'only inactive companies').conflicts('active'))
    .option('--concurrency <n>', 'client companies audited at once (default 4)')
    .addHelpText(
      'after',
      helpText(
        'Prints one row per company: id, name, active, keys (those your user created),\n' +
          'mailboxes (count, types, errors), webhook events and email accounts, then a\n' +
          'summary on stderr. Per-company failures (an inactive company answers 409) are\n' +
          'part of the report. Requests on the HQ account go one at a time; each client\n' +
          'account is its own rate-limit bucket.',
        [
          'agency inventory --active',
          "agency inventory --json | jq '.[] | select(.mailboxes.errors > 0) | .id'",
        ],
      ),
    )
    .action(run(inventory));
}

export const DEFAULT_CONCURRENCY = 4;
const MAX_CONCURRENCY = 32;

type Section<T> = T | { error: { status: number | null; message: string } };

export interface CompanyReport {
  id: number;
  name: string;
  owner: string;
  active: boolean;
  keys: Section<{ count: number }>;
  mailboxes: Section<{ count: number; types: Record<string, number>; errors: number }>;
  webhooks: Section<{ count: number; events: string[] }>;
  email_accounts: Section<{ count: number; errors: number }>;
}

export async function inventory(
  rt: Runtime,
  opts: { active?: boolean | undefined; inactive?: boolean | undefined; concurrency?: string | undefined },
): Promise<void> {
  const concurrency =
    opts.concurrency === undefined
      ? DEFAULT_CONCURRENCY
      : parsePositiveInt(opts.concurrency, '--concurrency');
  if (concurrency > MAX_CONCURRENCY) throw new UsageError(`--concurrency is at most ${MAX_CONCURRENCY}.`);
  const companies = await fetchAllCompanies(rt.api(), opts.active ? true : opts.inactive ? false : undefined);
  const api = rt.api({ connections: concurrency + 1 });
  const hq = new Serial();
  const progress = progressLine(rt, `of ${companies.length} companies audited`);
  let done = 0;
  const reports = await mapPool(
    companies,
    concurrency,
    async (company) => {
      const report = await auditCompany(api, hq, company);
      progress.update(undefined, ++done);
      return report;
    },
    rt.ctx.signal,
  ).finally(progress.done);
  if (rt.ctx.signal.aborted) throw new InterruptedError();

  const { out } = rt;
  await out.list(
    reports,
    [
      { header: 'id', value: (r) => r.id },
      { header: 'name', value: (r) => r.name },
      { header: 'active', value: (r) => r.active, style: activeStyle },
      { header: 'keys', value: (r) => show(r.keys, (k) => String(k.count)) },
      { header: 'mailboxes', value: (r) => show(r.mailboxes, (m) => String(m.count)) },
      { header: 'types', value: (r) => show(r.mailboxes, (m) => formatTypes(m.types)) },
      { header: 'errors', value: (r) => show(r.mailboxes, (m) => String(m.errors)) },
      { header: 'webhooks', value: (r) => show(r.webhooks, (w) => w.events.join(',')) },
      { header: 'accounts', value: (r) => show(r.email_accounts, (e) => String(e.count)) },
    ],
    'No companies to audit.',
  );

  const failed = reports.filter((r) => sections(r).some(isFailure));
  const unexpected = failed.filter((r) => sections(r).some((s) => isFailure(s) && s.error.status !== 409));
  out.info(
    `Audited ${reports.length} compan${reports.length === 1 ? 'y' : 'ies'}` +
      (failed.length
        ? `; ${failed.length} could not be read in full (${failed.length - unexpected.length} inactive).`
        : '.'),
  );
  // An inactive company is a finding; anything else means the report has holes.
  if (unexpected.length > 0) {
    throw new PartialFailureError(
      `${unexpected.length} companies failed for reasons other than being inactive: ${unexpected.map((r) => r.id).join(', ')}.`,
    );
  }
}

async function auditCompany(api: AgencyClient, hq: Serial, company: Company): Promise<CompanyReport> {
  const { id } = company;
  // Client-account calls of one company go one after another (one account, one request at a time),
  // alongside this company's turn in the HQ queue.
  const clientSide = (async () => {
    const mailboxes = await section(async () => {
      const list = await api.mailboxes(id);
      const types: Record<string, number> = {};
      for (const m of list) types[m.type ?? 'unknown'] = (types[m.type ?? 'unknown'] ?? 0) + 1;
      return { count: list.length, types, errors: list.filter((m) => Boolean(m.details?.error)).length };
    });
    const webhooks = await section(async () => {
      const list = await api.webhooks(id);
      return { count: list.length, events: [...new Set(list.map((w) => w.event))].sort() };
    });
    return { mailboxes, webhooks };
  })();
  const hqSide = (async () => {
    const keys = await section(() =>
      hq.run(async () => ({ count: (await collect(paginate((p) => api.listKeysPage(id, p)))).length })),
    );
    const email_accounts = await section(() =>
      hq.run(async () => {
        const list = await api.emailAccounts(id);
        return { count: list.length, errors: list.filter((a) => Boolean(a.details?.error)).length };
      }),
    );
    return { keys, email_accounts };
  })();
  const [{ mailboxes, webhooks }, { keys, email_accounts }] = await Promise.all([clientSide, hqSide]);
  return {
    id,
    name: company.name,
    owner: company.owner,
    active: company.active,
    keys,
    mailboxes,
    webhooks,
    email_accounts,
  };
}

async function section<T>(read: () => Promise<T>): Promise<Section<T>> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof InterruptedError || !(error instanceof AgencyError)) throw error;
    return { error: { status: error.status, message: error.message } };
  }
}

function isFailure(value: Section<unknown>): value is { error: { status: number | null; message: string } } {
  return typeof value === 'object' && value !== null && 'error' in value;
}

function sections(r: CompanyReport): Section<unknown>[] {
  return [r.keys, r.mailboxes, r.webhooks, r.email_accounts];
}

function show<T>(value: Section<T>, render: (v: T) => string): string {
  if (isFailure(value))
    return value.error.status === 409 ? 'inactive' : `error ${value.error.status ?? ''}`.trim();
  return render(value);
}

/** {SMTP: 2, IMAP: 1} → "IMAP:1,SMTP:2" (stable order, one cell). */
function formatTypes(types: Record<string, number>): string {
  return Object.keys(types)
    .sort()
    .map((type) => `${type}:${types[type]}`)
    .join(',');
}
