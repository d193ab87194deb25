/** The plan as it is printed: one line per change, the "!" lines, the closing summary. */
import type { GuestPermission } from './guests.js';
import { describeCompany, forCompany } from './names.js';
import { type Blocked, type Change, type Plan, planChanges } from './plan.js';
import { describeShield } from './plan-bounce-shield.js';
import { describeSimilar } from './plan-similar.js';
import { describePrune, describeUnmanaged, unmanagedSummary } from './plan-unmanaged.js';

/** One line per change, as the plan prints it. */
export function describeChange(change: Change): string {
  switch (change.type) {
    case 'company':
      return `+ company ${JSON.stringify(change.name)}`;
    case 'key':
      return `+ key ${JSON.stringify(change.label)} ${forCompany(change.company)}`;
    case 'webhook':
      return `+ webhook ${change.event} → ${change.url} ${forCompany(change.company)}`;
    case 'unmanaged-webhook':
      return describePrune(change);
    case 'guest':
      return `+ guest ${change.email} ${forCompany(change.company)}`;
    case 'guest-permissions':
      return `~ guest ${change.email} permissions ${permissionList(change.from)} → ${permissionList(change.to)} ${forCompany(change.company)}`;
    case 'bounce-shield':
      return describeShield(change);
  }
}

/** `[]` or `[mailboxes]`, as the plan file writes permissions. */
export function permissionList(permissions: readonly GuestPermission[]): string {
  return `[${permissions.join(', ')}]`;
}

/** The change lines, the "?" lines of what the file does not name, then the "!" lines of what cannot be done. */
export function planLines(plan: Plan): string[] {
  return [
    ...planChanges(plan).map(describeChange),
    ...(plan.prune ? [] : plan.unmanaged.map(describeUnmanaged)),
    ...plan.similar.map(describeSimilar),
    ...plan.blocked.map(describeBlocked),
  ];
}

/** `! "Old Client" (id 1007) is inactive: webhooks cannot be read or changed` */
export function describeBlocked(blocked: Blocked): string {
  const company = describeCompany({ id: blocked.company_id, name: blocked.company });
  if (blocked.user !== undefined) return `! ${blocked.user} has no access to ${company}: ${blocked.reason}`;
  return `! ${company} ${blocked.reason}`;
}

/** The closing line of a plan, for stderr. */
export function planSummary(plan: Plan): string {
  const changes = planChanges(plan);
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const rest = [
    `${plan.unchanged} in place`,
    ...(plan.blocked.length + plan.similar.length
      ? [`${plan.blocked.length + plan.similar.length} blocked`]
      : []),
    ...(plan.prune ? [] : unmanagedSummary(plan.unmanaged.length)),
    `${count(plan.unmentioned, 'company', 'companies')} of the agency not in the file (never changed)`,
  ].join('; ');
  if (changes.length === 0) return `No changes. ${rest}.`;
  const of = (type: Change['type']) => changes.filter((c) => c.type === type).length;
  const kinds = [
    count(of('company'), 'company', 'companies'),
    count(of('key'), 'key', 'keys'),
    count(of('webhook'), 'webhook', 'webhooks'),
    ...(of('guest') > 0 ? [count(of('guest'), 'guest', 'guests')] : []),
    ...(of('guest-permissions') > 0
      ? [count(of('guest-permissions'), 'guest permission change', 'guest permission changes')]
      : []),
    ...(of('bounce-shield') > 0 ? [count(of('bounce-shield'), 'threshold', 'thresholds')] : []),
    ...(of('unmanaged-webhook') > 0
      ? [count(of('unmanaged-webhook'), 'webhook to unsubscribe', 'webhooks to unsubscribe')]
      : []),
  ].join(', ');
  const changed = of('guest-permissions') + of('bounce-shield') > 0;
  const removed = of('unmanaged-webhook') > 0;
  const verb = removed
    ? removalVerb(changes.length - of('unmanaged-webhook'), changed)
    : changed
      ? 'to add or change'
      : 'to add';
  return `Plan: ${changes.length} ${verb} (${kinds}); ${rest}.`;
}

/** "to remove", "to add or remove", "to add, change or remove": what a plan with removals does. */
function removalVerb(others: number, changed: boolean): string {
  if (others === 0) return 'to remove';
  return changed ? 'to add, change or remove' : 'to add or remove';
}
