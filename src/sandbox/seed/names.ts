/**
 * The sandbox's invented world, part 1: believable, deterministic names (companies, people,
 * domains) and the hash every derived record is picked with, so the world is the same on every start.
 */

const PREFIXES = [
  'Acme',
  'Blue Harbor',
  'Northstar',
  'Granite Peak',
  'Silver Birch',
  'Red Fox',
  'Evergreen',
  'Bright Path',
  'Cedar Ridge',
  'Summit',
  'Oak & Ember',
  'Harborview',
  'Lakeside',
  'Pioneer',
  'Copper Kettle',
  'Riverbend',
  'Golden Gate',
  'Iron Bridge',
  'Maple Leaf',
  'Stonewall',
  'Sunrise',
  'Bluebird',
  'Clearwater',
  'Highland',
  'Juniper',
  'Keystone',
  'Lighthouse',
  'Meadowbrook',
  'Nova',
  'Orchard',
  'Pinecrest',
  'Quarry Hill',
  'Redwood',
  'Seaside',
  'Timberline',
  'Union Square',
  'Valley View',
  'Westwind',
  'Willow Creek',
  'Zenith',
];

const TRADES = [
  '',
  'Dental',
  'Logistics',
  'Bakery',
  'Consulting',
  'Realty',
  'Fitness',
  'Law',
  'Marketing',
  'Software',
  'Plumbing',
  'Veterinary',
  'Coffee Roasters',
  'Architects',
  'Insurance',
  'Florists',
  'Auto Repair',
  'Accounting',
  'Design Studio',
  'Brewing',
  'Solar',
  'Clinic',
  'Outfitters',
  'Media',
  'Robotics',
  'Catering',
  'Cleaning',
  'Labs',
  'Travel',
  'Print Shop',
];

const SUFFIXES = ['', 'Ltd', 'Inc', 'LLC', 'GmbH', '& Co', 'Group', 'Partners', 'Co.', 'Holdings'];

export const FOREIGN_COMPANY_NAMES = [
  'Gull Island Seafood',
  'Kestrel Analytics',
  'Tidewater Pharmacy',
  'Marlin Yacht Services',
  'Driftwood Interiors',
];

export const PEOPLE = [
  'Anna Kowalski',
  'Ben Carter',
  'Chloe Martin',
  'David Nowak',
  'Emma Fischer',
  'Felix Brown',
  'Grace Lee',
  'Hugo Silva',
  'Ivy Chen',
  'Jack Wilson',
];

/** Deterministic 32-bit mix, so the world is the same on every start. */
export function mix(n: number, salt: number): number {
  let x = Math.imul(n ^ Math.imul(salt, 0x9e3779b1), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

export function pick<T>(list: readonly T[], n: number, salt: number): T {
  return list[mix(n, salt) % list.length] as T;
}

/**
 * `count` unique company names: "Acme Ltd", "Blue Harbor Dental", then a fixed shuffle of every
 * prefix × trade × suffix combination, then numbered variants if even more are asked for.
 */
export function companyNames(count: number): string[] {
  const all = allNames();
  const names = all.slice(0, count);
  for (let round = 2; names.length < count; round++) {
    for (const base of all) {
      if (names.length >= count) break;
      names.push(`${base} ${round}`);
    }
  }
  return names;
}

/** The first two, then the shuffled combinations: made once per process (a test run starts hundreds). */
let ordered: readonly string[] | undefined;
function allNames(): readonly string[] {
  if (ordered) return ordered;
  const first = ['Acme Ltd', 'Blue Harbor Dental'];
  const pool: string[] = [];
  for (const p of PREFIXES) {
    for (const t of TRADES) {
      for (const s of SUFFIXES) {
        const name = [p, t, s].filter(Boolean).join(' ');
        if (!first.includes(name)) pool.push(name);
      }
    }
  }
  for (let i = pool.length - 1; i > 0; i--) {
    const j = mix(i, 7) % (i + 1);
    [pool[i], pool[j]] = [pool[j] as string, pool[i] as string];
  }
  ordered = [...first, ...pool];
  return ordered;
}

export function domainOf(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '');
  return `${slug || 'company'}.example`;
}
