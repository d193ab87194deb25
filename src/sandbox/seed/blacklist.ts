/** The sandbox's invented world, part 6: an agency's do-not-contact list, a few hundred of each kind. */
import type { BlacklistRecord } from '../types.js';
import { mix, pick } from './names.js';

const WORDS = ['north', 'blue', 'prime', 'rapid', 'green', 'urban', 'smart', 'bright', 'alpha', 'metro'];
const NOUNS = ['tech', 'media', 'foods', 'labs', 'works', 'trade', 'health', 'hub', 'mart', 'logic'];
const TLDS = ['com', 'net', 'io', 'co.uk', 'de', 'pl', 'fr', 'org'];
const LOCALS = ['info', 'contact', 'sales', 'office', 'hello', 'admin', 'jobs', 'press'];

/** Deterministic, unique, lower-case: 340 domains and 260 addresses for the main agency. */
export function seedBlacklist(agencyId: number): BlacklistRecord {
  const domains = new Set<string>();
  const emails = new Set<string>();
  const domainCount = agencyId === 1 ? 340 : 12;
  const emailCount = agencyId === 1 ? 260 : 8;
  for (let n = 0; domains.size < domainCount; n++) {
    const key = agencyId * 100_000 + n;
    domains.add(
      `${pick(WORDS, key, 120)}${pick(NOUNS, key, 121)}${mix(key, 122) % 100}.${pick(TLDS, key, 123)}`,
    );
  }
  for (let n = 0; emails.size < emailCount; n++) {
    const key = agencyId * 100_000 + n;
    emails.add(
      `${pick(LOCALS, key, 124)}${n}@${pick(WORDS, key, 125)}${pick(NOUNS, key, 126)}.${pick(TLDS, key, 127)}`,
    );
  }
  return { emails: [...emails], domains: [...domains] };
}
