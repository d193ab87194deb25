/**
 * Look-alike webhook URLs: two URLs that differ only in the host's case or a trailing slash are most
 * likely one endpoint typed twice, but the service stores the text, so they never match. Every
 * webhook command that names a URL (subscribe, unsubscribe, move --from, plan) warns with the same
 * comparison and the same sentence; only what follows from the miss differs.
 */
import type { Webhook } from '../api/types.js';
import type { Target } from './targets.js';
import { listedEvent } from './webhook-input.js';

/** Events compare case-insensitively; the URL compares exactly (the service stores the text). */
export function hasWebhook(list: readonly Webhook[], event: string, url: string): boolean {
  return list.some((w) => w.event.toLowerCase() === event.toLowerCase() && w.target_url === url);
}

/** The form in which look-alike URLs meet: the host in lower case (URL parsing does that), no trailing slash. */
function looseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}${parsed.search}`;
  } catch {
    return url;
  }
}

/** The URLs subscribed to `event` that look like `url` without being it. */
export function lookalikeUrls(list: readonly Webhook[], event: string, url: string): string[] {
  const loose = looseUrl(url);
  const found = list.filter(
    (w) =>
      w.event.toLowerCase() === event.toLowerCase() &&
      w.target_url !== url &&
      looseUrl(w.target_url) === loose,
  );
  return [...new Set(found.map((w) => w.target_url))];
}

/**
 * What the miss means for the command: subscribe makes a second subscription; unsubscribe and move
 * leave the look-alike where it is (the operator believes it gone).
 */
export type LookalikeConsequence = 'second-subscription' | 'stays' | 'not-moved';

/** "https://crm.example.com/h/ is not subscribed to PROSPECT_REPLIED for company 1001, but https://CRM.example.com/h is; …" */
export function lookalikeUrlWarning(
  url: string,
  event: string,
  existing: string,
  where: string,
  consequence: LookalikeConsequence = 'second-subscription',
): string {
  const then = {
    'second-subscription': 'this makes a second subscription',
    stays: `${existing} stays subscribed`,
    'not-moved': `${existing} stays subscribed and was not moved`,
  }[consequence];
  return `${url} is not subscribed to ${listedEvent(event)} ${where}, but ${existing} is; URLs must match exactly (host case and a trailing slash count), so ${then}.`;
}

/**
 * The look-alikes met across a fleet command's accounts, one warning per (event, look-alike URL) that
 * names every account it was met in.
 */
export class LookalikeNotes {
  private readonly met = new Map<string, { event: string; existing: string; accounts: string[] }>();

  constructor(
    private readonly url: string,
    private readonly consequence: LookalikeConsequence,
  ) {}

  /** Notes `event` of one account whose list was read, unless `url` itself is subscribed to it. */
  note(target: Target, present: readonly Webhook[], event: string): void {
    if (hasWebhook(present, event, this.url)) return;
    for (const existing of lookalikeUrls(present, event, this.url)) {
      const key = `${event.toLowerCase()}\n${existing}`;
      const account = target.companyId === null ? 'this account' : `company ${target.companyId}`;
      const entry = this.met.get(key) ?? { event, existing, accounts: [] };
      if (!entry.accounts.includes(account)) entry.accounts.push(account);
      this.met.set(key, entry);
    }
  }

  warnings(): string[] {
    return [...this.met.values()].map(({ event, existing, accounts }) => {
      const where =
        accounts.length === 1
          ? `for ${accounts[0]}`
          : `for ${accounts.length} accounts (${accounts.join(', ')})`;
      return lookalikeUrlWarning(this.url, event, existing, where, this.consequence);
    });
  }
}
