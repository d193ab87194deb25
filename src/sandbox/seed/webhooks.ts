/**
 * The sandbox's invented world, part 3: webhook event names (those the service's docs show; the
 * service adds more over time) and the subscriptions an account starts with.
 */
import { FIRST_COMPANY_ID } from '../types.js';
import { domainOf, mix, pick } from './names.js';

export interface WebhookItem {
  target_url: string;
  event: string;
}

/** Events seeded subscriptions use (after PROSPECT_REPLIED): the ones CRMs usually want. */
const SEEDED_EVENTS = [
  'LINK_CLICKED',
  'EMAIL_OPENED',
  'PROSPECT_BOUNCED',
  'PROSPECT_INTERESTED',
  'PROSPECT_AUTOREPLIED',
  'PROSPECT_NOT_INTERESTED',
  'CAMPAIGN_COMPLETED',
];

/**
 * 0 to 2 subscriptions, the first always PROSPECT_REPLIED (about a third of the companies have none).
 * The first company ("Acme Ltd", the one examples and tests reach for first) has two.
 */
export function companyWebhooks(companyId: number, companyName: string): WebhookItem[] {
  const count = companyId === FIRST_COMPANY_ID ? 2 : mix(companyId, 2) % 3;
  const domain = domainOf(companyName);
  const items: WebhookItem[] = [];
  for (let i = 0; i < count; i++) {
    const event = i === 0 ? 'PROSPECT_REPLIED' : pick(SEEDED_EVENTS, companyId, 50 + i);
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

export function hqWebhooks(domain: string): WebhookItem[] {
  return [
    { target_url: `https://hooks.${domain}/woodpecker/replies`, event: 'PROSPECT_REPLIED' },
    { target_url: `https://hooks.${domain}/woodpecker/clicks`, event: 'LINK_CLICKED' },
  ];
}
