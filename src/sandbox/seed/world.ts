/**
 * The sandbox's invented world: believable company names, and the read-only records of an account
 * (mailboxes, webhooks, email accounts). Those records have no write endpoint, so they are derived
 * from the company id instead of stored: the state file stays small and a 10,000-company seed
 * starts at once.
 */

export interface MailboxItem {
  id: number;
  type: 'IMAP' | 'SMTP';
  details: { email: string; from_name: string; daily_limit: number; sent_today: number; error?: string };
}

export interface WebhookItem {
  target_url: string;
  event: string;
}

export interface EmailAccountItem {
  id: number;
  type: 'SMTP' | 'GMAIL' | 'OUTLOOK';
  details: {
    email: string;
    provider: 'OTHER' | 'GOOGLE' | 'MICROSOFT';
    error: string | null;
    from_name: string;
    imap_id: number | null;
    running_campaigns: number;
  };
}

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

const PEOPLE = [
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

const EVENTS = [
  'PROSPECT_REPLIED',
  'LINK_CLICKED',
  'EMAIL_OPENED',
  'PROSPECT_BOUNCED',
  'PROSPECT_INTERESTED',
  'PROSPECT_AUTOREPLIED',
  'EMAIL_SENT',
  'CAMPAIGN_COMPLETED',
];

/** Deterministic 32-bit mix, so the world is the same on every start. */
export function mix(n: number, salt: number): number {
  let x = Math.imul(n ^ Math.imul(salt, 0x9e3779b1), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

function pick<T>(list: readonly T[], n: number, salt: number): T {
  return list[mix(n, salt) % list.length] as T;
}

/**
 * `count` unique company names: "Acme Ltd", "Blue Harbor Dental", then a fixed shuffle of every
 * prefix × trade × suffix combination, then numbered variants if even more are asked for.
 */
export function companyNames(count: number): string[] {
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
  const names = [...first, ...pool].slice(0, count);
  for (let round = 2; names.length < count; round++) {
    for (const base of [...first, ...pool]) {
      if (names.length >= count) break;
      names.push(`${base} ${round}`);
    }
  }
  return names;
}

function domainOf(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '');
  return `${slug || 'company'}.example`;
}

/** Mailboxes of a seeded company (companies created through the API start without any). */
export function companyMailboxes(companyId: number, companyName: string): MailboxItem[] {
  const domain = domainOf(companyName);
  const count = 1 + (mix(companyId, 1) % 3);
  const locals = ['sales', 'hello', 'outreach'];
  const items: MailboxItem[] = [];
  for (let i = 0; i < count; i++) {
    const type = i % 2 === 0 ? 'SMTP' : 'IMAP';
    const dailyLimit = [50, 100, 200][mix(companyId, 10 + i) % 3] as number;
    const item: MailboxItem = {
      id: companyId * 10 + i,
      type,
      details: {
        email: `${locals[i]}@${domain}`,
        from_name: pick(PEOPLE, companyId, 20 + i),
        daily_limit: dailyLimit,
        sent_today: mix(companyId, 30 + i) % (dailyLimit + 1),
      },
    };
    if (mix(companyId, 40 + i) % 6 === 0) {
      item.details.error =
        type === 'SMTP'
          ? 'SMTP authentication failed: 535 5.7.8 Username and Password not accepted'
          : 'IMAP connection timed out';
    }
    items.push(item);
  }
  return items;
}

export function companyWebhooks(companyId: number, companyName: string): WebhookItem[] {
  const count = mix(companyId, 2) % 3;
  const domain = domainOf(companyName);
  const items: WebhookItem[] = [];
  for (let i = 0; i < count; i++) {
    const event = i === 0 ? 'PROSPECT_REPLIED' : pick(EVENTS.slice(1), companyId, 50 + i);
    items.push({
      target_url:
        i === 0
          ? `https://hooks.zapier.com/hooks/catch/${companyId}/${event.toLowerCase()}/`
          : `https://crm.${domain}/webhooks/woodpecker?event=${event.toLowerCase()}`,
      event,
    });
  }
  return items;
}

export function companyEmailAccounts(
  companyId: number,
  companyName: string,
  runningCampaigns: number,
): EmailAccountItem[] {
  const kinds = [
    { type: 'SMTP', provider: 'OTHER' },
    { type: 'GMAIL', provider: 'GOOGLE' },
    { type: 'OUTLOOK', provider: 'MICROSOFT' },
  ] as const;
  return companyMailboxes(companyId, companyName)
    .filter((m) => m.type === 'SMTP')
    .map((m, i) => {
      const kind = kinds[mix(companyId, 60 + i) % kinds.length] as (typeof kinds)[number];
      return {
        id: m.id,
        type: kind.type,
        details: {
          email: m.details.email,
          provider: kind.provider,
          error: m.details.error ?? null,
          from_name: m.details.from_name,
          imap_id: kind.type === 'SMTP' ? m.id + 1 : null,
          running_campaigns: i === 0 ? runningCampaigns : 0,
        },
      };
    });
}

/** The HQ account's own records (an agency's HQ account is a mail-sending account too). */
export function hqMailboxes(agencyId: number, domain: string): MailboxItem[] {
  return [
    {
      id: agencyId * 100 + 1,
      type: 'SMTP',
      details: {
        email: `outreach@${domain}`,
        from_name: 'Agency Outreach',
        daily_limit: 200,
        sent_today: 37,
      },
    },
    {
      id: agencyId * 100 + 2,
      type: 'IMAP',
      details: { email: `outreach@${domain}`, from_name: 'Agency Outreach', daily_limit: 200, sent_today: 0 },
    },
  ];
}

export function hqWebhooks(domain: string): WebhookItem[] {
  return [
    { target_url: `https://hooks.${domain}/woodpecker/replies`, event: 'PROSPECT_REPLIED' },
    { target_url: `https://hooks.${domain}/woodpecker/clicks`, event: 'LINK_CLICKED' },
  ];
}
