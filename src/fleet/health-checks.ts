/**
 * The checks of `agency health` (contract, "Fleet health"), each a named rule with its severity and
 * threshold here and nowhere else. A check looks at one client's facts and returns its problems; the
 * order of CHECKS is the order a client's problems are listed in within one severity.
 */
import type { Deliverability } from '../api/types.js';
import { groupDigits } from '../output/text.js';
import { ratio } from './deliverability.js';
import { CONNECTION_WARNINGS, groupMailboxes, isErrorText, type MailEntry } from './inventory-parts.js';

export const SEVERITIES = ['critical', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

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

type CheckName =
  | 'unreadable'
  | 'mailbox_error'
  | 'campaign_error'
  | 'bounce_rate'
  | 'mailbox_warning'
  | 'mailbox_not_in_slot'
  | 'reply_rate_drop'
  | 'no_running_campaign'
  | 'no_webhook';

/** One row of the report. */
export interface Problem {
  company_id: number;
  name: string;
  severity: Severity;
  check: CheckName;
  detail: string;
}

export type CampaignFacts = readonly { id?: unknown; name?: unknown; status?: unknown; error?: unknown }[];

/**
 * What the checks know of one client: its reads (undefined when that read failed: its checks are not
 * run, the client is `unreadable` instead), and its line of the deliverability listing.
 */
export interface ClientFacts {
  id: number;
  name: string;
  mailboxes: readonly MailEntry[] | undefined;
  campaigns: CampaignFacts | undefined;
  webhooks: readonly unknown[] | undefined;
  /** Undefined: the service listed no activity for the client in the period. */
  deliverability: Deliverability | undefined;
}

type Read = 'mailboxes' | 'campaigns' | 'webhooks' | 'deliverability';

type Finding = [severity: Severity, detail: string];

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

const pct = (rate: number) => `${(rate * 100).toFixed(1)}%`;
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : JSON.stringify(value));

function mailboxName(group: readonly MailEntry[]): string {
  const [first] = group;
  const email = first?.details?.email;
  return typeof email === 'string' ? email : `mailbox ${first?.id}`;
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
            `${mailboxName(group)} (${failing.type ?? 'mailbox'}): ${text(failing.details?.error)}`,
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
        return warned ? [['warning', `${mailboxName(group)}: ${text(warned.details?.error)}`]] : [];
      }),
  },
  {
    name: 'mailbox_not_in_slot',
    needs: 'mailboxes',
    rule: 'a mailbox holds no email slot of the client (in_slot false), so it sends nothing: warning',
    run: (facts) =>
      groupMailboxes(facts.mailboxes).flatMap((group): Finding[] =>
        group.some((entry) => entry.details?.in_slot === false)
          ? [['warning', `${mailboxName(group)} is not in a slot: it sends nothing`]]
          : [],
      ),
  },
  {
    name: 'bounce_rate',
    needs: 'deliverability',
    rule: `bounces / sent of the period at or above ${pct(THRESHOLDS.bounceWarning)}: warning; at or above ${pct(THRESHOLDS.bounceCritical)}: critical (from ${THRESHOLDS.minimumEmails} emails sent)`,
    run: ({ deliverability: d }) => {
      if (!d || d.emails_sent.current_period < THRESHOLDS.minimumEmails) return [];
      const rate = ratio(d.bounces.current_period, d.emails_sent.current_period) ?? 0;
      if (rate < THRESHOLDS.bounceWarning) return [];
      const severity = rate >= THRESHOLDS.bounceCritical ? 'critical' : 'warning';
      const limit = severity === 'critical' ? THRESHOLDS.bounceCritical : THRESHOLDS.bounceWarning;
      return [
        [
          severity,
          `bounce rate ${pct(rate)} (${groupDigits(d.bounces.current_period)} of ${groupDigits(d.emails_sent.current_period)} sent), at or above ${pct(limit)}`,
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
          ? [['critical', `campaign ${c.id} ${JSON.stringify(text(c.name ?? ''))}: ${text(c.error)}`]]
          : [],
      ),
  },
  {
    name: 'reply_rate_drop',
    needs: 'deliverability',
    rule: `replies / delivered fell to ${THRESHOLDS.replyDrop * 100}% or less of the previous period's: warning (from ${THRESHOLDS.minimumEmails} emails delivered in each)`,
    run: ({ deliverability: d }) => {
      if (!d) return [];
      const { delivered_emails: delivered, replies } = d;
      if (Math.min(delivered.current_period, delivered.previous_period) < THRESHOLDS.minimumEmails) return [];
      const now = ratio(replies.current_period, delivered.current_period) ?? 0;
      const before = ratio(replies.previous_period, delivered.previous_period) ?? 0;
      if (before === 0 || now > before * THRESHOLDS.replyDrop) return [];
      return [['warning', `reply rate ${pct(now)}, down from ${pct(before)} in the previous period`]];
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
    (known(check.needs) ? check.run(facts as Known) : []).map(([severity, detail]) => ({
      company_id: facts.id,
      name: facts.name,
      severity,
      check: check.name,
      detail,
    })),
  );
}

/** `unreadable` (critical): a client whose reads failed is a problem, never a silent gap. */
export function unreadable(id: number, name: string, detail: string): Problem {
  return { company_id: id, name, severity: 'critical', check: 'unreadable', detail };
}

/** Whether `severity` is at or above `threshold` (critical > warning > info). */
export function atOrAbove(severity: Severity, threshold: Severity): boolean {
  return SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(threshold);
}

/** Problems by severity, then in the clients' order (stable: a client's own order is kept). */
export function sortProblems(problems: readonly Problem[], clientOrder: readonly number[]): Problem[] {
  const position = new Map(clientOrder.map((id, i) => [id, i]));
  return [...problems].sort(
    (a, b) =>
      SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
      (position.get(a.company_id) ?? 0) - (position.get(b.company_id) ?? 0),
  );
}
