/**
 * Fault injection: rules that make the sandbox misbehave the way real networks and gateways do,
 * so that the client's retry and error paths can be tested against a real HTTP server.
 */

export type FaultKind =
  | 'status'
  | 'status-after'
  | 'html'
  | 'reset-before'
  | 'reset-after'
  | 'stall'
  | 'truncated'
  | 'not-json'
  | 'empty'
  | 'empty-after'
  | 'large-page'
  | 'repeat-page'
  | 'v1-nothing'
  | 'deep'
  | 'report-failed'
  | 'report-pending';

/** Error body of 'status' / 'status-after': v2 {title, status, detail, timestamp}, v1 {status: {code, msg}}, or {code, message, details}. */
type FaultDialect = 'v2' | 'v1' | 'code';

export interface FaultRule {
  /** HTTP method, case-insensitive; omitted = any method. */
  method?: string;
  /**
   * Path relative to `/rest` (a leading `/rest` is tolerated), query string not included.
   * Exact match, or a glob where `*` matches any run of characters (`/v2/agency/*`). Omitted = any path.
   */
  path?: string;
  /** Only requests for this client company (its `x-company-id`); omitted = any account. */
  company?: number;
  kind: FaultKind;
  /**
   * 'status'/'status-after' (default 500), 'html' (default 502), 'empty'/'empty-after' (default
   * 204; 200 = a 200 with an empty body).
   */
  status?: number;
  /** 'status'/'status-after': the error's detail (v1 `msg`, or `message`), e.g. "No API addon". */
  detail?: string;
  /** 'status'/'status-after': the error body's dialect; default the path's (v1 paths 'v1', else 'v2'). */
  dialect?: FaultDialect;
  /** 'status'/'status-after' in the 'v1' or 'code' dialect: the code, e.g. 'E_TOO_MANY_REQUESTS'. */
  code?: string;
  /** Seconds; sets `Retry-After` on 'status'. */
  retryAfter?: number;
  /** How many times the rule fires before it is used up; default 1, 0 = forever. */
  times?: number;
  /** 'stall': wait this long before answering normally (default 60000). */
  stallMs?: number;
  /** 'large-page': items in `content` (default 5000); 'deep': levels of nesting (default 100000). */
  size?: number;
}

export const FAULT_KINDS: readonly FaultKind[] = [
  'status',
  'status-after',
  'html',
  'reset-before',
  'reset-after',
  'stall',
  'truncated',
  'not-json',
  'empty',
  'empty-after',
  'large-page',
  'repeat-page',
  'v1-nothing',
  'deep',
  'report-failed',
  'report-pending',
];

const DIALECTS: readonly FaultDialect[] = ['v2', 'v1', 'code'];

interface ArmedRule {
  rule: FaultRule;
  method: string | undefined;
  company: string | undefined;
  matchPath: (path: string) => boolean;
  /** Remaining firings; Infinity for "forever". */
  remaining: number;
}

function pathMatcher(pattern: string | undefined): (path: string) => boolean {
  if (pattern === undefined || pattern === '' || pattern === '*') return () => true;
  const normalized = stripRest(pattern);
  if (!normalized.includes('*')) return (path) => path === normalized;
  const source = normalized
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  const re = new RegExp(`^${source}$`);
  return (path) => re.test(path);
}

function stripRest(path: string): string {
  return path === '/rest' || path.startsWith('/rest/') ? path.slice('/rest'.length) || '/' : path;
}

/** Throws a TypeError describing the first problem, so the control API can answer 400. */
export function validateFaultRule(value: unknown): FaultRule {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError('a fault rule must be an object');
  }
  const rule = value as Record<string, unknown>;
  if (typeof rule.kind !== 'string' || !FAULT_KINDS.includes(rule.kind as FaultKind)) {
    throw new TypeError(`fault kind must be one of ${FAULT_KINDS.join(', ')}`);
  }
  for (const field of ['method', 'path', 'detail', 'code'] as const) {
    if (rule[field] !== undefined && typeof rule[field] !== 'string') {
      throw new TypeError(`fault ${field} must be a string`);
    }
  }
  for (const field of ['status', 'retryAfter', 'times', 'stallMs', 'size', 'company'] as const) {
    const n = rule[field];
    if (n !== undefined && (typeof n !== 'number' || !Number.isInteger(n) || n < 0)) {
      throw new TypeError(`fault ${field} must be a non-negative integer`);
    }
  }
  if (rule.status !== undefined && ((rule.status as number) < 100 || (rule.status as number) > 599)) {
    throw new TypeError('fault status must be an HTTP status code');
  }
  if (rule.dialect !== undefined && !DIALECTS.includes(rule.dialect as FaultDialect)) {
    throw new TypeError(`fault dialect must be one of ${DIALECTS.join(', ')}`);
  }
  return rule as unknown as FaultRule;
}

export class FaultList {
  private armed: ArmedRule[] = [];

  add(rule: FaultRule): void {
    const checked = validateFaultRule(rule);
    const times = checked.times ?? 1;
    this.armed.push({
      rule: { ...checked },
      method: checked.method?.toUpperCase(),
      company: checked.company === undefined ? undefined : String(checked.company),
      matchPath: pathMatcher(checked.path),
      remaining: times === 0 ? Number.POSITIVE_INFINITY : times,
    });
  }

  clear(): void {
    this.armed = [];
  }

  /** Active rules, for inspection. */
  list(): FaultRule[] {
    return this.armed.map((a) => ({
      ...a.rule,
      times: a.remaining === Number.POSITIVE_INFINITY ? 0 : a.remaining,
    }));
  }

  /**
   * First matching rule, consumed by one firing; `path` is relative to `/rest`, `companyId` the
   * request's x-company-id header, if any.
   */
  take(method: string, path: string, companyId?: string): FaultRule | undefined {
    const m = method.toUpperCase();
    const index = this.armed.findIndex(
      (a) =>
        (a.method === undefined || a.method === m) &&
        (a.company === undefined || a.company === companyId?.trim()) &&
        a.matchPath(path),
    );
    if (index < 0) return undefined;
    const hit = this.armed[index] as ArmedRule;
    hit.remaining -= 1;
    if (hit.remaining <= 0) this.armed.splice(index, 1);
    return hit.rule;
  }
}

export type ListRoute = 'companies' | 'api_keys' | 'email_accounts' | 'mailboxes';

/** The body a 'large-page' fault answers on a list endpoint: `size` invented items, claiming one page. */
export function largePageBody(route: ListRoute, size: number): unknown {
  const items = Array.from({ length: size }, (_, i) => i);
  const pagination_data = { total_elements: size, total_pages: 1, current_page_number: 1, page_size: size };
  switch (route) {
    case 'companies':
      return {
        content: items.map((i) => ({
          id: 900_001 + i,
          name: `Synthetic Company ${i + 1}`,
          owner: 'Olivia Owner',
          active: true,
          running_campaigns: 0,
          email_slots: 0,
          linkedin_slots: 0,
        })),
        pagination_data,
      };
    case 'api_keys':
      return {
        content: items.map((i) => ({
          api_key: `wpk_synthetic_${String(i).padStart(8, '0')}`,
          label: `Key ${i + 1}`,
        })),
        pagination_data,
      };
    case 'email_accounts':
      return {
        content: items.map((i) => ({
          id: 900_001 + i,
          type: 'SMTP',
          details: {
            email: `box${i + 1}@synthetic.example`,
            provider: 'Other',
            error: null,
            from_name: 'Synthetic Sender',
            imap_id: null,
            running_campaigns: 0,
          },
        })),
      };
    case 'mailboxes':
      return items.map((i) => ({
        id: 900_001 + i,
        type: 'SMTP',
        details: {
          email: `box${i + 1}@synthetic.example`,
          provider: 'Other',
          login: `box${i + 1}@synthetic.example`,
          server: 'smtp.synthetic.example',
          port: 587,
          from_name: 'Synthetic Sender',
          error: null,
          imap_id: null,
          daily_limit: 50,
          sent_today: 0,
        },
      }));
  }
}
