/**
 * A fresh world: the main agency (an owner and a teammate, `companies` client companies) and a
 * foreign agency, so that "not in your agency" can be tried. Names and counters are deterministic;
 * only the keys are random, unless a key seed is given.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  type AgencyRecord,
  AUTO_KEY_LABEL,
  type CompanyRecord,
  FIRST_COMPANY_ID,
  FOREIGN_AGENCY_ID,
  type KeyRecord,
  MAIN_AGENCY_ID,
  type SandboxState,
  type SeedOptions,
  type UserRecord,
} from '../types.js';
import { mailboxPairCount } from './mailboxes.js';
import { companyNames, FOREIGN_COMPANY_NAMES } from './names.js';

const DEFAULT_COMPANIES = 120;

/**
 * Where the sandbox's API keys come from: random, or derived from `seed` and a counter, so that the
 * same commands against a fresh sandbox print the same keys (the docs' console examples).
 */
export class KeyMaker {
  #count = 0;
  readonly #seed: string | undefined;

  constructor(seed?: string) {
    this.#seed = seed;
  }

  hq(): string {
    return `wpk_hq_${this.#hex()}`;
  }

  client(): string {
    return `wpk_${this.#hex()}`;
  }

  #hex(): string {
    if (this.#seed === undefined) return randomHex16();
    return createHash('sha256')
      .update(`${this.#seed}:${this.#count++}`)
      .digest('hex')
      .slice(0, 32);
  }
}

/**
 * 16 random bytes as hex, taken from a pool drawn 4 kB at a time: a sandbox makes hundreds of keys as it
 * starts, and a test run starts hundreds of sandboxes (one call for each key cost more than the rest of
 * the seeding).
 */
let pool = Buffer.alloc(0);
let taken = 0;
function randomHex16(): string {
  if (taken + 16 > pool.length) {
    pool = randomBytes(4096);
    taken = 0;
  }
  taken += 16;
  return pool.toString('hex', taken - 16, taken);
}

export function seedState(options: SeedOptions = {}, makeKey = new KeyMaker(options.keySeed)): SandboxState {
  const count = options.companies ?? DEFAULT_COMPANIES;
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError('seed.companies must be >= 0');
  const main: AgencyRecord = { id: MAIN_AGENCY_ID, name: 'Northwind Outreach', domain: 'northwind.example' };
  const foreign: AgencyRecord = {
    id: FOREIGN_AGENCY_ID,
    name: 'Southwind Partners',
    domain: 'southwind.example',
  };
  const user = (id: number, agencyId: number, name: string, email: string, role: UserRecord['role']) => ({
    id,
    agencyId,
    name,
    email,
    role,
    hqKey: makeKey.hq(),
  });
  const users: UserRecord[] = [
    user(1, main.id, 'Olivia Owner', 'olivia@northwind.example', 'AGENCY_OWNER'),
    user(2, main.id, 'Tom Teammate', 'tom@northwind.example', 'AGENCY_MEMBER'),
    user(3, foreign.id, 'Frank Foreign', 'frank@southwind.example', 'AGENCY_OWNER'),
  ];
  const companies: CompanyRecord[] = [];
  const keys: KeyRecord[] = [];
  let nextId = FIRST_COMPANY_ID;
  const add = (agencyId: number, name: string, ownerId: number, active: boolean, i: number) => {
    const id = nextId++;
    companies.push({
      id,
      agencyId,
      name,
      ownerId,
      active,
      runningCampaigns: active ? i % 5 : 0,
      emailSlots: mailboxPairCount(id),
      linkedinSlots: i % 4 === 0 ? 1 : 0,
      seeded: true,
    });
    keys.push({ key: makeKey.client(), label: AUTO_KEY_LABEL, companyId: id, userId: ownerId });
    if (i % 4 === 0) keys.push({ key: makeKey.client(), label: 'Zapier', companyId: id, userId: ownerId });
    if (i % 5 === 1 && agencyId === main.id) {
      keys.push({ key: makeKey.client(), label: 'Reporting', companyId: id, userId: 1 });
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
  return { version: 1, nextCompanyId: nextId, agencies: [main, foreign], users, companies, keys };
}
