/**
 * A plan file manages what it names. A company whose entry (or the defaults) lists `webhooks` has its
 * subscriptions managed: one the file does not list is unmanaged. `plan` shows it as a "?" line and
 * leaves it; `apply --prune` unsubscribes it (listed and asked like every change). Without --prune,
 * nothing the file does not name is changed.
 */
import type { Company, Webhook } from '../api/types.js';
import { command, option } from '../terms.js';
import { forCompany } from './names.js';
import type { DesiredCompany } from './plan-file.js';
import { listedEvent } from './webhook-input.js';

/** A subscription of a company of the file that the file does not list. */
export interface UnmanagedWebhook {
  company: string;
  company_id: number;
  /** In upper case, as the service lists it. */
  event: string;
  url: string;
}

/** The company's subscriptions that its entry of the file does not list (none when it lists no webhooks). */
export function unmanagedWebhooks(
  desired: DesiredCompany,
  company: Company,
  present: readonly Webhook[],
): UnmanagedWebhook[] {
  if (!desired.managesWebhooks) return [];
  const wanted = new Set(desired.webhooks.map((w) => `${w.event.toLowerCase()} ${w.url}`));
  const seen = new Set<string>();
  return present.flatMap((w) => {
    const key = `${w.event.toLowerCase()} ${w.target_url}`;
    if (wanted.has(key) || seen.has(key)) return [];
    seen.add(key);
    return [
      { company: company.name, company_id: company.id, event: listedEvent(w.event), url: w.target_url },
    ];
  });
}

/** `? webhook EMAIL_OPENED → https://… for "Acme Ltd" is not in the file` */
export function describeUnmanaged(u: Pick<UnmanagedWebhook, 'company' | 'event' | 'url'>): string {
  return `? webhook ${u.event} → ${u.url} ${forCompany(u.company)} is not in the file`;
}

/** `- webhook EMAIL_OPENED → https://… for "Acme Ltd" (not in the file)`: a removal that --prune makes. */
export function describePrune(u: Pick<UnmanagedWebhook, 'company' | 'event' | 'url'>): string {
  return `- webhook ${u.event} → ${u.url} ${forCompany(u.company)} (not in the file)`;
}

/** The summary's part for subscriptions left alone: "2 webhooks not in the file (left alone; agency apply --prune removes them)". */
export function unmanagedSummary(count: number): string[] {
  if (count === 0) return [];
  return [
    `${count} webhook${count === 1 ? '' : 's'} not in the file (left alone; ${command('apply')} ${option('prune')} removes ${count === 1 ? 'it' : 'them'})`,
  ];
}
