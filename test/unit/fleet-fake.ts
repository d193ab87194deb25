/**
 * An in-memory agency for the fleet logic's unit tests: companies, keys and webhooks with the
 * service's rules that matter here (50 per page, lower-case events listed upper case, 409 on a
 * duplicate pair, on a 4th subscription of one event, and on an inactive company's account), and a
 * log of every call so tests can assert exactly what was sent.
 */
import type {
  ApiKey,
  Company,
  CompanyUser,
  CreatedCompany,
  GuestInvitation,
  Page,
  Webhook,
} from '../../src/api/types.js';
import { ApiError } from '../../src/errors.js';

export type Call =
  | { op: 'listCompanies'; page: number }
  | { op: 'listKeys'; company: number; page: number }
  | { op: 'createKey'; company: number; label: string }
  | { op: 'createCompanies'; names: string[] }
  | { op: 'webhooks'; company: number | undefined }
  | { op: 'subscribe' | 'unsubscribe'; company: number | undefined; event: string; url: string }
  | { op: 'listGuests'; company: number; page: number }
  | { op: 'inviteGuests'; company: number; emails: string[] }
  | { op: 'setGuestPermissions'; company: number; ids: number[] };

const PAGE_SIZE = 50;

export class FakeAgency {
  companies: Company[] = [];
  keys = new Map<number, ApiKey[]>();
  hooks = new Map<number | 'own', Webhook[]>();
  calls: Call[] = [];
  /** Makes the next matching call fail; the predicate sees the call about to be made. */
  faults: { when: (call: Call) => boolean; error: () => Error; once?: boolean }[] = [];
  #nextId = 1001;
  #nextKey = 1;

  addCompany(name: string, active = true): Company {
    const company = { id: this.#nextId++, name, owner: 'Olivia Owner', active };
    this.companies.push(company);
    this.keys.set(company.id, [{ api_key: `auto-${company.id}`, label: 'Default key' }]);
    return company;
  }

  posts(): Call[] {
    return this.calls.filter((c) =>
      [
        'createKey',
        'createCompanies',
        'subscribe',
        'unsubscribe',
        'inviteGuests',
        'setGuestPermissions',
      ].includes(c.op),
    );
  }

  #record(call: Call): void {
    this.calls.push(call);
    const fault = this.faults.find((f) => f.when(call));
    if (fault) {
      if (fault.once !== false) this.faults.splice(this.faults.indexOf(fault), 1);
      throw fault.error();
    }
  }

  #account(companyId: number | undefined): number | 'own' {
    if (companyId === undefined) return 'own';
    const company = this.companies.find((c) => c.id === companyId);
    if (!company) throw new ApiError(`company ${companyId} not found`, { status: 404, title: 'Not Found' });
    if (!company.active)
      throw new ApiError(`company ${companyId} is inactive`, { status: 409, title: 'Conflict' });
    return companyId;
  }

  async listCompaniesPage(page: number): Promise<Page<Company>> {
    this.#record({ op: 'listCompanies', page });
    return pageOf(this.companies, page);
  }

  async createCompanies(names: readonly string[]): Promise<CreatedCompany[]> {
    this.#record({ op: 'createCompanies', names: [...names] });
    return names.map((name) => this.addCompany(name));
  }

  /** Guests by company: invitations are accepted at once here (the sandbox has the pending state). */
  guests = new Map<number, CompanyUser[]>();

  async listCompanyUsersPage(companyId: number, page: number): Promise<Page<CompanyUser>> {
    this.#record({ op: 'listGuests', company: companyId, page });
    return pageOf(this.guests.get(companyId) ?? [], page);
  }

  async inviteGuests(companyId: number, guests: readonly GuestInvitation[]): Promise<void> {
    this.#record({ op: 'inviteGuests', company: companyId, emails: guests.map((g) => g.email) });
    const list = this.guests.get(companyId) ?? [];
    for (const g of guests) {
      if (list.some((u) => u.email === g.email)) continue;
      list.push({
        id: 5000 + list.length,
        email: g.email,
        roles: ['guest'],
        guest_permissions: [...g.guest_permissions],
      });
    }
    this.guests.set(companyId, list);
  }

  async setGuestPermissions(companyId: number, guests: readonly { id: number; permissions: string[] }[]) {
    this.#record({ op: 'setGuestPermissions', company: companyId, ids: guests.map((g) => g.id) });
    for (const g of guests) {
      const user = this.guests.get(companyId)?.find((u) => u.id === g.id);
      if (user) user.guest_permissions = [...g.permissions];
    }
  }

  async listKeysPage(companyId: number, page: number): Promise<Page<ApiKey>> {
    this.#record({ op: 'listKeys', company: companyId, page });
    return pageOf(this.keys.get(companyId) ?? [], page);
  }

  async createKey(companyId: number, label: string): Promise<string> {
    this.#record({ op: 'createKey', company: companyId, label });
    const key = `key-${this.#nextKey++}`;
    this.keys.get(companyId)?.push({ api_key: key, label });
    return key;
  }

  async webhooks(companyId?: number): Promise<Webhook[]> {
    this.#record({ op: 'webhooks', company: companyId });
    return [...(this.hooks.get(this.#account(companyId)) ?? [])];
  }

  async subscribeWebhook(
    companyId: number | undefined,
    event: string,
    url: string,
  ): Promise<'subscribed' | 'exists'> {
    this.#record({ op: 'subscribe', company: companyId, event, url });
    const account = this.#account(companyId);
    const list = this.hooks.get(account) ?? [];
    const upper = event.toUpperCase();
    if (list.some((w) => w.event === upper && w.target_url === url)) return 'exists'; // how the client reads 409 "Event defined for this url."
    if (list.filter((w) => w.event === upper).length >= 3)
      throw conflict('Too many subscriptions for this event.');
    list.push({ event: upper, target_url: url });
    this.hooks.set(account, list);
    return 'subscribed';
  }

  async unsubscribeWebhook(companyId: number | undefined, event: string, url: string): Promise<void> {
    this.#record({ op: 'unsubscribe', company: companyId, event, url });
    const account = this.#account(companyId);
    const list = this.hooks.get(account) ?? [];
    this.hooks.set(
      account,
      list.filter((w) => !(w.event === event.toUpperCase() && w.target_url === url)),
    );
  }
}

function conflict(msg: string): ApiError {
  return new ApiError(`Could not subscribe: ${msg}`, { status: 409, title: 'E_WRONG_PARAM', detail: msg });
}

function pageOf<T>(items: readonly T[], page: number): Page<T> {
  const total = Math.max(1, Math.ceil(items.length / PAGE_SIZE));
  return {
    content: items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
    pagination_data: {
      total_elements: items.length,
      total_pages: total,
      current_page_number: page,
      page_size: PAGE_SIZE,
    },
  };
}
