/**
 * The sandbox's invented world, part 4: an account's campaigns, in every status the docs list, some
 * with an error. A company runs as many campaigns as its `running_campaigns` counter says, so the
 * company list and the campaign list agree (and companies with 0 run none).
 */
import { domainOf, mix, PEOPLE, pick } from './names.js';

export const CAMPAIGN_STATUSES = ['RUNNING', 'DRAFT', 'EDITED', 'PAUSED', 'STOPPED', 'COMPLETED'] as const;
type SeededCampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export interface CampaignItem {
  id: number;
  name: string;
  status: SeededCampaignStatus;
  created: string;
  from_name: string;
  from_email: string;
  /** Every address the campaign sends from (the service's list carries it beside from_email). */
  from_emails: string[];
  folder_name: string;
  folder_id: number;
  per_day: number;
  error: string | null;
  tz: string;
}

const TOPICS = [
  'Q3 outreach',
  'Spring promo',
  'Webinar invite',
  'Follow-up: trade show',
  'New product launch',
  'Partner program',
  'Re-engagement',
  'Local businesses',
  'Case study push',
  'Holiday offer',
];
const FOLDERS = ['Default', 'Prospecting', 'Events', 'Partners'];
const ZONES = ['Europe/Warsaw', 'Europe/London', 'America/New_York', 'America/Chicago'];
const ERRORS = ['Mailbox disconnected: reconnect the SMTP account', 'Sending limit of the mailbox reached'];
/** What a campaign Bounce Shield paused says: only a PAUSED one says it. */
const BOUNCE_SHIELD_ERROR = 'Campaign paused by Bounce Shield: bounce rate above 10%';
/**
 * A mailbox several clients' campaigns send from (an agency's shared sender): the incident of a
 * compromised address, paused across every client with `campaigns pause --all --mailbox`. Clients
 * whose id leaves 3 when divided by 7 use it in every other campaign.
 */
export const SHARED_MAILBOX = 'ops@client.example';
const sharesMailbox = (key: number) => key % 7 === 3;

/**
 * Campaigns the v2 campaign API refuses with 409 API_UNSUPPORTED_CAMPAIGN_FEATURES (an IF condition,
 * a scheduled start, manual tasks): about one in eleven, never one sending from the shared mailbox.
 */
export function unsupportedCampaign(campaignId: number): boolean {
  const key = Math.floor(campaignId / 100);
  if (sharesMailbox(key) && (campaignId % 100) % 2 === 0) return false;
  return mix(campaignId, 115) % 11 === 0;
}

const OTHER_STATUSES: SeededCampaignStatus[] = ['DRAFT', 'EDITED', 'PAUSED', 'STOPPED', 'COMPLETED'];

/** `YYYY-MM-DDTHH:MM:SS+0000`, a day within the 400 days before 2026-06-01, fixed per campaign. */
function createdAt(seed: number): string {
  const base = Date.UTC(2026, 5, 1);
  const date = new Date(base - (mix(seed, 90) % 400) * 86_400_000 - (mix(seed, 91) % 86_400) * 1000);
  return `${date.toISOString().slice(0, 19)}+0000`;
}

/**
 * Campaigns of an account: `running` RUNNING ones, then 0–6 in the other statuses. `key` makes the
 * picks deterministic per account; ids are `key * 100 + n`.
 */
export function accountCampaigns(key: number, accountName: string, running: number): CampaignItem[] {
  const domain = domainOf(accountName);
  const others = mix(key, 80) % 7;
  const statuses: SeededCampaignStatus[] = [
    ...Array<SeededCampaignStatus>(running).fill('RUNNING'),
    ...Array.from({ length: others }, (_, i) => pick(OTHER_STATUSES, key, 81 + i)),
  ];
  return statuses.map((status, n) => {
    const seed = key * 100 + n;
    const withError = status !== 'DRAFT' && mix(seed, 92) % 9 === 0;
    return {
      id: seed,
      name: `${pick(TOPICS, seed, 93)} ${n + 1}`,
      status,
      created: createdAt(seed),
      from_name: pick(PEOPLE, key, 20),
      from_email: `sales@${domain}`,
      from_emails:
        sharesMailbox(key) && n % 2 === 0 ? [`sales@${domain}`, SHARED_MAILBOX] : [`sales@${domain}`],
      folder_name: pick(FOLDERS, seed, 94),
      folder_id: 1 + (mix(seed, 94) % FOLDERS.length),
      per_day: [20, 50, 100, 150][mix(seed, 95) % 4] as number,
      error: withError ? (status === 'PAUSED' ? BOUNCE_SHIELD_ERROR : pick(ERRORS, seed, 96)) : null,
      tz: pick(ZONES, key, 97),
    };
  });
}

/** Statistics `?id=N` adds (invented, stable). */
export function campaignStats(c: CampaignItem) {
  const sent = c.status === 'DRAFT' ? 0 : 40 + (mix(c.id, 98) % 900);
  const opened = Math.floor(sent * ((mix(c.id, 99) % 60) / 100));
  const replied = Math.floor(opened * ((mix(c.id, 100) % 25) / 100));
  return { sent, delivered: sent - Math.floor(sent / 40), opened, replied, bounced: Math.floor(sent / 40) };
}
