/**
 * The sandbox's records, the state file's shape and the error every rule throws. Shared by the
 * store, the resource modules and the server; no behaviour lives here.
 */

export const MAIN_AGENCY_ID = 1;
export const FOREIGN_AGENCY_ID = 2;
export const FIRST_COMPANY_ID = 1001;
export const AUTO_KEY_LABEL = 'Default key';

/**
 * A broken rule: the server answers `status` with `detail` in the path's error dialect; `code` is
 * the v1 dialect's code when the default for the status is not the service's.
 */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly code?: string,
  ) {
    super(detail);
    this.name = 'SandboxError';
  }
}

type Role = 'AGENCY_OWNER' | 'AGENCY_MEMBER';

export interface AgencyRecord {
  id: number;
  name: string;
  domain: string;
}

export interface UserRecord {
  id: number;
  agencyId: number;
  name: string;
  email: string;
  role: Role;
  hqKey: string;
}

export interface CompanyRecord {
  id: number;
  agencyId: number;
  name: string;
  ownerId: number;
  active: boolean;
  runningCampaigns: number;
  emailSlots: number;
  linkedinSlots: number;
  /** Seeded companies have invented mailboxes, webhooks and email accounts; created ones start empty. */
  seeded: boolean;
}

export interface KeyRecord {
  key: string;
  label: string;
  companyId: number;
  /** The user who created the key; key lists are per user. */
  userId: number;
}

/** The JSON written to --state. */
export interface SandboxState {
  version: 1;
  nextCompanyId: number;
  agencies: AgencyRecord[];
  users: UserRecord[];
  companies: CompanyRecord[];
  keys: KeyRecord[];
  /** Webhooks of the accounts whose subscriptions changed (by account, e.g. 'company:1001'); others are seeded. */
  webhooks?: Record<string, WebhookRecord[]>;
  /** Each agency's blacklist (by agency id), seeded on first use. */
  blacklists?: Record<string, BlacklistRecord>;
  /** Guests of the companies whose guests changed (by company id); others are seeded. */
  guests?: Record<string, GuestRecord[]>;
  /** What the v2 campaign API changed (by account, then campaign id); other campaigns are as seeded. */
  campaigns?: Record<string, Record<string, CampaignRecord>>;
}

/** A campaign's status once run, paused or stopped; its Bounce Shield once set (null = cleared). */
export interface CampaignRecord {
  status?: string;
  threshold?: number | null;
}

/** A guest of a client company: invited (pending, invisible to the API) or accepted (a user). */
export interface GuestRecord {
  id: number;
  email: string;
  name: string;
  /** [] or ["mailboxes"]. */
  permissions: string[];
  accepted: boolean;
}

export interface WebhookRecord {
  target_url: string;
  /** Upper case, as listed. */
  event: string;
}

export interface BlacklistRecord {
  emails: string[];
  domains: string[];
}

export type Principal =
  | { kind: 'hq'; user: UserRecord; agency: AgencyRecord }
  | { kind: 'client'; key: KeyRecord; company: CompanyRecord; agency: AgencyRecord };

export interface HqContext {
  level: 'hq';
  account: string;
  agency: AgencyRecord;
  user: UserRecord;
}

interface ClientContext {
  level: 'client';
  account: string;
  agency: AgencyRecord;
  company: CompanyRecord;
  /** Set when the HQ key acts through x-company-id. */
  user?: UserRecord;
}

/** The account a request acts on; `account` is also the rate-limit lane. */
export type RequestContext = HqContext | ClientContext;

export interface SeedOptions {
  /** Companies of the main agency (default 120; 0 = an empty agency). */
  companies?: number;
  /** Derive every API key from this text (reproducible output); default: random keys. */
  keySeed?: string;
}

export function accountOfAgency(agencyId: number): string {
  return `hq:${agencyId}`;
}

export function accountOfCompany(companyId: number): string {
  return `company:${companyId}`;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
