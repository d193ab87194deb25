/**
 * The sandbox's state with its indexes, and who is who: which account a key belongs to, access to a
 * company. The x-company-id rules live in access.ts, each endpoint's rules in resources/*.ts; the
 * methods at the end of the class are shortcuts to them for tests and scripts that set up data
 * without HTTP.
 */
import * as companies from './resources/companies.js';
import * as keys from './resources/keys.js';
import * as mailboxes from './resources/mailboxes.js';
import { agencyRoles } from './resources/users.js';
import { KeyMaker, seedState } from './seed/agency.js';
import { seedBlacklist } from './seed/blacklist.js';
import { clientUsers } from './seed/users.js';
import { companyWebhooks, hqWebhooks } from './seed/webhooks.js';
import { checkState } from './state-check.js';
import {
  type AgencyRecord,
  type BlacklistRecord,
  type CampaignRecord,
  type CompanyRecord,
  FOREIGN_AGENCY_ID,
  type GuestRecord,
  type HqContext,
  type KeyRecord,
  MAIN_AGENCY_ID,
  type Principal,
  type RequestContext,
  SandboxError,
  type SandboxState,
  type SeedOptions,
  type UserRecord,
  type WebhookRecord,
} from './types.js';

// Tests and scripts import the record types from here.
export type {
  AgencyRecord,
  CompanyRecord,
  HqContext,
  KeyRecord,
  RequestContext,
  SandboxState,
  UserRecord,
} from './types.js';

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
  /** `${agencyId}:${kind}` → the values on that blacklist, for O(1) membership. */
  private readonly blacklistIndex = new Map<string, Set<string>>();

  /** Called after every mutation (the server persists the state there). */
  onChange: (() => void) | undefined;
  /** Makes the keys of companies and keys created through the API. */
  readonly keyMaker: KeyMaker;

  constructor(state: SandboxState, keyMaker = new KeyMaker()) {
    this.state = state;
    this.keyMaker = keyMaker;
    this.reindex();
  }

  /** A fresh world: the main agency (two users, `companies` companies) and a foreign agency. */
  static seed(options: SeedOptions = {}): Store {
    const keyMaker = new KeyMaker(options.keySeed);
    return new Store(seedState(options, keyMaker), keyMaker);
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
    const index = agencyId === undefined ? undefined : this.byAgency.get(agencyId);
    const source =
      agencyId === undefined
        ? this.state.companies
        : filter.active === undefined
          ? (index?.all ?? [])
          : ((filter.active ? index?.active : index?.inactive) ?? []);
    return source.filter(
      (c) =>
        (filter.active === undefined || c.active === filter.active) &&
        (filter.ownerId === undefined || c.ownerId === filter.ownerId),
    );
  }

  /** The agency's companies in id order without copying (all, or only active / inactive ones). */
  companyList(agencyId: number, active: boolean | undefined): readonly CompanyRecord[] {
    const index = this.byAgency.get(agencyId);
    if (!index) return [];
    return active === undefined ? index.all : active ? index.active : index.inactive;
  }

  company(id: number): CompanyRecord | undefined {
    return this.companyById.get(id);
  }

  findCompanyByName(name: string, agencyId: number = MAIN_AGENCY_ID): CompanyRecord | undefined {
    return this.byAgency.get(agencyId)?.all.find((c) => c.name === name);
  }

  hasCompanyNamed(agencyId: number, name: string): boolean {
    return this.byAgency.get(agencyId)?.names.has(name) ?? false;
  }

  /** Companies the user may act on: all of the agency for its owner, their own for a member. */
  accessibleCompanies(userId: number): CompanyRecord[] {
    const user = this.userById.get(userId);
    if (!user) return [];
    return this.companies(user.agencyId).filter((c) => this.hasAccess(user, c));
  }

  /** Access = a role in the company: the agency's admin everywhere, other users where they own it. */
  hasAccess(user: UserRecord, company: CompanyRecord): boolean {
    return agencyRoles(user, company).length > 0;
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

  /** A company id from a path or header that must name a company of this agency (else 404). */
  companyInAgency(agency: AgencyRecord, raw: string): CompanyRecord {
    const company = /^\d+$/.test(raw) ? this.companyById.get(Number(raw)) : undefined;
    if (!company || company.agencyId !== agency.id) {
      throw new SandboxError(404, `Company ${raw} not found in agency ${agency.name}`);
    }
    return company;
  }

  /** The company of an agency endpoint's path: in the caller's agency (404) and reachable by its user (403). */
  companyForAgencyEndpoint(context: HqContext, raw: string): CompanyRecord {
    const company = this.companyInAgency(context.agency, raw);
    if (!this.hasAccess(context.user, company)) {
      throw new SandboxError(403, `User ${context.user.name} has no access to company ${company.id}`);
    }
    return company;
  }

  // ---- account data that can change ----

  /** An account's webhooks: the saved list once its subscriptions changed, else the seeded one. */
  webhooksOf(context: RequestContext): WebhookRecord[] {
    const saved = this.state.webhooks?.[context.account];
    if (saved) return saved;
    if (context.level === 'hq') return hqWebhooks(context.agency.domain);
    const c = context.company;
    return c.seeded ? companyWebhooks(c.id, c.name) : [];
  }

  replaceWebhooks(account: string, list: WebhookRecord[]): void {
    this.state.webhooks ??= {};
    this.state.webhooks[account] = list;
    this.changed();
  }

  /** What the v2 campaign API changed of an account's campaigns, by campaign id. */
  campaignChanges(account: string): Readonly<Record<string, CampaignRecord>> {
    return this.state.campaigns?.[account] ?? {};
  }
  updateCampaign(account: string, campaignId: number, change: CampaignRecord): void {
    const changes = { ...this.state.campaigns?.[account] };
    changes[campaignId] = { ...changes[campaignId], ...change };
    this.state.campaigns = { ...this.state.campaigns, [account]: changes };
    this.changed();
  }

  /** An agency's blacklist, seeded on first use. */
  blacklist(agencyId: number): BlacklistRecord {
    this.state.blacklists ??= {};
    let list = this.state.blacklists[String(agencyId)];
    if (!list) {
      list = seedBlacklist(agencyId);
      this.state.blacklists[String(agencyId)] = list;
    }
    return list;
  }

  /** Adds the values not yet on the list, in order; returns how many were new. */
  addToBlacklist(agencyId: number, kind: keyof BlacklistRecord, values: readonly string[]): number {
    const list = this.blacklist(agencyId)[kind];
    const slot = `${agencyId}:${kind}`;
    let index = this.blacklistIndex.get(slot);
    if (!index) {
      index = new Set(list);
      this.blacklistIndex.set(slot, index);
    }
    let added = 0;
    for (const value of values) {
      if (index.has(value)) continue;
      index.add(value);
      list.push(value);
      added += 1;
    }
    if (added > 0) this.changed();
    return added;
  }

  /** Removes the values on the list; returns how many were there. */
  removeFromBlacklist(agencyId: number, kind: keyof BlacklistRecord, values: readonly string[]): number {
    const lists = this.blacklist(agencyId);
    const gone = new Set(values);
    const kept = lists[kind].filter((value) => !gone.has(value));
    const removed = lists[kind].length - kept.length;
    if (removed === 0) return 0;
    lists[kind] = kept;
    this.blacklistIndex.delete(`${agencyId}:${kind}`);
    this.changed();
    return removed;
  }

  /** A company's guests, invited and accepted: the saved list once they changed, else the seeded ones. */
  guestsOf(company: CompanyRecord): GuestRecord[] {
    const saved = this.state.guests?.[String(company.id)];
    if (saved) return saved;
    if (!company.seeded) return [];
    return clientUsers(company.id, company.name)
      .filter((u) => u.roles.includes('guest'))
      .map((u) => ({
        id: u.id,
        email: u.email,
        name: u.name,
        permissions: u.guest_permissions ?? [],
        accepted: true,
      }));
  }

  replaceGuests(companyId: number, list: GuestRecord[]): void {
    this.state.guests ??= {};
    this.state.guests[String(companyId)] = list;
    this.changed();
  }

  /** The guest lists saved so far, by company id. */
  savedGuests(): Readonly<Record<string, GuestRecord[]>> {
    return this.state.guests ?? {};
  }

  // ---- mutations (the resource modules' only way to change the state) ----

  /** A new company of `agencyId`, with the next id; its owner gets the automatic key. */
  addCompany(fields: Omit<CompanyRecord, 'id'>): CompanyRecord {
    const company: CompanyRecord = { id: this.state.nextCompanyId++, ...fields };
    this.state.companies.push(company);
    this.indexCompany(company);
    return company;
  }

  addKey(k: KeyRecord): void {
    this.state.keys.push(k);
    this.indexKey(k);
  }

  /** Tells the owner of the state (the state file) that something changed. */
  changed(): void {
    this.onChange?.();
  }

  // ---- shortcuts to the resource rules, for tests and scripts ----

  mailboxes(context: RequestContext) {
    return mailboxes.mailboxes(context);
  }

  webhooks(context: RequestContext) {
    return { webhooks: this.webhooksOf(context) };
  }

  createCompanies(context: HqContext, body: unknown) {
    return companies.createCompanies(this, context, body);
  }

  emailAccounts(context: HqContext, companyId: string) {
    return mailboxes.emailAccounts(this, context, companyId);
  }

  createKey(context: HqContext, companyId: string, body: unknown) {
    return keys.createKey(this, context, companyId, body);
  }

  // ---- indexes ----

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
