/**
 * Local checks of webhook input, made before any request: the target URL and the event's form.
 * The event list is not closed (the service adds events): an unknown well-formed name is a warning.
 * Small, importing only the error type, the near-miss test and the one set of control characters, so
 * that shell completion can offer the names cheaply.
 */
import { UsageError } from '../errors.js';
import { editDistance } from '../output/suggest.js';
import { groupDigits, hasControlCharacters } from '../output/text.js';
import { option } from '../terms.js';

/** The subscribable events the service documents, in the lower-case form it takes on subscribe. */
export const WEBHOOK_EVENTS = [
  'prospect_replied',
  'prospect_autoreplied',
  'prospect_interested',
  'prospect_maybe_later',
  'prospect_not_interested',
  'prospect_non_responsive',
  'prospect_blacklisted',
  'prospect_opt_out',
  'prospect_bounced',
  'prospect_invalid',
  'prospect_saved',
  'secondary_replied',
  'email_opened',
  'link_clicked',
  'campaign_sent',
  'campaign_completed',
  'campaign_paused_by_bounce_shield',
  'followup_after_autoreply',
  'task_created',
  'task_done',
  'task_ignored',
  'linkedin_automation_connection_request_accepted',
  'linkedin_automation_account_connected',
  'linkedin_automation_account_disconnected',
] as const;

const EVENT_FORM = /^[A-Za-z][A-Za-z0-9_]*$/;
const MAX_URL_LENGTH = 2048;

export interface CheckedEvent {
  /** Lower case: the form sent on subscribe and unsubscribe. */
  event: string;
  /** Set when the name is well formed but not one of the documented events. */
  warning?: string | undefined;
}

/** The form an event is sent and compared in (lower case, without spaces around it). */
export function eventKey(value: string): string {
  return value.trim().toLowerCase();
}

/** Edits within which an unknown event is taken for a typo of a known one (`prospect_replyed`). */
const TYPO_EDITS = 2;

/**
 * Throws a usage error for a malformed event, and for one within two edits of a known event (a typo
 * subscribed would stay unnoticed: no event ever arrives) unless `allowUnknown` (--allow-unknown-event;
 * `allowUnknownEvent: true` in a plan file). `where` names its source ("--event", "plan.yaml line 4").
 */
export function checkEvent(value: string, where = option('event'), allowUnknown = false): CheckedEvent {
  const text = value.trim();
  if (!EVENT_FORM.test(text)) {
    throw new UsageError(
      `Invalid event ${JSON.stringify(value)} (${where}): an event is a letter followed by letters, digits or _, such as prospect_replied.`,
    );
  }
  const event = eventKey(text);
  if ((WEBHOOK_EVENTS as readonly string[]).includes(event)) return { event };
  const close = WEBHOOK_EVENTS.filter((known) => editDistance(event, known) <= TYPO_EDITS);
  const unknown = `${JSON.stringify(text)} (${where}) is not an event the tool knows`;
  // A near miss is most likely a typo: refused, naming the event meant, not the whole list.
  if (close.length > 0 && !allowUnknown) {
    throw new EventTypoError(`${unknown}: did you mean ${close.join(' or ')}?`, {
      hint: `Nothing was sent. If the service has an event by that name, add ${where === option('event') ? ALLOW_UNKNOWN_EVENT.flag : ALLOW_UNKNOWN_EVENT.file}.`,
    });
  }
  const warning =
    close.length > 0
      ? `${unknown} (did you mean ${close.join(' or ')}?); used as given.`
      : `${unknown}; used as given (the service adds events). Known events: ${WEBHOOK_EVENTS.join(', ')}.`;
  return { event, warning };
}

/** An event refused as a typo of a known one (its hint names the escape). */
export class EventTypoError extends UsageError {}

/** How the escape from the typo refusal is spelt on the command line and in a plan file. */
export const ALLOW_UNKNOWN_EVENT = {
  flag: option('allow-unknown-event'),
  file: `allow_unknown_event: true to that webhook in the file (or run with ${option('allow-unknown-event')})`,
};

/** The form the service lists events in. */
export function listedEvent(event: string): string {
  return event.toUpperCase();
}

/** Returns the URL as given (trimmed) when it is an absolute http(s) address without credentials. */
export function checkWebhookUrl(value: string, where = option('url')): string {
  const text = value.trim();
  const bad = (why: string) =>
    new UsageError(`Invalid webhook URL ${JSON.stringify(value)} (${where}): ${why}.`);
  if (text === '') throw bad('it is empty');
  if (text.length > MAX_URL_LENGTH) throw bad(`it is longer than ${groupDigits(MAX_URL_LENGTH)} characters`);
  // The service stores and compares the text; whitespace or control characters inside would be invisible.
  if (/\s/.test(text) || hasControlCharacters(text)) throw bad('it contains spaces or control characters');
  if (!/^https?:\/\//i.test(text))
    throw bad('expected an absolute http or https address such as https://crm.example.com/hooks/woodpecker');
  // The text is what the service stores: URL() would read https:///path as the host "path".
  if (/^https?:\/\/[/\\?#]/i.test(text)) throw bad('it has no host');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw bad('expected an absolute address such as https://crm.example.com/hooks/woodpecker');
  }
  if (url.username !== '' || url.password !== '') throw bad('it must not carry a user name or password');
  if (url.hostname === '') throw bad('it has no host');
  return text;
}
