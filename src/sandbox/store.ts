/**
 * The sandbox's state and every business rule of the specification, without HTTP: who a key
 * belongs to, which account a request acts on, and what each endpoint answers. Rule violations
 * are thrown as SandboxError(status, detail); the server turns them into the error body.
 */
import { randomBytes } from 'node:crypto';
import {
  companyEmailAccounts,
  companyMailboxes,
  companyNames,
  companyWebhooks,
  type EmailAccountItem,
  FOREIGN_COMPANY_NAMES,
  hqMailboxes,
  hqWebhooks,
  type MailboxItem,
  type WebhookItem,
} from './world.js';

export const PAGE_SIZE = 50;
export const MAX_COMPANIES_PER_REQUEST = 10;
export const FIRST_COMPANY_ID = 1001;
export const AUTO_KEY_LABEL = 'Default key';

export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'SandboxError';
  }
}

export type Role = 'AGENCY_OWNER' | 'AGENCY_MEMBER';

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
}

export type Principal =
  | { kind: 'hq'; user: UserRecord; agency: AgencyRecord }
  | { kind: 'client'; key: KeyRecord; company: CompanyRecord; agency: AgencyRecord };

/** The account a request acts on; `account` is also the rate-limit lane. */
export type RequestContext =
  | { level: 'hq'; account: string; agency: AgencyRecord; user: UserRecord }
  | {
      level: 'client';
      account: string;
      agency: AgencyRecord;
      company: CompanyRecord;
      /** Set when the HQ key acts through x-company-id. */
      user?: UserRecord;
    };

export interface HqContext {
  level: 'hq';
  account: string;
  agency: AgencyRecord;
  user: UserRecord;
}

export interface Page<T> {
  content: T[];
  pagination_data: {
    total_elements: number;
    total_pages: number;
    current_page_number: number;
    page_size: number;
  };
}

export interface CompanyListItem {
  id: number;
  name: string;
  owner: string;
  active: boolean;
  running_campaigns: number;
  email_slots: number;
  linkedin_slots: number;
}

export interface CreatedCompany {
  id: number;
  name: string;
  owner: string;
  active: boolean;
}

export interface SeedOptions {
  /** Companies of the main agency (default 120). */
  companies?: number;
}

export const MAIN_AGENCY_ID = 1;
export const FOREIGN_AGENCY_ID = 2;

export function newHqKey(): string {
  return `wpk_hq_${randomBytes(16).toString('hex')}`;
}

export function newClientKey(): string {
  return `wpk_${randomBytes(16).toString('hex')}`;
}

export function accountOfAgency(agencyId: number): string {
  return `hq:${agencyId}`;
}

export function accountOfCompany(companyId: number): string {
  return `company:${companyId}`;
}

/** 1-based page number from the query; absent = 1. */
export function parsePage(raw: string | undefined): number {
  if (raw === undefined) return 1;
  const n = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new SandboxError(400, `page must be a positive integer (got "${raw}")`);
  }
  return n;
}

export function parseActive(raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new SandboxError(400, `active must be true or false (got "${raw}")`);
}

/** One page out of a list that is already in order: O(page), whatever the list's length. */
export function pageOf<T, U>(items: readonly T[], page: number, map: (item: T) => U): Page<U> {
  const start = (page - 1) * PAGE_SIZE;
  return {
    content: items.slice(start, start + PAGE_SIZE).map(map),
    pagination_data: {
      total_elements: items.length,
      total_pages: Math.ceil(items.length / PAGE_SIZE),
      current_page_number: page,
      page_size: PAGE_SIZE,
    },
  };
}

interface AgencyIndex {
  all: CompanyRecord[];
  active: CompanyRecord[];
  inactive: CompanyRecord[];
  names: Set<string>;
}

export class Store {
  private state: SandboxState;
  private readonly agencyById = new Map<number, AgencyRecord>();
  private readonly userById = new Map<number, UserRecord>();
  private readonly userByHqKey = new Map<string, UserRecord>();
  private readonly companyById = new Map<number, CompanyRecord>();
  private readonly byAgency = new Map<number, AgencyIndex>();
  private readonly keyByValue = new Map<string, KeyRecord>();
  /** `${companyId}:${userId}` → that user's keys of that company, in creation order. */
  private readonly keysByOwner = new Map<string, KeyRecord[]>();
  private readonly keyCountByCompany = new Map<number, number>();

  /** Called after every mutation (the server persists the state there). */
  onChange: (() => void) | undefined;

  constructor(state: SandboxState) {
    this.state = state;
    this.reindex();
  }

  /** A fresh world: the main agency (two users, `companies` companies) and a foreign agency. */
  static seed(options: SeedOptions = {}): Store {
    const count = options.companies ?? 120;
    if (!Number.isSafeInteger(count) || count < 0) throw new RangeError('seed.companies must be >= 0');
    const main: AgencyRecord = {
      id: MAIN_AGENCY_ID,
      name: 'Northwind Outreach',
      domain: 'northwind.example',
    };
    const foreign: AgencyRecord = {
      id: FOREIGN_AGENCY_ID,
      name: 'Southwind Partners',
      domain: 'southwind.example',
    };
    const users: UserRecord[] = [
      {
        id: 1,
        agencyId: main.id,
        name: 'Olivia Owner',
        email: 'olivia@northwind.example',
        role: 'AGENCY_OWNER',
        hqKey: newHqKey(),
      },
      {
        id: 2,
        agencyId: main.id,
        name: 'Tom Teammate',
        email: 'tom@northwind.example',
        role: 'AGENCY_MEMBER',
        hqKey: newHqKey(),
      },
      {
        id: 3,
        agencyId: foreign.id,
        name: 'Frank Foreign',
        email: 'frank@southwind.example',
        role: 'AGENCY_OWNER',
        hqKey: newHqKey(),
      },
    ];
    const companies: CompanyRecord[] = [];
    const keys: KeyRecord[] = [];
    let nextId = FIRST_COMPANY_ID;
    const add = (agencyId: number, name: string, ownerId: number, active: boolean, i: number) => {
      const id = nextId++;
      const runningCampaigns = active ? i % 5 : 0;
      companies.push({
        id,
        agencyId,
        name,
        ownerId,
        active,
        runningCampaigns,
        emailSlots: companyMailboxes(id, name).filter((m) => m.type === 'SMTP').length,
        linkedinSlots: i % 4 === 0 ? 1 : 0,
        seeded: true,
      });
      keys.push({ key: newClientKey(), label: AUTO_KEY_LABEL, companyId: id, userId: ownerId });
      if (i % 4 === 0) keys.push({ key: newClientKey(), label: 'Zapier', companyId: id, userId: ownerId });
      if (i % 5 === 1 && agencyId === main.id) {
        keys.push({ key: newClientKey(), label: 'Reporting', companyId: id, userId: 1 });
      }
    };
    // Documented pattern: index i = id - 1001; every 7th (i % 7 === 6) is inactive, except 1042 (i = 41),
    // the id of the contract's and README's examples, so that they work as written; Tom owns i % 3 === 1.
    companyNames(count).forEach((name, i) => {
      add(main.id, name, i % 3 === 1 ? 2 : 1, i % 7 !== 6 || i === 41, i);
    });
    FOREIGN_COMPANY_NAMES.forEach((name, i) => {
      add(foreign.id, name, 3, i !== FOREIGN_COMPANY_NAMES.length - 1, i);
    });
    return new Store({
      version: 1,
      nextCompanyId: nextId,
      agencies: [main, foreign],
      users,
      companies,
      keys,
    });
  }

  /** Validates a parsed state file; throws Error saying what is wrong. */
  static fromJSON(data: unknown): Store {
    return new Store(checkState(data));
  }

  toJSON(): SandboxState {
    return this.state;
  }

  // ---- lookups (also used by tests and the control API) ----

  get mainAgency(): AgencyRecord {
    return this.agencyById.get(MAIN_AGENCY_ID) as AgencyRecord;
  }

  get foreignAgency(): AgencyRecord {
    return this.agencyById.get(FOREIGN_AGENCY_ID) as AgencyRecord;
  }

  agencies(): AgencyRecord[] {
    return [...this.state.agencies];
  }

  users(agencyId?: number): UserRecord[] {
    return this.state.users.filter((u) => agencyId === undefined || u.agencyId === agencyId);
  }

  user(id: number): UserRecord | undefined {
    return this.userById.get(id);
  }

  /** Companies in id order, of one agency or of all. */
  companies(agencyId?: number, filter: { active?: boolean; ownerId?: number } = {}): CompanyRecord[] {
    const source =
      agencyId === undefined
        ? this.state.companies
        : filter.active === undefined
          ? (this.byAgency.get(agencyId)?.all ?? [])
          : ((filter.active ? this.byAgency.get(agencyId)?.active : this.byAgency.get(agencyId)?.inactive) ??
            []);
    return source.filter(
      (c) =>
        (filter.active === undefined || c.active === filter.active) &&
        (filter.ownerId === undefined || c.ownerId === filter.ownerId),
    );
  }

  company(id: number): CompanyRecord | undefined {
    return this.companyById.get(id);
  }

  findCompanyByName(name: string, agencyId: number = MAIN_AGENCY_ID): CompanyRecord | undefined {
    return this.byAgency.get(agencyId)?.all.find((c) => c.name === name);
  }

  /** Companies the user may act on: all of the agency for its owner, their own for a member. */
  accessibleCompanies(userId: number): CompanyRecord[] {
    const user = this.userById.get(userId);
    if (!user) return [];
    return this.companies(user.agencyId).filter((c) => this.hasAccess(user, c));
  }

  hasAccess(user: UserRecord, company: CompanyRecord): boolean {
    return (
      company.agencyId === user.agencyId && (user.role === 'AGENCY_OWNER' || company.ownerId === user.id)
    );
  }

  /** Keys of a company, of one user or of every user. */
  keysOf(companyId: number, userId?: number): KeyRecord[] {
    if (userId !== undefined) return [...(this.keysByOwner.get(`${companyId}:${userId}`) ?? [])];
    return this.state.keys.filter((k) => k.companyId === companyId);
  }

  keyCount(companyId: number): number {
    return this.keyCountByCompany.get(companyId) ?? 0;
  }

  /** Makes `key` the HQ key of user `userId` (the `hqKey` option). */
  setHqKey(userId: number, key: string): void {
    const user = this.userById.get(userId);
    if (!user) throw new RangeError(`no user ${userId}`);
    if (user.hqKey === key) return;
    const holder = this.userByHqKey.get(key);
    if ((holder && holder !== user) || this.keyByValue.has(key)) {
      throw new RangeError('that key already belongs to someone else');
    }
    this.userByHqKey.delete(user.hqKey);
    user.hqKey = key;
    this.userByHqKey.set(key, user);
    this.changed();
  }

  // ---- authentication and context ----

  authenticate(key: string): Principal | undefined {
    const user = this.userByHqKey.get(key);
    if (user) return { kind: 'hq', user, agency: this.agencyById.get(user.agencyId) as AgencyRecord };
    const record = this.keyByValue.get(key);
    if (!record) return undefined;
    const company = this.companyById.get(record.companyId) as CompanyRecord;
    return {
      kind: 'client',
      key: record,
      company,
      agency: this.agencyById.get(company.agencyId) as AgencyRecord,
    };
  }

  /** Applies the x-company-id rules in the specification's order: 400, 403, 404, 409, 403. */
  resolveContext(principal: Principal, companyHeader: string | undefined): RequestContext {
    if (companyHeader === undefined) {
      return principal.kind === 'hq'
        ? {
            level: 'hq',
            account: accountOfAgency(principal.agency.id),
            agency: principal.agency,
            user: principal.user,
          }
        : {
            level: 'client',
            account: accountOfCompany(principal.company.id),
            agency: principal.agency,
            company: principal.company,
          };
    }
    if (!/^\d+$/.test(companyHeader)) {
      throw new SandboxError(400, `x-company-id must be a number (got "${companyHeader}")`);
    }
    if (principal.kind !== 'hq') {
      throw new SandboxError(
        403,
        "x-company-id can only be used with the agency's main account key; this key belongs to a client account",
      );
    }
    const company = this.companyInAgency(principal.agency, companyHeader);
    if (!company.active) {
      throw new SandboxError(409, `Company ${company.id} is inactive`);
    }
    if (!this.hasAccess(principal.user, company)) {
      throw new SandboxError(403, `User ${principal.user.name} has no access to company ${company.id}`);
    }
    return {
      level: 'client',
      account: accountOfCompany(company.id),
      agency: principal.agency,
      company,
      user: principal.user,
    };
  }

  /** Agency endpoints are served on the HQ account only. */
  requireHq(context: RequestContext): HqContext {
    if (context.level === 'hq') return context;
    if (context.user) {
      throw new SandboxError(
        403,
        "Agency endpoints act on the agency's HQ account; call them without x-company-id",
      );
    }
    throw new SandboxError(403, "Agency endpoints require the agency's main account key");
  }

  // ---- account endpoints ----

  me(context: RequestContext): Record<string, unknown> {
    const agency = { id: context.agency.id, name: context.agency.name };
    if (context.level === 'hq') {
      const { user } = context;
      return { id: user.id, email: user.email, name: user.name, role: user.role, agency, account_type: 'HQ' };
    }
    return {
      id: context.company.id,
      company_id: context.company.id,
      company_name: context.company.name,
      account_type: 'CLIENT',
      agency,
    };
  }

  mailboxes(context: RequestContext): MailboxItem[] {
    if (context.level === 'hq') return hqMailboxes(context.agency.id, context.agency.domain);
    const c = context.company;
    return c.seeded ? companyMailboxes(c.id, c.name) : [];
  }

  webhooks(context: RequestContext): { webhooks: WebhookItem[] } {
    if (context.level === 'hq') return { webhooks: hqWebhooks(context.agency.domain) };
    const c = context.company;
    return { webhooks: c.seeded ? companyWebhooks(c.id, c.name) : [] };
  }

  // ---- agency endpoints ----

  listCompanies(context: HqContext, query: { page?: string; active?: string }): Page<CompanyListItem> {
    const page = parsePage(query.page);
    const active = parseActive(query.active);
    const index = this.byAgency.get(context.agency.id);
    const list = !index ? [] : active === undefined ? index.all : active ? index.active : index.inactive;
    return pageOf(list, page, (c) => this.listItem(c));
  }

  createCompanies(context: HqContext, body: unknown): { companies: CreatedCompany[] } {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new SandboxError(400, 'Request body must be an object with a "companies" array');
    }
    const items = (body as { companies?: unknown }).companies;
    if (!Array.isArray(items)) throw new SandboxError(400, '"companies" must be an array');
    if (items.length === 0) throw new SandboxError(400, '"companies" must not be empty');
    if (items.length > MAX_COMPANIES_PER_REQUEST) {
      throw new SandboxError(
        400,
        `At most ${MAX_COMPANIES_PER_REQUEST} companies can be created per request (got ${items.length})`,
      );
    }
    const names = items.map((item, i) => {
      const name = typeof item === 'object' && item !== null ? (item as { name?: unknown }).name : undefined;
      if (typeof name !== 'string' || name.trim() === '') {
        throw new SandboxError(400, `companies[${i}].name must be a non-empty string`);
      }
      return name;
    });
    const seen = new Set<string>();
    const index = this.agencyIndex(context.agency.id);
    for (const name of names) {
      if (seen.has(name)) {
        throw new SandboxError(400, `Duplicate company name in request: "${name}"; no company was created`);
      }
      seen.add(name);
      if (index.names.has(name)) {
        throw new SandboxError(400, `A company named "${name}" already exists; no company was created`);
      }
    }
    const created = names.map((name) => {
      const company: CompanyRecord = {
        id: this.state.nextCompanyId++,
        agencyId: context.agency.id,
        name,
        ownerId: context.user.id,
        active: true,
        runningCampaigns: 0,
        emailSlots: 0,
        linkedinSlots: 0,
        seeded: false,
      };
      this.state.companies.push(company);
      this.indexCompany(company);
      this.addKey({
        key: newClientKey(),
        label: AUTO_KEY_LABEL,
        companyId: company.id,
        userId: context.user.id,
      });
      return { id: company.id, name, owner: context.user.name, active: true };
    });
    this.changed();
    return { companies: created };
  }

  emailAccounts(context: HqContext, companyId: string): { content: EmailAccountItem[] } {
    const c = this.companyForAgencyEndpoint(context, companyId);
    return { content: c.seeded ? companyEmailAccounts(c.id, c.name, c.runningCampaigns) : [] };
  }

  listKeys(
    context: HqContext,
    companyId: string,
    query: { page?: string },
  ): Page<{ api_key: string; label: string }> {
    const page = parsePage(query.page);
    const c = this.companyForAgencyEndpoint(context, companyId);
    const mine = this.keysByOwner.get(`${c.id}:${context.user.id}`) ?? [];
    return pageOf(mine, page, (k) => ({ api_key: k.key, label: k.label }));
  }

  createKey(context: HqContext, companyId: string, body: unknown): { api_key: string } {
    const c = this.companyForAgencyEndpoint(context, companyId);
    const label =
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as { label?: unknown }).label
        : undefined;
    if (typeof label !== 'string' || label.trim() === '') {
      throw new SandboxError(400, 'label is required and must be a non-empty string');
    }
    const record: KeyRecord = { key: newClientKey(), label, companyId: c.id, userId: context.user.id };
    this.addKey(record);
    this.changed();
    return { api_key: record.key };
  }

  // ---- internals ----

  private listItem(c: CompanyRecord): CompanyListItem {
    return {
      id: c.id,
      name: c.name,
      owner: this.userById.get(c.ownerId)?.name ?? '',
      active: c.active,
      running_campaigns: c.runningCampaigns,
      email_slots: c.emailSlots,
      linkedin_slots: c.linkedinSlots,
    };
  }

  /** A company id from a path or header that must name a company of this agency (else 404). */
  private companyInAgency(agency: AgencyRecord, raw: string): CompanyRecord {
    const company = /^\d+$/.test(raw) ? this.companyById.get(Number(raw)) : undefined;
    if (!company || company.agencyId !== agency.id) {
      throw new SandboxError(404, `Company ${raw} not found in agency ${agency.name}`);
    }
    return company;
  }

  private companyForAgencyEndpoint(context: HqContext, raw: string): CompanyRecord {
    const company = this.companyInAgency(context.agency, raw);
    if (!this.hasAccess(context.user, company)) {
      throw new SandboxError(403, `User ${context.user.name} has no access to company ${company.id}`);
    }
    return company;
  }

  private changed(): void {
    this.onChange?.();
  }

  private agencyIndex(agencyId: number): AgencyIndex {
    let index = this.byAgency.get(agencyId);
    if (!index) {
      index = { all: [], active: [], inactive: [], names: new Set() };
      this.byAgency.set(agencyId, index);
    }
    return index;
  }

  private indexCompany(c: CompanyRecord): void {
    this.companyById.set(c.id, c);
    const index = this.agencyIndex(c.agencyId);
    index.all.push(c);
    (c.active ? index.active : index.inactive).push(c);
    index.names.add(c.name);
  }

  private addKey(k: KeyRecord): void {
    this.state.keys.push(k);
    this.indexKey(k);
  }

  private indexKey(k: KeyRecord): void {
    this.keyByValue.set(k.key, k);
    const slot = `${k.companyId}:${k.userId}`;
    const list = this.keysByOwner.get(slot);
    if (list) list.push(k);
    else this.keysByOwner.set(slot, [k]);
    this.keyCountByCompany.set(k.companyId, (this.keyCountByCompany.get(k.companyId) ?? 0) + 1);
  }

  private reindex(): void {
    this.state.companies.sort((a, b) => a.id - b.id);
    for (const a of this.state.agencies) this.agencyById.set(a.id, a);
    for (const u of this.state.users) {
      this.userById.set(u.id, u);
      this.userByHqKey.set(u.hqKey, u);
    }
    for (const c of this.state.companies) this.indexCompany(c);
    for (const k of this.state.keys) this.indexKey(k);
  }
}

// ---- state file validation ----

function fail(what: string): never {
  throw new Error(what);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkFields(
  v: unknown,
  where: string,
  fields: Record<string, 'number' | 'string' | 'boolean'>,
): void {
  if (!isObject(v)) fail(`${where} is not an object`);
  for (const [field, type] of Object.entries(fields)) {
    if (typeof v[field] !== type) fail(`${where}.${field} is not a ${type}`);
  }
}

function checkState(data: unknown): SandboxState {
  if (!isObject(data)) fail('the state is not a JSON object');
  if (data.version !== 1) fail(`unsupported state version ${JSON.stringify(data.version)}`);
  if (typeof data.nextCompanyId !== 'number') fail('nextCompanyId is not a number');
  for (const list of ['agencies', 'users', 'companies', 'keys']) {
    if (!Array.isArray(data[list])) fail(`${list} is not an array`);
  }
  const state = data as unknown as SandboxState;
  state.agencies.forEach((a, i) => {
    checkFields(a, `agencies[${i}]`, { id: 'number', name: 'string', domain: 'string' });
  });
  for (const id of [MAIN_AGENCY_ID, FOREIGN_AGENCY_ID]) {
    if (!state.agencies.some((a) => a.id === id)) fail(`agency ${id} is missing`);
  }
  const agencyIds = new Set(state.agencies.map((a) => a.id));
  const keys = new Set<string>();
  const unique = (key: string, where: string) => {
    if (keys.has(key)) fail(`${where} repeats a key`);
    keys.add(key);
  };
  state.users.forEach((u, i) => {
    checkFields(u, `users[${i}]`, {
      id: 'number',
      agencyId: 'number',
      name: 'string',
      email: 'string',
      role: 'string',
      hqKey: 'string',
    });
    if (!agencyIds.has(u.agencyId)) fail(`users[${i}] belongs to an unknown agency`);
    if (u.role !== 'AGENCY_OWNER' && u.role !== 'AGENCY_MEMBER') fail(`users[${i}].role is unknown`);
    unique(u.hqKey, `users[${i}]`);
  });
  if (!state.users.some((u) => u.id === 1 && u.agencyId === MAIN_AGENCY_ID)) fail('user 1 is missing');
  const userIds = new Set(state.users.map((u) => u.id));
  const companyIds = new Set<number>();
  state.companies.forEach((c, i) => {
    checkFields(c, `companies[${i}]`, {
      id: 'number',
      agencyId: 'number',
      name: 'string',
      ownerId: 'number',
      active: 'boolean',
      runningCampaigns: 'number',
      emailSlots: 'number',
      linkedinSlots: 'number',
      seeded: 'boolean',
    });
    if (companyIds.has(c.id)) fail(`companies[${i}] repeats id ${c.id}`);
    if (c.id >= state.nextCompanyId) fail(`companies[${i}].id is not below nextCompanyId`);
    if (!agencyIds.has(c.agencyId)) fail(`companies[${i}] belongs to an unknown agency`);
    if (!userIds.has(c.ownerId)) fail(`companies[${i}] has an unknown owner`);
    companyIds.add(c.id);
  });
  state.keys.forEach((k, i) => {
    checkFields(k, `keys[${i}]`, { key: 'string', label: 'string', companyId: 'number', userId: 'number' });
    if (!companyIds.has(k.companyId)) fail(`keys[${i}] belongs to an unknown company`);
    if (!userIds.has(k.userId)) fail(`keys[${i}] was created by an unknown user`);
    unique(k.key, `keys[${i}]`);
  });
  return state;
}
