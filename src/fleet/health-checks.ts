/**
 * The checks of `agency health` (contract, "Fleet health"), each a named rule with its severity and
 * threshold here and nowhere else. A check looks at one client's facts and returns its problems; the
 * order of CHECKS is the order a client's problems are listed in within one severity. Where the
 * operator can act, a problem's detail says how.
 */
import { percent } from '../output/figures.js';
import { groupDigits } from '../output/text.js';
import type { DeliverabilityRow } from '../reports/deliverability.js';
import type { CheckName, Problem, Severity } from '../reports/health.js';
import { resumeCommand } from './campaign-status.js';
import { CONNECTION_WARNINGS, groupMailboxes, isErrorText, type MailEntry } from './inventory-parts.js';

/** Thresholds, in one place. */
export const THRESHOLDS = {
  /** The service's Bounce Shield default: a bounce rate at or above this is a warning... */
  bounceWarning: 0.02,
  /** ...and at or above this, critical. */
  bounceCritical: 0.05,
  /** A reply rate at or below this share of the previous period's is a drop. */
  replyDrop: 0.5,
  /** Rates over fewer emails say nothing (Bounce Shield too waits for 20). */
  minimumEmails: 20,
} as const;

/** What to do next, where the operator can act (said at the end of the problem's detail). */
const NEXT_STEPS = {
  reconnect: 'reconnect the mailbox in Woodpecker → Mailboxes',
  /**
   * Said of a PAUSED or STOPPED campaign (a RUNNING one with an error has nothing to resume); the cause
   * of a Bounce Shield pause is its bounces.
   */
  resume: (companyId: number, c: CampaignFacts[number]) =>
    `${/bounce shield/i.test(String(c.error)) ? 'once the cause of the bounces is fixed' : 'once fixed'}: ${resumeCommand(companyId, c.id)}`,
} as const;

export type CampaignFacts = readonly { id?: unknown; name?: unknown; status?: unknown; error?: unknown }[];

/**
 * What the checks know of one client: its reads (undefined when that read failed: its checks are not
 * run, the client is `unreadable` instead), and its line of the deliverability listing.
 */
export interface ClientFacts {
  id: number;
  name: string;
  /** From the company list, when it was read. */
  owner?: string | undefined;
  mailboxes: readonly MailEntry[] | undefined;
  campaigns: CampaignFacts | undefined;
  webhooks: readonly unknown[] | undefined;
  /** Undefined: the service listed no activity for the client in the period. */
  deliverability: DeliverabilityRow | undefined;
}

type Read = 'mailboxes' | 'campaigns' | 'webhooks' | 'deliverability';

/** subject: what the problem is about within the client (a mailbox, a campaign id); '' for the client itself. */
type Finding = [severity: Severity, detail: string, subject?: string];

/** The facts a check reads, present. */
type Known = { [K in Exclude<Read, 'deliverability'>]: NonNullable<ClientFacts[K]> } & ClientFacts;

interface Check {
  name: CheckName;
  /** The rule in words (help text and docs). */
  rule: string;
  /** The read it needs: a check whose read failed is not run. */
  needs: Read;
  run(facts: Known): Finding[];
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : JSON.stringify(value));

function mailboxName(group: readonly MailEntry[]): string {
  const [first] = group;
  const email = first?.details?.email;
  return typeof email === 'string' ? email : `mailbox ${first?.id}`;
}

/** A campaign `campaigns resume` runs again: paused (by hand or by Bounce Shield) or stopped. */
function resumable(status: unknown): boolean {
  return ['PAUSED', 'STOPPED'].includes(String(status ?? '').toUpperCase());
}

function isWarningText(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const lower = value.trim().toLowerCase();
  return CONNECTION_WARNINGS.some((warning) => lower.startsWith(warning));
}

const CHECKS: readonly Check[] = [
  {
    name: 'mailbox_error',
    needs: 'mailboxes',
    rule: 'a mailbox (SMTP or IMAP side) reports an error: critical',
    run: (facts) =>
      groupMailboxes(facts.mailboxes).flatMap((group): Finding[] => {
        const failing = group.find((entry) => isErrorText(entry.details?.error));
        if (!failing) return [];
        return [
          [
            'critical',
            `${mailboxName(group)} (${failing.type ?? 'mailbox'}): ${text(failing.details?.error)} — ${NEXT_STEPS.reconnect}`,
            mailboxName(group),
          ],
        ];
      }),
  },
  {
    name: 'mailbox_warning',
    needs: 'mailboxes',
    rule: 'a mailbox is "Connected conditionally." (a working but limited connection): warning',
    run: (facts) =>
      groupMailboxes(facts.mailboxes).flatMap((group): Finding[] => {
        if (group.some((entry) => isErrorText(entry.details?.error))) return [];
        const warned = group.find((entry) => isWarningText(entry.details?.error));
        return warned
          ? [['warning', `${mailboxName(group)}: ${text(warned.details?.error)}`, mailboxName(group)]]
          : [];
      }),
  },
  {
    name: 'mailbox_not_in_slot',
    needs: 'mailboxes',
    rule: 'a mailbox holds no email slot of the client (in_slot false), so it sends nothing: warning',
    run: (facts) =>
      groupMailboxes(facts.mailboxes).flatMap((group): Finding[] =>
        group.some((entry) => entry.details?.in_slot === false)
          ? [['warning', `${mailboxName(group)} is not in a slot: it sends nothing`, mailboxName(group)]]
          : [],
      ),
  },
  {
    name: 'bounce_rate',
    needs: 'deliverability',
    rule: `bounces / sent of the period at or above ${percent(THRESHOLDS.bounceWarning)}: warning; at or above ${percent(THRESHOLDS.bounceCritical)}: critical (from ${THRESHOLDS.minimumEmails} emails sent)`,
    run: ({ deliverability: d }) => {
      if (!d || d.emails_sent.current_period < THRESHOLDS.minimumEmails) return [];
      const rate = d.bounce_rate ?? 0;
      if (rate < THRESHOLDS.bounceWarning) return [];
      const severity = rate >= THRESHOLDS.bounceCritical ? 'critical' : 'warning';
      const limit = severity === 'critical' ? THRESHOLDS.bounceCritical : THRESHOLDS.bounceWarning;
      return [
        [
          severity,
          `bounce rate ${percent(rate)} (${groupDigits(d.bounces.current_period)} of ${groupDigits(d.emails_sent.current_period)} sent), at or above ${percent(limit)}`,
        ],
      ];
    },
  },
  {
    name: 'campaign_error',
    needs: 'campaigns',
    rule: 'a campaign reports an error: critical',
    run: (facts) =>
      facts.campaigns.flatMap((c): Finding[] =>
        isErrorText(c.error)
          ? [
              [
                'critical',
                `campaign ${c.id} ${JSON.stringify(text(c.name ?? ''))}: ${text(c.error)}${resumable(c.status) ? ` — ${NEXT_STEPS.resume(facts.id, c)}` : ''}`,
                String(c.id),
              ],
            ]
          : [],
      ),
  },
  {
    name: 'reply_rate_drop',
    needs: 'deliverability',
    rule: `replies / delivered fell to ${THRESHOLDS.replyDrop * 100}% or less of the previous period's: warning (from ${THRESHOLDS.minimumEmails} emails delivered in each)`,
    run: ({ deliverability: d }) => {
      if (!d) return [];
      const { delivered_emails: delivered } = d;
      if (Math.min(delivered.current_period, delivered.previous_period) < THRESHOLDS.minimumEmails) return [];
      const now = d.reply_rate ?? 0;
      const before = d.reply_rate_previous ?? 0;
      if (before === 0 || now > before * THRESHOLDS.replyDrop) return [];
      return [['warning', `reply rate ${percent(now)}, down from ${percent(before)} in the previous period`]];
    },
  },
  {
    name: 'no_running_campaign',
    needs: 'campaigns',
    rule: 'an active client has no running campaign: info',
    run: (facts) => {
      const running = facts.campaigns.filter((c) => String(c.status ?? '').toUpperCase() === 'RUNNING');
      if (running.length > 0) return [];
      const count = facts.campaigns.length;
      return [
        [
          'info',
          count === 0
            ? 'no campaign at all'
            : count === 1
              ? 'its one campaign is not running'
              : `none of its ${count} campaigns is running`,
        ],
      ];
    },
  },
  {
    name: 'no_webhook',
    needs: 'webhooks',
    rule: 'no webhook subscription at all (nothing reaches a CRM): info',
    run: (facts) => (facts.webhooks.length === 0 ? [['info', 'no webhook subscription']] : []),
  },
];

/** Every problem of one client, in the order of CHECKS. */
export function checkClient(facts: ClientFacts): Problem[] {
  const known = (read: Read) => read === 'deliverability' || facts[read] !== undefined;
  return CHECKS.flatMap((check) =>
    (known(check.needs) ? check.run(facts as Known) : []).map(([severity, detail, subject]) => ({
      company_id: facts.id,
      name: facts.name,
      ...ownerOf(facts),
      severity,
      check: check.name,
      subject: subject ?? '',
      detail,
    })),
  );
}

/** `unreadable` (critical): a client whose reads failed is a problem, never a silent gap. */
export function unreadable(
  client: { id: number; name: string; owner?: string | undefined },
  detail: string,
  part = '',
): Problem {
  return {
    company_id: client.id,
    name: client.name,
    ...ownerOf(client),
    severity: 'critical',
    check: 'unreadable',
    subject: part,
    detail,
  };
}

/** The owner field of a problem: there when the company list said it, absent (not null) otherwise. */
function ownerOf(client: { owner?: string | undefined }): { owner?: string } {
  return client.owner === undefined ? {} : { owner: client.owner };
}
