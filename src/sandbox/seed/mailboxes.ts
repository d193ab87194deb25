/**
 * The sandbox's invented world, part 2: the mailboxes of an account as the service's docs show
 * them. Each mailbox is an SMTP entry plus its paired IMAP entry (`imap_id`); providers "Google"
 * or "Other"; `error` is null, "", a warning such as "Connected conditionally." or a failure.
 * Mailboxes have no write endpoint, so they are derived from the company id instead of stored.
 */
import { domainOf, mix, PEOPLE, pick } from './names.js';

type Provider = 'Google' | 'Other';

/** What an SMTP entry and its IMAP entry both have: the address and how the service connects to it. */
interface MailboxConnection {
  email: string;
  provider: Provider;
  login: string;
  server: string;
  port: number;
  error: string | null;
}

interface SmtpMailboxDetails extends MailboxConnection {
  from_name: string;
  imap_id: number;
  daily_limit: number;
  sent_today: number;
  warmup_data: { status: WarmupStatus };
  /** false: the mailbox holds no email slot of the company, so it sends nothing. */
  in_slot: boolean;
  /** The docs show all three forms: none as `[]` or `""`, or the periods sending is frozen. */
  freeze_account: [] | '' | { from: string; to: string }[];
  frequency_from: number;
  frequency_to: number;
}

type WarmupStatus = 'RUNNING' | 'PAUSED' | 'STOPPED' | 'NOT_STARTED';

interface ImapMailboxDetails extends MailboxConnection {
  private: boolean;
}

export type MailboxItem =
  | { id: number; type: 'SMTP'; details: SmtpMailboxDetails }
  | { id: number; type: 'IMAP'; details: ImapMailboxDetails };

/** An item of GET /v2/agency/companies/{cid}/email_accounts. */
export type EmailAccountItem =
  | {
      id: number;
      type: 'SMTP';
      details: {
        email: string;
        provider: Provider;
        error: string | null;
        from_name: string;
        imap_id: number;
        running_campaigns: number;
      };
    }
  | { id: number; type: 'IMAP'; details: { email: string; provider: Provider; error: string | null } };

const CONNECTED_CONDITIONALLY = 'Connected conditionally.';
const SMTP_FAILURE = 'SMTP authentication failed: 535 5.7.8 Username and Password not accepted';
const IMAP_FAILURE = 'IMAP connection timed out';

/** Mostly null; now and then "", the docs' warning, or a failure. */
function smtpError(companyId: number, i: number): string | null {
  switch (mix(companyId, 40 + i) % 12) {
    case 0:
      return SMTP_FAILURE;
    case 1:
      return CONNECTED_CONDITIONALLY;
    case 2:
      return '';
    default:
      return null;
  }
}

interface Pair {
  smtpId: number;
  imapId: number;
  email: string;
  provider: Provider;
  domain: string;
  fromName: string;
  dailyLimit: number;
  sentToday: number;
  smtpError: string | null;
  imapError: string | null;
  warmup: WarmupStatus;
  inSlot: boolean;
  freeze: SmtpMailboxDetails['freeze_account'];
}

const WARMUP: readonly WarmupStatus[] = ['RUNNING', 'RUNNING', 'PAUSED', 'STOPPED', 'NOT_STARTED'];

/** Mostly `[]`; now and then `""` or a frozen week (the forms the docs show). */
function freezeOf(companyId: number, i: number): SmtpMailboxDetails['freeze_account'] {
  switch (mix(companyId, 120 + i) % 8) {
    case 0:
      return '';
    case 1:
      return [{ from: '2026-06-01', to: '2026-06-07' }];
    default:
      return [];
  }
}

function pairsOf(companyId: number, companyName: string): Pair[] {
  const domain = domainOf(companyName);
  const count = 1 + (mix(companyId, 1) % 3);
  const locals = ['sales', 'hello', 'outreach'];
  return Array.from({ length: count }, (_, i) => {
    const dailyLimit = [50, 100, 200][mix(companyId, 10 + i) % 3] as number;
    return {
      smtpId: companyId * 10 + 2 * i,
      imapId: companyId * 10 + 2 * i + 1,
      email: `${locals[i]}@${domain}`,
      provider: mix(companyId, 60 + i) % 2 === 0 ? 'Google' : 'Other',
      domain,
      fromName: pick(PEOPLE, companyId, 20 + i),
      dailyLimit,
      sentToday: mix(companyId, 30 + i) % (dailyLimit + 1),
      smtpError: smtpError(companyId, i),
      imapError: mix(companyId, 70 + i) % 10 === 0 ? IMAP_FAILURE : null,
      warmup: WARMUP[mix(companyId, 110 + i) % WARMUP.length] as WarmupStatus,
      // A second or third mailbox now and then holds no slot (the slot went to another mailbox).
      inSlot: i === 0 || mix(companyId, 115 + i) % 4 !== 0,
      freeze: freezeOf(companyId, i),
    };
  });
}

function mailboxPair(p: Pair): MailboxItem[] {
  const google = p.provider === 'Google';
  return [
    {
      id: p.smtpId,
      type: 'SMTP',
      details: {
        email: p.email,
        provider: p.provider,
        login: p.email,
        server: google ? 'smtp.gmail.com' : `smtp.${p.domain}`,
        port: google ? 465 : 587,
        from_name: p.fromName,
        error: p.smtpError,
        imap_id: p.imapId,
        daily_limit: p.dailyLimit,
        sent_today: p.sentToday,
        warmup_data: { status: p.warmup },
        in_slot: p.inSlot,
        freeze_account: p.freeze,
        frequency_from: 5,
        frequency_to: 15,
      },
    },
    {
      id: p.imapId,
      type: 'IMAP',
      details: {
        email: p.email,
        provider: p.provider,
        login: p.email,
        server: google ? 'imap.gmail.com' : `imap.${p.domain}`,
        port: 993,
        error: p.imapError,
        private: false,
      },
    },
  ];
}

/** Mailboxes of a seeded company (companies created through the API start without any). */
export function companyMailboxes(companyId: number, companyName: string): MailboxItem[] {
  return pairsOf(companyId, companyName).flatMap(mailboxPair);
}

/** How many SMTP/IMAP pairs (the company's email slots). */
export function mailboxPairCount(companyId: number): number {
  return 1 + (mix(companyId, 1) % 3);
}

export function companyEmailAccounts(
  companyId: number,
  companyName: string,
  runningCampaigns: number,
): EmailAccountItem[] {
  return pairsOf(companyId, companyName).flatMap((p, i): EmailAccountItem[] => [
    {
      id: p.smtpId,
      type: 'SMTP',
      details: {
        email: p.email,
        provider: p.provider,
        error: p.smtpError,
        from_name: p.fromName,
        imap_id: p.imapId,
        running_campaigns: i === 0 ? runningCampaigns : 0,
      },
    },
    { id: p.imapId, type: 'IMAP', details: { email: p.email, provider: p.provider, error: p.imapError } },
  ]);
}

/** The HQ account's own mailbox (an agency's HQ account is a mail-sending account too). */
export function hqMailboxes(agencyId: number, domain: string): MailboxItem[] {
  return mailboxPair({
    smtpId: agencyId * 100 + 1,
    imapId: agencyId * 100 + 2,
    email: `outreach@${domain}`,
    provider: 'Google',
    domain,
    fromName: 'Agency Outreach',
    dailyLimit: 200,
    sentToday: 37,
    smtpError: null,
    imapError: null,
    warmup: 'RUNNING',
    inSlot: true,
    freeze: [],
  });
}
