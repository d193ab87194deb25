/**
 * The tools of `agency mcp`: which commands are offered, under which name, and what differs from the
 * command line. Each tool runs its command (src/mcp/call.ts); its input schema is made from the
 * command's own arguments and options (src/mcp/schema.ts). A tool whose command this build does not
 * have is left out.
 */
import { maskKey } from '../config.js';

export interface ToolSpec {
  /** The command's words, e.g. ['companies', 'list']; the tool's name joins them with '_'. */
  path: readonly string[];
  title: string;
  /** What the assistant should know beyond the command's one line: what the result holds. */
  result: string;
  /** Writes are offered only with `agency mcp --allow-writes`. */
  write?: { destructive: boolean; idempotent: boolean };
  /** Options not offered besides LOCAL_FILES (confirmations: the client asks the user before a write). */
  omit?: readonly string[];
  /** Properties whose values are whole numbers (the command still checks them as it checks flags). */
  integers?: readonly string[];
  /** JSON schema keywords for the values of some properties (a date's pattern, a URL's format). */
  values?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Property descriptions that differ from the option's help line. */
  describe?: Readonly<Record<string, string>>;
  /** Words always added to the command line (apply: --yes, since the client confirms the call). */
  fixed?: readonly string[];
  /**
   * An option that reads a file, offered as text instead (given on the command's stdin with '-');
   * `noun` is how messages name that text ("line 3 of the plan").
   */
  text?: { option: string; property: string; description: string; noun: string };
  /** Its result holds API keys on purpose (the key in use is masked in every other tool's result). */
  handsOutKeys?: boolean;
  /** Exit codes other than 0 whose output is still the answer (health: 7, problems found). */
  answers?: readonly number[];
  /** Changes the JSON the command printed before the assistant sees it. */
  present?: (json: unknown, args: Readonly<Record<string, unknown>>) => unknown;
}

/** Options that name a local file, never offered: an assistant passes the values themselves. */
export const LOCAL_FILES: readonly string[] = ['file', 'keys-out', 'html'];
const PAGING = ['page', 'limit', 'concurrency'];
const DATE = { pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
const WEB_ADDRESS = { format: 'uri' };
const PERIOD = { from: DATE, to: DATE };

const PLAN_TEXT = {
  option: 'file',
  property: 'yaml',
  noun: 'the plan',
  description:
    'the desired state as YAML (or JSON) text: `defaults` (keys, webhooks) and `companies` (names, ' +
    'each with optional keys, webhooks, guests and bounce_shield)',
};

/** The rows of campaigns pause, stop and resume, as their results say. */
const CAMPAIGN_ROWS = 'One record per campaign: {company_id, campaign_id, campaign, status_before, result}';

/**
 * Campaign control (the client confirms the call: --yes is fixed; a record file is the command line's).
 * Pause and stop stop sending: destructive.
 */
const CAMPAIGN_TOOLS: readonly ToolSpec[] = [
  {
    path: ['campaigns', 'pause'],
    title: 'Pause running campaigns',
    result: `${CAMPAIGN_ROWS}, result "paused", "already-paused", "not-running", "would-pause" (dry_run), "skipped-inactive" or "failed". Only RUNNING campaigns are paused; a second call sends nothing.`,
    write: { destructive: true, idempotent: true },
    omit: ['yes', 'record'],
    integers: PAGING,
    fixed: ['--yes'],
  },
  {
    path: ['campaigns', 'stop'],
    title: 'Stop running and paused campaigns',
    result: `${CAMPAIGN_ROWS}, result "stopped", "already-stopped", "not-running", "would-stop" (dry_run), "skipped-inactive" or "failed". A stopped campaign can be resumed.`,
    write: { destructive: true, idempotent: true },
    omit: ['yes', 'record'],
    integers: PAGING,
    fixed: ['--yes'],
  },
  {
    path: ['campaigns', 'resume'],
    title: 'Resume paused and stopped campaigns',
    result: `${CAMPAIGN_ROWS}, result "resumed", "already-running", "not-paused" (DRAFT, EDITED and COMPLETED campaigns are never started), "would-resume" (dry_run), "skipped-inactive" or "failed".`,
    write: { destructive: false, idempotent: true },
    omit: ['yes', 'from-record'],
    integers: PAGING,
    fixed: ['--yes'],
  },
  {
    path: ['campaigns', 'bounce-shield'],
    title: "List or set campaigns' Bounce Shield thresholds",
    result:
      'One record per campaign: {company_id, campaign_id, campaign, threshold_before, threshold, result} ' +
      '(a threshold of null is the service\'s default, 2 %), result "unchanged", "set", "cleared", ' +
      '"would-set", "would-clear" (dry_run), "skipped-inactive" or "failed".',
    write: { destructive: false, idempotent: true },
    integers: [...PAGING, 'set'],
  },
];

export const TOOLS: readonly ToolSpec[] = [
  {
    path: ['me'],
    title: 'Who the key belongs to',
    result:
      'The user (id, email, name, role) and agency of the key in use; with `company`, that client account.',
  },
  {
    path: ['companies', 'list'],
    title: 'List client companies',
    result:
      'An array of company records as the API returns them (id, name, active, …), every page unless page/limit.',
    integers: PAGING,
  },
  {
    path: ['companies', 'view'],
    title: 'Show one client company',
    result: 'Its record: id, name, owner, active, running_campaigns, email_slots, linkedin_slots.',
  },
  {
    path: ['companies', 'users'],
    title: "List a company's users",
    result: 'An array of users: id, name, email, roles, guest_permissions.',
  },
  {
    path: ['companies', 'email-accounts'],
    title: "List a company's email accounts",
    result: 'An array of email accounts: id, type (SMTP, IMAP, …) and details (email, provider, error, …).',
  },
  {
    path: ['keys', 'list'],
    title: "List a company's API keys",
    result:
      'An array of {api_key, label}: the keys your user created. Keys are masked unless reveal is true.',
    integers: PAGING,
    describe: { reveal: 'return whole keys instead of masked ones (wpk_…1a2b)' },
    handsOutKeys: true,
    present: (json, args) => (args.reveal === true ? json : maskKeys(json)),
  },
  {
    path: ['mailboxes'],
    title: 'List mailboxes',
    result: 'An array of the mailboxes of the HQ account, or of a company with `company`.',
  },
  {
    path: ['webhooks', 'list'],
    title: 'List webhooks',
    result:
      'An array of subscriptions {target_url, event}; over several companies, one record per company and subscription.',
  },
  {
    path: ['campaigns', 'list'],
    title: 'List campaigns',
    result: 'An array of campaigns of the HQ account or a company, optionally by status.',
  },
  {
    path: ['blacklist', 'list'],
    title: 'List the blacklist',
    result: "An array of the agency's blacklisted domains or addresses.",
  },
  {
    path: ['blacklist', 'check'],
    title: 'Check the blacklist',
    result:
      'One record per value: {value, listed, blocked, by}; blocked is true when the value is listed or, for an address, ' +
      'its domain is; by is "email", "domain" or null.',
  },
  {
    path: ['inventory'],
    title: 'Audit the agency',
    result:
      'One record per company: keys, mailboxes (types, errors), webhook events, email accounts, ' +
      'campaigns by status and with errors; per-company failures are part of the report. Reports progress.',
    integers: PAGING,
  },
  {
    path: ['deliverability'],
    title: 'Deliverability by client',
    result:
      'One record per client: emails sent, delivered, viewed, replied and bounced in the period and the one ' +
      'before (current_period, previous_period), with reply and bounce rates (0..1) of both periods and their ' +
      'change (reply_rate_previous, reply_rate_change, bounce_rate_previous, bounce_rate_change).',
    values: PERIOD,
  },
  {
    path: ['health'],
    title: 'Which clients need attention',
    result:
      '{period, companies_checked, problems}: one problem per row (company_id, name, owner when the company ' +
      'list was read, severity critical, warning or info, check, detail: what to do next where the operator can ' +
      'act), most severe first; severity and check keep fewer, columns picks fields (owner among them). ' +
      'Problems found are the answer, not an error. ' +
      'not_checked (only when there are any): the clients asked for that are inactive and could not be checked. ' +
      "With the local history: each problem's new (no earlier run of the client had it) and first_seen (UTC), " +
      'and resolved: the problems of the last recorded run that are gone; new=true keeps only the new problems.',
    omit: ['fail-on'],
    describe: { new: 'only the problems new since the last recorded run' },
    integers: PAGING,
    answers: [7],
    values: PERIOD,
  },
  {
    path: ['history', 'health'],
    title: 'When health problems appeared and went',
    result:
      'One record per problem as the recorded health runs saw it: {company_id, name, check, subject, first_seen, ' +
      'last_seen, resolved (null while it is still there), severity, detail}, oldest first, times in UTC. Reads ' +
      'only the local history of this agency (the health runs recorded on this machine).',
    values: { since: DATE },
  },
  {
    path: ['history', 'report'],
    title: 'Stored campaign results per client and period',
    result:
      'One record per client and period that a recorded report run stored (the latest of that period): ' +
      '{company_id, name, from, to, campaigns, contacted, delivered, opened, replied, interested, bounced, ' +
      'opt_out, reply_rate, bounce_rate (0..1), recorded_at}. Periods older than the 30 days report can ask ' +
      'for are here. Reads only the local history.',
    values: { since: DATE },
  },
  {
    path: ['history', 'deliverability'],
    title: 'Stored deliverability totals per client and period',
    result:
      'One record per client and period that a recorded deliverability run stored (the latest of that period): ' +
      '{company_id, name, from, to, sent, delivered, opened, replied, bounced, reply_rate, bounce_rate (0..1), ' +
      'recorded_at}. Reads only the local history.',
    values: { since: DATE },
  },
  {
    path: ['report'],
    title: 'Campaign results by client',
    result:
      '{period, totals, clients, failed}: per client (company_id, name) its totals and its campaigns (id, name, ' +
      'status, mailboxes, contacted, delivered, opened, replied, interested, maybe_later, not_interested, bounced, ' +
      'opt_out; open_rate, reply_rate, bounce_rate, interested_rate from 0 to 1, null when nothing to divide), over ' +
      'the last 30 days (UTC) at most. With by=client the campaigns are left out. failed: the clients whose report ' +
      'could not be made, and why. Reports progress.',
    integers: [...PAGING, 'wait'],
    values: PERIOD,
    // The billing view needs the totals only: the campaigns would be most of the answer.
    present: (json, args) => (args.by === 'client' ? withoutCampaigns(json) : json),
  },
  {
    path: ['plan'],
    title: 'Plan changes from a desired state',
    result:
      'The changes (companies, keys, webhooks) it takes to reach the state the YAML describes. Sends no change.',
    omit: ['exit-code'],
    integers: PAGING,
    text: PLAN_TEXT,
  },
  {
    path: ['companies', 'create'],
    title: 'Create client companies',
    result:
      'An array of the companies (id, name, owner, active, result "created" or "exists"). A name that exists ' +
      'already is refused, or with skip_existing returned with result "exists": nothing is created twice. A ' +
      'name that differs from an existing company only in case or spacing is refused unless allow_similar.',
    write: { destructive: false, idempotent: true },
  },
  {
    path: ['keys', 'create'],
    title: 'Create API keys',
    result:
      'For one company {company_id, label, api_key, result}; for several, one record per company; result ' +
      '"created" or "exists" (the key your user already had with that label, returned whole, none created). ' +
      'Set `new` to create another key with the label all the same (rotation).',
    write: { destructive: false, idempotent: true },
    handsOutKeys: true,
  },
  {
    path: ['webhooks', 'subscribe'],
    title: 'Subscribe accounts to webhook events',
    result:
      'One record per account and event: {company_id, event, target_url, result}, result "subscribed" or ' +
      '"exists". Sends only what is missing.',
    write: { destructive: false, idempotent: true },
    integers: PAGING,
    values: { url: WEB_ADDRESS },
  },
  {
    path: ['webhooks', 'unsubscribe'],
    title: 'Remove webhook subscriptions',
    result:
      'One record per account and event: {company_id, event, target_url, result}, result "unsubscribed" or ' +
      '"absent". Removes only what is present.',
    write: { destructive: true, idempotent: true },
    integers: PAGING,
    values: { url: WEB_ADDRESS },
  },
  {
    path: ['webhooks', 'move'],
    title: 'Move webhooks to another URL',
    result:
      'One record per account and event: {company_id, event, from, to, result}, result "moved", ' +
      '"already-moved", "would-move" (dry_run), "absent", "skipped-inactive", "failed" or "restored". ' +
      'A second call sends nothing.',
    write: { destructive: true, idempotent: true },
    integers: PAGING,
    values: { from: WEB_ADDRESS, to: WEB_ADDRESS },
  },
  {
    path: ['guests', 'invite'],
    title: "Invite a client's people as guests",
    result:
      'One record per address: {email, result}, result "invited", "already-guest", "already-user" ' +
      '(a member of the company, with its roles), "would-invite" (dry_run) or "failed". An address ' +
      'already a guest or a user is not sent.',
    write: { destructive: false, idempotent: true },
    values: { email: { format: 'email' } },
  },
  {
    path: ['guests', 'permissions'],
    title: 'Set what guests may see',
    result:
      'One record per guest: {id, email, permissions, result}, result "set", "unchanged" or "would-set" ' +
      '(dry_run). Only the guests whose permissions differ are sent.',
    write: { destructive: true, idempotent: true },
  },
  {
    path: ['blacklist', 'add'],
    title: 'Add to the blacklist',
    result: 'One record per value: {value, result}, result "added" or "exists" (already listed).',
    write: { destructive: false, idempotent: true },
  },
  {
    path: ['blacklist', 'remove'],
    title: 'Remove from the blacklist',
    result: 'One record per value: {value, result}, result "removed" or "absent" (not listed).',
    write: { destructive: true, idempotent: true },
  },
  {
    path: ['apply'],
    title: 'Apply a desired state',
    result:
      'The changes made (companies, keys — whole —, webhooks), as `plan` shows them first. Sends only ' +
      'what is still missing, so calling it again is safe. With `prune`, also unsubscribes the webhooks ' +
      'of the companies of the plan that the plan does not list.',
    // `prune` unsubscribes webhooks the plan does not list.
    write: { destructive: true, idempotent: true },
    handsOutKeys: true,
    omit: ['yes'],
    integers: PAGING,
    fixed: ['--yes'],
    text: PLAN_TEXT,
  },
  ...CAMPAIGN_TOOLS,
];

export function toolName(spec: Pick<ToolSpec, 'path'>): string {
  return spec.path.join('_').replace(/-/g, '_');
}

/** keys list without reveal: every api_key masked as on a terminal. */
function maskKeys(json: unknown): unknown {
  if (!Array.isArray(json)) return json;
  return json.map((item) =>
    item && typeof item === 'object' && typeof item.api_key === 'string'
      ? { ...item, api_key: maskKey(item.api_key) }
      : item,
  );
}

/** A report's clients without their campaigns (`report` with by=client). */
function withoutCampaigns(json: unknown): unknown {
  if (json === null || typeof json !== 'object' || !Array.isArray((json as { clients?: unknown }).clients))
    return json;
  const report = json as { clients: Record<string, unknown>[] };
  return { ...report, clients: report.clients.map(({ campaigns: _, ...client }) => client) };
}
