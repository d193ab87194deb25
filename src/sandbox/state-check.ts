/** Validation of a parsed --state file: a damaged file is refused with what is wrong, never guessed at. */
import { FOREIGN_AGENCY_ID, isObject, MAIN_AGENCY_ID, type SandboxState } from './types.js';

function fail(what: string): never {
  throw new Error(what);
}

type FieldType = 'number' | 'string' | 'boolean';

/** The fields each kind of record must have, by type. */
const FIELDS = {
  agencies: { number: ['id'], string: ['name', 'domain'] },
  users: { number: ['id', 'agencyId'], string: ['name', 'email', 'role', 'hqKey'] },
  companies: {
    number: ['id', 'agencyId', 'ownerId', 'runningCampaigns', 'emailSlots', 'linkedinSlots'],
    string: ['name'],
    boolean: ['active', 'seeded'],
  },
  keys: { number: ['companyId', 'userId'], string: ['key', 'label'] },
  webhooks: { string: ['target_url', 'event'] },
  guests: { number: ['id'], string: ['email', 'name'], boolean: ['accepted'] },
} satisfies Record<string, Partial<Record<FieldType, readonly string[]>>>;

function checkFields(v: unknown, where: string, kind: keyof typeof FIELDS): void {
  if (!isObject(v)) fail(`${where} is not an object`);
  for (const [type, fields] of Object.entries(FIELDS[kind]) as [FieldType, readonly string[]][]) {
    for (const field of fields) if (typeof v[field] !== type) fail(`${where}.${field} is not a ${type}`);
  }
}

export function checkState(data: unknown): SandboxState {
  if (!isObject(data)) fail('the state is not a JSON object');
  if (data.version !== 1) fail(`unsupported state version ${JSON.stringify(data.version)}`);
  if (typeof data.nextCompanyId !== 'number') fail('nextCompanyId is not a number');
  for (const list of ['agencies', 'users', 'companies', 'keys']) {
    if (!Array.isArray(data[list])) fail(`${list} is not an array`);
  }
  const state = data as unknown as SandboxState;
  state.agencies.forEach((a, i) => {
    checkFields(a, `agencies[${i}]`, 'agencies');
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
    checkFields(u, `users[${i}]`, 'users');
    if (!agencyIds.has(u.agencyId)) fail(`users[${i}] belongs to an unknown agency`);
    if (u.role !== 'AGENCY_OWNER' && u.role !== 'AGENCY_MEMBER') fail(`users[${i}].role is unknown`);
    unique(u.hqKey, `users[${i}]`);
  });
  if (!state.users.some((u) => u.id === 1 && u.agencyId === MAIN_AGENCY_ID)) fail('user 1 is missing');
  const userIds = new Set(state.users.map((u) => u.id));
  const companyIds = new Set<number>();
  state.companies.forEach((c, i) => {
    checkFields(c, `companies[${i}]`, 'companies');
    if (companyIds.has(c.id)) fail(`companies[${i}] repeats id ${c.id}`);
    if (c.id >= state.nextCompanyId) fail(`companies[${i}].id is not below nextCompanyId`);
    if (!agencyIds.has(c.agencyId)) fail(`companies[${i}] belongs to an unknown agency`);
    if (!userIds.has(c.ownerId)) fail(`companies[${i}] has an unknown owner`);
    companyIds.add(c.id);
  });
  state.keys.forEach((k, i) => {
    checkFields(k, `keys[${i}]`, 'keys');
    if (!companyIds.has(k.companyId)) fail(`keys[${i}] belongs to an unknown company`);
    if (!userIds.has(k.userId)) fail(`keys[${i}] was created by an unknown user`);
    unique(k.key, `keys[${i}]`);
  });
  checkOptionalLists(state);
  return state;
}

/** The parts later versions of the sandbox added; a file written before them has neither. */
function checkOptionalLists(state: SandboxState): void {
  if (state.webhooks !== undefined) {
    if (!isObject(state.webhooks)) fail('webhooks is not an object');
    for (const [account, list] of Object.entries(state.webhooks)) {
      if (!Array.isArray(list)) fail(`webhooks.${account} is not an array`);
      list.forEach((w, i) => {
        checkFields(w, `webhooks.${account}[${i}]`, 'webhooks');
      });
    }
  }
  if (state.blacklists !== undefined) {
    if (!isObject(state.blacklists)) fail('blacklists is not an object');
    for (const [agency, lists] of Object.entries(state.blacklists)) {
      if (!isObject(lists)) fail(`blacklists.${agency} is not an object`);
      for (const kind of ['emails', 'domains'] as const) {
        const values = lists[kind];
        if (!Array.isArray(values) || values.some((v) => typeof v !== 'string')) {
          fail(`blacklists.${agency}.${kind} is not a list of strings`);
        }
      }
    }
  }
  if (state.guests !== undefined) {
    if (!isObject(state.guests)) fail('guests is not an object');
    for (const [company, list] of Object.entries(state.guests)) {
      if (!Array.isArray(list)) fail(`guests.${company} is not an array`);
      list.forEach((g, i) => {
        const where = `guests.${company}[${i}]`;
        checkFields(g, where, 'guests');
        if (!Array.isArray(g.permissions)) fail(`${where}.permissions is not an array`);
      });
    }
  }
  if (state.campaigns !== undefined) checkCampaigns(state.campaigns);
}

function checkCampaigns(campaigns: unknown): void {
  if (!isObject(campaigns)) fail('campaigns is not an object');
  for (const [account, changes] of Object.entries(campaigns)) {
    if (!isObject(changes)) fail(`campaigns.${account} is not an object`);
    for (const [id, change] of Object.entries(changes)) {
      const where = `campaigns.${account}.${id}`;
      if (!isObject(change)) fail(`${where} is not an object`);
      if (change.status !== undefined && typeof change.status !== 'string')
        fail(`${where}.status is not a string`);
      const t = change.threshold;
      if (t !== undefined && t !== null && typeof t !== 'number') fail(`${where}.threshold is not a number`);
    }
  }
}
