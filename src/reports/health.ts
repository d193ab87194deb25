/**
 * The `health` report as a value: what src/fleet/health-report.ts computes from the checks' results
 * (a pure function), and what the handler prints and the renderers (the table's columns, --json, the
 * HTML page in src/output/health-html.ts) take. Nothing here reads, writes or decides; it only names
 * the shapes, so that renderers need nothing from src/fleet/.
 */
import type { DeliverabilityRow } from './deliverability.js';

export const SEVERITIES = ['critical', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** --fail-on: the least severe problem that makes the exit 7, or none. */
export type FailOn = Severity | 'none';

/** The checks, in the order a client's problems are listed within one severity. */
export const CHECK_NAMES = [
  'unreadable',
  'mailbox_error',
  'mailbox_warning',
  'mailbox_not_in_slot',
  'bounce_rate',
  'campaign_error',
  'reply_rate_drop',
  'no_running_campaign',
  'no_webhook',
] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

/** One row of the report. */
export interface Problem {
  company_id: number;
  name: string;
  /** The client's owner, from the company list; left out when the list was not read. */
  owner?: string | undefined;
  severity: Severity;
  check: CheckName;
  /**
   * What within the client the problem is about: the mailbox's address, the campaign's id, the part
   * that could not be read; '' when it is about the client as a whole. With the client and the check,
   * it names the problem whatever its detail or severity (the history compares problems by it).
   */
  subject: string;
  detail: string;
  /** With the history: not in the client's latest earlier run (or the client was never checked). */
  new?: boolean;
  /** With the history: when the unbroken series of runs that had it began (this run's time if new). */
  first_seen?: string;
}

/** With the history: a problem of a client's latest earlier run that this run no longer found. */
export interface ResolvedProblem {
  company_id: number;
  name: string;
  severity: Severity;
  check: string;
  subject: string;
  detail: string;
  first_seen: string;
  /** The run that last had it. */
  last_seen: string;
}

/** What the history adds to a report: what is gone, and how much is new. */
export interface HealthMemoryReport {
  resolved: ResolvedProblem[];
  /** When the clients' latest earlier run ran (a new problem is new since then); none: never checked. */
  since: string | undefined;
  fresh: number;
  ongoing: number;
  /** --new: the report's problems are the new ones only. */
  onlyNew: boolean;
  /** What the history records of the run: every problem found, marked, and the clients checked. */
  record: { problems: Problem[]; checked: { id: number; name: string }[] } | undefined;
}

/** A client named with --company or --file that was not checked, and why (`--json`'s `not_checked`). */
export interface NotChecked {
  company_id: number;
  name: string;
  reason: 'inactive';
}

/**
 * How the run ends, decided once (contract, "Fleet health"): exit 7 when a problem kept at or above
 * --fail-on was found, whatever else happened (a named inactive client is then only in not_checked);
 * else exit 5 when a named client is inactive; else 0.
 */
export type HealthVerdict =
  | { exit: 0 }
  /** `message`: "3 problems at or above critical (--fail-on critical)." */
  | { exit: 7; message: string }
  /** `message`: which named clients are inactive and could not be checked. */
  | { exit: 5; message: string };

export interface HealthReport {
  /** The days the report covers: the ones asked for, else the service's default window as dates. */
  period: { from: string; to: string };
  /** "2026-10-26 to 2026-11-24 (the last 30 days)": a saved page says which days it was. */
  periodLabel: string;
  companiesChecked: number;
  /** The problems kept (--severity, --check), worst first, then in the clients' order. */
  problems: Problem[];
  /** How many of each severity the kept problems have. */
  counts: Record<Severity, number>;
  notChecked: NotChecked[];
  /** The checked clients' lines of the deliverability listing (a row of zeros for a quiet one). */
  deliverability: DeliverabilityRow[];
  /** Bounce rates drawn across the chart: the warning and critical thresholds. */
  bounceMarks: readonly number[];
  /** Set when the run was stopped: the report is of the clients checked until then ("after 5 of 120 clients"). */
  interrupted?: { clientsDone: number; of: string } | undefined;
  verdict: HealthVerdict;
  /** With the history (not --no-history): resolved problems, counts of new and ongoing ones. */
  memory?: HealthMemoryReport | undefined;
  /** "3 critical, 5 warnings, 2 info across 120 clients" (and the inactive ones not checked). */
  summary: string;
}
