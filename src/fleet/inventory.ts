/**
 * `inventory`: what one company holds, read through two accounts at once. Agency endpoints (key
 * list, email accounts) go through the HQ account; mailboxes, webhooks and campaigns through the
 * client account (x-company-id). The HTTP layer keeps each account's requests within its queue
 * depth, so the reads of one company are all asked for together. A part that fails becomes
 * `{error}` in the report instead of ending the run.
 */
import type { Company } from '../api/types.js';
import { AgencyError, InterruptedError } from '../errors.js';
import { ListCell } from '../output/text.js';
import {
  brokenMailboxes,
  type CampaignSummary,
  type MailboxSummary,
  type MailEntry,
  summarizeCampaigns,
  summarizeEmailAccounts,
  summarizeMailboxes,
} from './inventory-parts.js';

export interface InventoryReader {
  emailAccounts(companyId: number): Promise<MailEntry[]>;
  mailboxes(companyId?: number): Promise<MailEntry[]>;
  webhooks(companyId?: number): Promise<{ event: string }[]>;
  campaigns(companyId?: number): Promise<{ status?: unknown; error?: unknown }[]>;
}

export interface PartFailure {
  error: { status: number | null; message: string };
}

export type Part<T> = T | PartFailure;

export interface CompanyReport {
  id: number;
  name: string;
  owner: string;
  active: boolean;
  keys: Part<{ count: number }>;
  mailboxes: Part<MailboxSummary>;
  webhooks: Part<{ count: number; events: string[] }>;
  email_accounts: Part<{ count: number; errors: number }>;
  campaigns: Part<CampaignSummary>;
  /** What is wrong, in a few words each ("2 mailbox errors", "inactive"); empty when nothing is. */
  problems: string[];
}

export async function auditCompany(
  api: InventoryReader,
  company: Company,
  countKeys: (companyId: number) => Promise<number>,
): Promise<CompanyReport> {
  const { id } = company;
  // The broken mailboxes of both lists, by address: one mailbox is one problem whichever list names it.
  const broken = new Set<string>();
  const brokenOf = (entries: readonly MailEntry[]) => {
    for (const mailbox of brokenMailboxes(entries)) broken.add(mailbox);
    return entries;
  };
  const [keys, email_accounts, mailboxes, webhooks, campaigns] = await Promise.all([
    part(async () => ({ count: await countKeys(id) })),
    part(async () => summarizeEmailAccounts(brokenOf(await api.emailAccounts(id)))),
    part(async () => summarizeMailboxes(brokenOf(await api.mailboxes(id)))),
    part(async () => {
      const list = await api.webhooks(id);
      return { count: list.length, events: [...new Set(list.map((w) => w.event))].sort() };
    }),
    part(async () => summarizeCampaigns(await api.campaigns(id))),
  ]);
  const parts = { keys, mailboxes, webhooks, email_accounts, campaigns };
  return {
    id,
    name: company.name,
    owner: company.owner,
    active: company.active,
    ...parts,
    problems: problemsOf(parts, broken.size),
  };
}

/**
 * The report's findings in the words of a table cell, worst first: what could not be read, then errors
 * (`mailboxErrors`: the mailboxes with an error in either list, each once).
 */
function problemsOf(
  parts: Omit<CompanyReport, 'id' | 'name' | 'owner' | 'active' | 'problems'>,
  mailboxErrors: number,
): string[] {
  const problems: string[] = [];
  const counted = (n: number, what: string) => {
    if (n > 0) problems.push(`${n} ${what}${n === 1 ? '' : 's'}`);
  };
  for (const [name, part] of Object.entries(parts)) {
    if (!isPartFailure(part)) continue;
    if (part.error.status === 409) {
      if (!problems.includes('inactive')) problems.push('inactive');
    } else problems.push(`${name.replace('_', ' ')} unreadable (${part.error.status ?? 'network'})`);
  }
  counted(mailboxErrors, 'mailbox error');
  if (!isPartFailure(parts.campaigns)) counted(parts.campaigns.errors, 'campaign error');
  return problems;
}

async function part<T>(read: () => Promise<T>): Promise<Part<T>> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof InterruptedError || !(error instanceof AgencyError)) throw error;
    return { error: { status: error.status, message: error.message } };
  }
}

export function isPartFailure(value: Part<unknown>): value is PartFailure {
  return typeof value === 'object' && value !== null && 'error' in value;
}

export function reportParts(report: CompanyReport): Part<unknown>[] {
  return [report.keys, report.mailboxes, report.webhooks, report.email_accounts, report.campaigns];
}

/** What a part that could not be read shows in its column (`error 503`; `error` when no answer came). */
const UNREADABLE = 'error';

/**
 * The cells a part's column may show in place of its figures (TableColumn.mayShow): a table laid out
 * from typical reports keeps room for `error`, and the status after it wraps onto a line of its own.
 */
export const PART_FAILURE_CELLS = [`${UNREADABLE} 503`] as const;

/** A table cell for a part: its rendering, or `inactive` (409) / `error <status>`. */
export function showPart<T>(value: Part<T>, render: (v: T) => string | ListCell): string | ListCell {
  if (isPartFailure(value)) {
    return value.error.status === 409 ? 'inactive' : `${UNREADABLE} ${value.error.status ?? ''}`.trim();
  }
  return render(value);
}

/**
 * {SMTP: 2, IMAP: 1} → IMAP:1,SMTP:2 (`IMAP:1; SMTP:2` in CSV); zero counts left out (one cell, stable order).
 * Keys outside `order` in code-unit order: the same in every locale, and without creating ICU's collator,
 * as localeCompare does (6 ms of each run).
 */
export function formatCounts(counts: Record<string, number>, order?: readonly string[]): ListCell {
  const keys = Object.keys(counts).filter((key) => (counts[key] ?? 0) > 0);
  const rank = (key: string) => (order?.includes(key) ? order.indexOf(key) : Number.MAX_SAFE_INTEGER);
  keys.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return new ListCell(keys.map((key) => `${key}:${counts[key]}`));
}

/**
 * A report with typical figures for `company`, to lay a terminal table out before the real reports
 * are in (src/output/row-stream.ts): the id and name are the company's; the rest is as wide as most.
 * Its problems are one kind of problem, as most rows have at most: two kinds (34 characters) would
 * hide ACTIVE and KEYS at 80 columns where a table of the real rows shows them (the last column takes
 * the rest of the line anyway, and a longer real problem wraps within it). An inactive company's report
 * is the one it will have: "inactive" where its account is read.
 */
export function typicalReport(company: Company): CompanyReport {
  const { id, name, owner, active } = company;
  const typical = { id, name, owner, active, keys: { count: 10 } };
  if (!active) {
    // The service refuses an inactive company's reads (409): its row says "inactive" in those columns,
    // and a column sized for a count alone cut it there (`inactiv` / `e`).
    const refused: PartFailure = { error: { status: 409, message: 'inactive' } };
    const parts = { mailboxes: refused, webhooks: refused, email_accounts: refused, campaigns: refused };
    return { ...typical, ...parts, problems: ['inactive'] };
  }
  return {
    ...typical,
    mailboxes: { count: 10, types: { IMAP: 3, SMTP: 3 }, errors: 1 },
    webhooks: { count: 2, events: ['CAMPAIGN_COMPLETED', 'PROSPECT_REPLIED'] },
    email_accounts: { count: 10, errors: 1 },
    campaigns: { count: 9, by_status: { RUNNING: 4, PAUSED: 2, STOPPED: 3 }, errors: 1 },
    problems: ['2 campaign errors'],
  };
}
