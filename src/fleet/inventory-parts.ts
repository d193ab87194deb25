/**
 * What `inventory` says about one company's mailboxes, email accounts and campaigns, computed from
 * the lists the service returns. Pure, so each counting rule has its own test.
 */
import { CAMPAIGN_STATUSES } from './campaign-status.js';

/** A mailbox or an email-account entry as both endpoints return them: `{id, type, details}`. */
export interface MailEntry {
  id: number | string;
  type?: string | undefined;
  details?: Record<string, unknown> | undefined;
}

/**
 * Text the service puts in `details.error` that reports a working but limited connection rather
 * than a failure (the docs' example). Compared case-insensitively, by prefix.
 */
export const CONNECTION_WARNINGS = ['connected conditionally'] as const;

/** An `error` field that reports a failure: a non-empty text that is not one of the known warnings. */
export function isErrorText(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (typeof value !== 'string') return true;
  const text = value.trim().toLowerCase();
  return text !== '' && !CONNECTION_WARNINGS.some((warning) => text.startsWith(warning));
}

function field(entry: MailEntry, name: string): unknown {
  return entry.details?.[name];
}

function emailOf(entry: MailEntry): string | undefined {
  const email = field(entry, 'email') ?? field(entry, 'login');
  return typeof email === 'string' && email.trim() !== '' ? email.trim().toLowerCase() : undefined;
}

/**
 * One mailbox = one SMTP entry and the IMAP entry it is paired with. The pairing rule:
 * 1. an SMTP entry whose `details.imap_id` is the id of an IMAP entry of the same list is paired with it;
 * 2. an SMTP entry without a usable `imap_id` is paired with an IMAP entry of the same address
 *    (`details.email`, else `login`, case-insensitive) that no other SMTP entry claimed;
 * 3. every entry left over (an SMTP entry without IMAP, an IMAP entry no SMTP entry claims, any
 *    other type) is a mailbox of its own.
 * Returns the groups, each the SMTP entry first.
 */
export function groupMailboxes<T extends MailEntry>(entries: readonly T[]): T[][] {
  const isType = (entry: MailEntry, type: string) => String(entry.type ?? '').toUpperCase() === type;
  const imapById = new Map<string, T>();
  for (const entry of entries) if (isType(entry, 'IMAP')) imapById.set(String(entry.id), entry);
  const claimed = new Set<T>();
  const pairs = new Map<T, T>();
  const smtpEntries = entries.filter((entry) => isType(entry, 'SMTP'));
  const unpaired: T[] = [];
  for (const smtp of smtpEntries) {
    const imapId = field(smtp, 'imap_id');
    const imap = imapId === null || imapId === undefined ? undefined : imapById.get(String(imapId));
    if (imap && !claimed.has(imap)) {
      claimed.add(imap);
      pairs.set(smtp, imap);
    } else {
      unpaired.push(smtp);
    }
  }
  for (const smtp of unpaired) {
    const email = emailOf(smtp);
    if (email === undefined) continue;
    const imap = [...imapById.values()].find((entry) => !claimed.has(entry) && emailOf(entry) === email);
    if (imap) {
      claimed.add(imap);
      pairs.set(smtp, imap);
    }
  }
  const groups: T[][] = [];
  for (const entry of entries) {
    if (claimed.has(entry)) continue;
    const imap = pairs.get(entry);
    groups.push(imap ? [entry, imap] : [entry]);
  }
  return groups;
}

export interface MailboxSummary {
  /** Mailboxes, an SMTP entry and its paired IMAP entry counted once. */
  count: number;
  /** Entries by `type` as listed (`{IMAP: 1, SMTP: 2}`), so a missing IMAP side shows. */
  types: Record<string, number>;
  /** Mailboxes with an error on either side (a pair with two errors is one). */
  errors: number;
}

export function summarizeMailboxes(entries: readonly MailEntry[]): MailboxSummary {
  const types: Record<string, number> = {};
  for (const entry of entries) {
    const type = entry.type ?? 'unknown';
    types[type] = (types[type] ?? 0) + 1;
  }
  const groups = groupMailboxes(entries);
  const errors = groups.filter((group) => group.some((entry) => isErrorText(field(entry, 'error')))).length;
  return { count: groups.length, types, errors };
}

/**
 * The mailboxes with an error, each by its address (`details.email`, else `login`; else its id): the
 * mailbox list (the client's account) and the email accounts (the HQ's view of the same mailboxes)
 * name the same broken mailbox, which is one problem, not one of each list.
 */
export function brokenMailboxes(entries: readonly MailEntry[]): Set<string> {
  const broken = new Set<string>();
  for (const group of groupMailboxes(entries)) {
    if (!group.some((entry) => isErrorText(field(entry, 'error')))) continue;
    const [first] = group;
    if (first) broken.add(emailOf(first) ?? `id:${String(first.id)}`);
  }
  return broken;
}

/** Email accounts: the same entries and pairing as mailboxes, without the types. */
export function summarizeEmailAccounts(entries: readonly MailEntry[]): { count: number; errors: number } {
  const { count, errors } = summarizeMailboxes(entries);
  return { count, errors };
}

export interface CampaignSummary {
  count: number;
  /** Every documented status (0 when none), plus any other status the service returned. */
  by_status: Record<string, number>;
  /** Campaigns that carry an `error`. */
  errors: number;
}

export function summarizeCampaigns(
  campaigns: readonly { status?: unknown; error?: unknown }[],
): CampaignSummary {
  const by_status: Record<string, number> = {};
  for (const status of CAMPAIGN_STATUSES) by_status[status] = 0;
  for (const campaign of campaigns) {
    const status = typeof campaign.status === 'string' ? campaign.status.trim().toUpperCase() : 'UNKNOWN';
    by_status[status] = (by_status[status] ?? 0) + 1;
  }
  const errors = campaigns.filter((campaign) => isErrorText(campaign.error)).length;
  return { count: campaigns.length, by_status, errors };
}
