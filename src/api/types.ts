/** Shapes of the API (shared/spec/agency-api.md section 2), and small validators for the boundary. */
import { ResponseError } from '../errors.js';
import { option } from '../terms.js';
import { ExactInteger, exactInteger, isNumeric } from './json.js';

export interface Company {
  id: number;
  name: string;
  owner: string;
  active: boolean;
  running_campaigns?: number;
  email_slots?: number;
  linkedin_slots?: number;
}

/** The creation response has no slot or campaign counters. */
export interface CreatedCompany {
  id: number;
  name: string;
  owner: string;
  active: boolean;
}

export interface ApiKey {
  api_key: string;
  label: string;
}

export interface PaginationData {
  /** Shown for counts only; a page without it is still read. */
  total_elements?: number;
  total_pages: number;
  current_page_number: number;
  /** Shown for counts only; a page without it is still read. */
  page_size?: number;
}

export interface Page<T> {
  content: T[];
  pagination_data: PaginationData | undefined;
}

export interface Webhook {
  target_url: string;
  event: string;
}

/** Mailbox and email-account records are only partly documented: keep whatever comes back. */
export interface Mailbox {
  id: number;
  type?: string;
  details?: Record<string, unknown>;
}

export interface EmailAccount {
  id: number;
  type?: string;
  details?: Record<string, unknown>;
}

/** A campaign of GET /v1/campaign_list (documented fields; more may come back and are kept). */
export interface Campaign {
  id: number;
  name?: string;
  status?: string;
  created?: string;
  from_name?: string;
  from_email?: string;
  folder_name?: string;
  per_day?: number;
  error?: unknown;
  [field: string]: unknown;
}

/** A user of a client company (GET /v2/agency/companies/{cid}/users). */
export interface CompanyUser {
  id?: number;
  email?: string;
  name?: string;
  /** admin, owner, authorized_team_member, guest. */
  roles?: string[];
  guest_permissions?: unknown;
  [field: string]: unknown;
}

/** One guest of an invitation (POST .../invite_guest), as the service takes it. */
export interface GuestInvitation {
  email: string;
  name?: string;
  /** [] or ["mailboxes"]. */
  guest_permissions: 'mailboxes'[];
}

/** A counter of the deliverability listing: this period and the period of the same length before it. */
export interface PeriodPair {
  current_period: number;
  previous_period: number;
}

/** A client of GET /v2/agency/deliverability (totals of actions; clients with no activity left out). */
export interface Deliverability {
  id: number;
  name: string;
  emails_sent: PeriodPair;
  delivered_emails: PeriodPair;
  views: PeriodPair;
  replies: PeriodPair;
  bounces: PeriodPair;
  [field: string]: unknown;
}

const DELIVERABILITY_COUNTERS = ['emails_sent', 'delivered_emails', 'views', 'replies', 'bounces'] as const;
/** A counter of the deliverability listing: its value is a {current_period, previous_period} pair. */
export type DeliverabilityCounter = (typeof DELIVERABILITY_COUNTERS)[number];

/** One page of the agency blacklist (0-based paging). */
export interface BlacklistPage {
  items: string[];
  total: number;
}

export type JsonObject = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonObject {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof ExactInteger)
  );
}

/** An answer of the right status whose body has the wrong shape. `debugging`: --debug already shows it. */
export function shapeError(what: string, why: string, debugging = false): ResponseError {
  return new ResponseError(`The service's answer to ${what} was not understood: ${why}`, null, {
    hint: debugging
      ? 'Check that the base URL points at the agency API.'
      : `Run with ${option('debug')} to see the response, or check that the base URL points at the agency API.`,
  });
}

type TypeGuard<T> = (value: unknown) => value is T;

export const isCompany: TypeGuard<Company> = (v): v is Company =>
  isRecord(v) && isNumeric(v.id) && typeof v.name === 'string';

export const isApiKey: TypeGuard<ApiKey> = (v): v is ApiKey => isRecord(v) && typeof v.api_key === 'string';

export const isWebhook: TypeGuard<Webhook> = (v): v is Webhook => isRecord(v) && typeof v.event === 'string';

export const isCompanyUser: TypeGuard<CompanyUser> = (v): v is CompanyUser =>
  isRecord(v) && (isNumeric(v.id) || typeof v.email === 'string');

const isPeriodPair = (v: unknown): v is PeriodPair =>
  isRecord(v) && typeof v.current_period === 'number' && typeof v.previous_period === 'number';

export const isDeliverability: TypeGuard<Deliverability> = (v): v is Deliverability =>
  isRecord(v) &&
  isNumeric(v.id) &&
  typeof v.name === 'string' &&
  DELIVERABILITY_COUNTERS.every((field) => isPeriodPair(v[field]));

/**
 * An id as a key of a Map or Set: an id beyond 2^53 is an ExactInteger, a new object at each reading,
 * so two readings of the same id are equal only by their digits.
 */
export function idKey(id: number): string {
  return String(id);
}

/** A campaign's or company's id as the tool holds it: as read (exact beyond 2^53), a numeric string as its number. */
export function exactId(value: unknown): number {
  return isNumeric(value) ? value : exactInteger(String(value));
}

/** Whether two ids are the same id (by their digits: never through a double). */
export function sameId(a: number | null, b: number | null): boolean {
  return a === null || b === null ? a === b : idKey(a) === idKey(b);
}

export const isIdentified: TypeGuard<{ id: number }> = (v): v is { id: number } =>
  isRecord(v) && (isNumeric(v.id) || typeof v.id === 'string');

export function expectArray<T>(value: unknown, check: TypeGuard<T>, what: string, debugging = false): T[] {
  if (!Array.isArray(value)) throw shapeError(what, 'expected a list', debugging);
  value.forEach((item, index) => {
    if (!check(item)) throw shapeError(what, `item ${index + 1} lacks the expected fields`, debugging);
  });
  return value as T[];
}

/** An answer's body as an object; an empty body is named with its status. */
export function expectObject(
  res: { status: number; data?: unknown },
  debugging: boolean,
  what: string,
  expected: string,
): JsonObject {
  if (isRecord(res.data)) return res.data;
  const why =
    res.data === undefined
      ? `expected ${expected}, but it answered ${res.status} with an empty body`
      : `expected ${expected}`;
  throw shapeError(what, why, debugging);
}

/** A bare list, or one wrapped as {content}. */
export function expectList<T>(debugging: boolean, data: unknown, check: TypeGuard<T>, what: string): T[] {
  if (Array.isArray(data)) return expectArray(data, check, what, debugging);
  if (isRecord(data) && Array.isArray(data.content)) return expectArray(data.content, check, what, debugging);
  throw shapeError(what, 'expected a list or an object with "content"', debugging);
}

/**
 * The older names of the paging fields (an older help article's deliverability sample), read as the
 * specification's: total_count = total_elements, pages_count = total_pages.
 */
const OLDER_PAGING_NAMES = { total_count: 'total_elements', pages_count: 'total_pages' } as const;

function withSpecPagingNames(raw: JsonObject): JsonObject {
  const renamed: JsonObject = { ...raw };
  for (const [older, name] of Object.entries(OLDER_PAGING_NAMES)) {
    if (renamed[name] === undefined && renamed[older] !== undefined) renamed[name] = renamed[older];
    delete renamed[older];
  }
  return renamed;
}

export function expectPage<T>(value: unknown, check: TypeGuard<T>, what: string, debugging = false): Page<T> {
  if (!isRecord(value)) throw shapeError(what, 'expected an object with "content"', debugging);
  const content = expectArray(value.content, check, what, debugging);
  const raw = isRecord(value.pagination_data)
    ? withSpecPagingNames(value.pagination_data)
    : value.pagination_data;
  let pagination: PaginationData | undefined;
  if (isRecord(raw)) {
    // Paging needs only these two to know where it is and when to stop; the other two fields of the
    // specification are used for counts, and may be absent (never of another type).
    for (const field of ['total_pages', 'current_page_number'] as const) {
      if (!isNumeric(raw[field]))
        throw shapeError(what, `pagination_data.${field} is not a number`, debugging);
    }
    for (const field of ['total_elements', 'page_size'] as const) {
      if (raw[field] !== undefined && !isNumeric(raw[field]))
        throw shapeError(what, `pagination_data.${field} is not a number`, debugging);
    }
    pagination = raw as unknown as PaginationData;
  } else if (raw !== undefined) {
    throw shapeError(what, 'pagination_data is not an object', debugging);
  }
  return { content, pagination_data: pagination };
}

/** The values of a blacklist answer: strings, or objects holding the value. */
export function blacklistValues(raw: unknown, kind: 'domains' | 'emails', debugging = false): string[] {
  const isValue = (v: unknown): v is string | JsonObject => typeof v === 'string' || isRecord(v);
  return expectArray(raw, isValue, `the blacklist of ${kind}`, debugging).map((v) =>
    typeof v === 'string' ? v : String(v[kind === 'domains' ? 'domain' : 'email'] ?? v.value),
  );
}

/** The v1 envelope's verdict, `{"status": {"status": "OK" | "ERROR", ...}}`, if the body is one. */
export function v1Envelope(data: unknown): 'OK' | 'ERROR' | undefined {
  if (!isRecord(data) || !isRecord(data.status) || typeof data.status.status !== 'string') return undefined;
  const verdict = data.status.status.toUpperCase();
  return verdict === 'OK' || verdict === 'ERROR' ? verdict : undefined;
}

/**
 * A v1 success that carries no data: `{"status": {"status": "OK"}, "message": "No campaigns found"}`
 * (or the bare `{"message": ...}`) is the service's empty list.
 */
export function isV1Nothing(data: unknown): boolean {
  if (!isRecord(data)) return false;
  return Object.entries(data).every(
    ([key, value]) =>
      (key === 'status' && v1Envelope(data) === 'OK') || (key === 'message' && typeof value === 'string'),
  );
}
