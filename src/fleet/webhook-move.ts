/**
 * `webhooks move --from <url> --to <url>`: in every target account, each event subscribed at --from
 * (or only the --events given) is pointed at --to, so that no event goes undelivered longer than it
 * must. The service allows 3 URLs per event per account (409 beyond), which decides the order:
 *
 * - fewer than 3 URLs: subscribe --to first, then unsubscribe --from (never a moment without either);
 * - already 3: unsubscribe --from first (else the subscribe is refused), then subscribe --to; if that
 *   fails, subscribe --from again and report the row `restored` (a failure for the exit code); if even
 *   that fails, the row is `failed`, the account has lost the event's hook, and every form of the
 *   report says so (its message, a terminal's reason, the closing summary), not the service's words alone.
 *
 * Reads first, so a second run sends nothing (`already-moved`, or `absent`).
 */
import { MAX_URLS_PER_EVENT } from '../api/resources/webhooks.js';
import type { Webhook } from '../api/types.js';
import type { AgencyError } from '../errors.js';
import { editDistance } from '../output/suggest.js';
import { serviceDetail } from '../output/summary.js';
import { option } from '../terms.js';
import { isRowFailure, type RowError, rowError } from './failures.js';
import type { WebhookPort } from './ports.js';
import type { Target } from './targets.js';
import { type AccountsOutcome, type AccountWork, eachAccount, eachEvent } from './webhook-changes.js';
import { listedEvent } from './webhook-input.js';
import { hasWebhook, LookalikeNotes } from './webhook-lookalikes.js';

type MoveResult =
  | 'moved'
  | 'already-moved'
  | 'would-move'
  | 'absent'
  | 'skipped-inactive'
  | 'failed'
  | 'restored';

export interface MoveRow {
  /** null for the key's own account. */
  company_id: number | null;
  /** Upper case, as the service lists events; null on the one row of an account with neither URL. */
  event: string | null;
  from: string;
  to: string;
  result: MoveResult;
  error?: RowError;
}

export interface WebhookMove {
  from: string;
  to: string;
  /** Checked, lower case; empty = every event subscribed at --from. */
  events: readonly string[];
  targets: readonly Target[];
  dryRun?: boolean | undefined;
  concurrency: number;
  signal?: AbortSignal | undefined;
}

export interface MoveOutcome extends AccountsOutcome<MoveRow> {
  warnings: string[];
  /**
   * The rows whose account is now subscribed at neither URL (--from removed, --to refused, --from
   * refused again), each with the words a terminal shows as its reason in place of the service's.
   */
  lost: Map<MoveRow, string>;
}

export async function moveWebhooks(api: WebhookPort, move: WebhookMove): Promise<MoveOutcome> {
  const rowsFor = (
    target: Target,
    events: readonly (string | null)[],
    result: MoveResult,
    error?: AgencyError,
  ) =>
    events.map((event) => ({
      ...row(target.companyId, event, move, result),
      ...(error ? { error: rowError(error) } : {}),
    }));
  const named = move.events.length > 0 ? move.events : [null];
  const lookalikes = new LookalikeNotes(move.from, 'not-moved');
  const seen = new SubscribedUrls();
  const lost = new Map<MoveRow, string>();
  const moveRows = moveAccount(api, move, (row, reason) => lost.set(row, reason));
  const outcome = await eachAccount(api, move.targets, move, {
    skipped: (target) => rowsFor(target, named, 'skipped-inactive'),
    unreadable: (target, error) => rowsFor(target, named, 'failed', error),
    withList: (target, present, fail) => {
      // A --from that only looks like a subscribed URL moves nothing: say so (the events given, else any).
      const events = move.events.length > 0 ? move.events : present.map((w) => w.event);
      for (const event of events) lookalikes.note(target, present, event);
      seen.note(present, move.events);
      return moveRows(target, present, fail);
    },
  });
  const nowhere = seen.nowhere(move);
  return { ...outcome, warnings: [...lookalikes.warnings(), ...(nowhere ? [nowhere] : [])], lost };
}

/**
 * The URLs subscribed in the accounts read (to the events given, else any), each with the number of
 * accounts that have it: when neither --from nor --to is anywhere, a typo in --from is the likely
 * cause, and the nearest URL is named (a typo is never a quiet "nothing to do").
 */
class SubscribedUrls {
  readonly #accounts = new Map<string, number>();
  #read = 0;

  note(present: readonly Webhook[], events: readonly string[]): void {
    this.#read++;
    const urls = new Set(
      present
        .filter((w) => events.length === 0 || events.includes(w.event.toLowerCase()))
        .map((w) => w.target_url),
    );
    for (const url of urls) this.#accounts.set(url, (this.#accounts.get(url) ?? 0) + 1);
  }

  nowhere(move: WebhookMove): string | undefined {
    if (this.#read === 0 || this.#accounts.has(move.from) || this.#accounts.has(move.to)) return undefined;
    const none =
      this.#read === 1
        ? `${move.from} (${option('from')}) is not subscribed in the account read, nor is ${move.to} (${option('to')})`
        : `${move.from} (${option('from')}) is subscribed in none of the ${this.#read} accounts read, nor is ${move.to} (${option('to')})`;
    let nearest: string | undefined;
    for (const url of this.#accounts.keys()) {
      if (nearest === undefined || editDistance(url, move.from) < editDistance(nearest, move.from))
        nearest = url;
    }
    if (nearest === undefined)
      return `${none}; no URL is subscribed there${move.events.length ? ' to those events' : ''}.`;
    const count = this.#accounts.get(nearest) ?? 0;
    return `${none}; the nearest subscribed URL is ${nearest} (in ${count} ${count === 1 ? 'account' : 'accounts'}).`;
  }
}

/** The events to look at in one account: those given, else those subscribed at --from or --to. */
function eventsOf(present: readonly Webhook[], move: WebhookMove): string[] {
  if (move.events.length > 0) return [...move.events];
  const events: string[] = [];
  for (const w of present) {
    const event = w.event.toLowerCase();
    if ((w.target_url === move.from || w.target_url === move.to) && !events.includes(event))
      events.push(event);
  }
  return events;
}

/** Notes a row whose account lost the event's hook, with the short words for a terminal. */
type LostNote = (row: MoveRow, reason: string) => void;

function moveAccount(api: WebhookPort, move: WebhookMove, lost: LostNote): AccountWork<MoveRow>['withList'] {
  return async (target, present, fail) => {
    const events = eventsOf(present, move);
    if (events.length === 0) return [row(target.companyId, null, move, 'absent')];
    return eachEvent(events, move.signal, async (event) => {
      const hasFrom = hasWebhook(present, event, move.from);
      const hasTo = hasWebhook(present, event, move.to);
      if (!hasFrom) return row(target.companyId, event, move, hasTo ? 'already-moved' : 'absent');
      if (move.dryRun) return row(target.companyId, event, move, 'would-move');
      const full = present.filter((w) => w.event.toLowerCase() === event).length >= MAX_URLS_PER_EVENT;
      return moveEvent(api, target, event, move, { hasTo, full }, { fail, lost });
    });
  };
}

/** One event of one account, in the order the 3-URL cap allows. */
async function moveEvent(
  api: WebhookPort,
  target: Target,
  event: string,
  move: WebhookMove,
  state: { hasTo: boolean; full: boolean },
  report: { fail: (error: AgencyError, reason?: string) => void; lost: LostNote },
): Promise<MoveRow> {
  const { fail } = report;
  const cid = target.companyId ?? undefined;
  const failed = (error: unknown, message?: string): MoveRow => {
    if (!isRowFailure(error)) throw error;
    fail(error);
    const reason = rowError(error);
    return {
      ...row(target.companyId, event, move, 'failed'),
      error: message ? { ...reason, message: `${message}: ${reason.message}` } : reason,
    };
  };
  const listed = listedEvent(event);
  // A step the service refused may have been done meanwhile (another move of the same URLs at once):
  // what the account shows now decides, never the refusal alone.
  const now = async () => {
    try {
      const list = await api.webhooks(cid);
      return { from: hasWebhook(list, event, move.from), to: hasWebhook(list, event, move.to) };
    } catch (error) {
      if (!isRowFailure(error)) throw error;
      return undefined;
    }
  };
  if (state.hasTo || !state.full) {
    // --to first (already there after a run cut short), then --from: an event always has a URL.
    let subscribed = false;
    if (!state.hasTo) {
      try {
        await api.subscribeWebhook(cid, event, move.to);
        subscribed = true;
      } catch (error) {
        const seen = await now();
        if (!seen?.to) return failed(error, `${listed} stays at ${move.from}; subscribing ${move.to} failed`);
      }
    }
    try {
      await api.unsubscribeWebhook(cid, event, move.from);
    } catch (error) {
      const seen = await now();
      if (seen?.to && !seen.from)
        return row(target.companyId, event, move, subscribed ? 'moved' : 'already-moved');
      const where =
        seen === undefined
          ? 'may now be subscribed at both URLs (they could not be read again)'
          : seen.to && seen.from
            ? 'is now subscribed at both URLs'
            : seen.from
              ? `stays at ${move.from}`
              : 'is now subscribed at neither URL';
      return failed(error, `${listed} ${where}; unsubscribing ${move.from} failed`);
    }
    return row(target.companyId, event, move, 'moved');
  }
  // Three URLs already: one must go first.
  try {
    await api.unsubscribeWebhook(cid, event, move.from);
  } catch (error) {
    const seen = await now();
    if (seen?.to && !seen.from) return row(target.companyId, event, move, 'already-moved');
    // Gone meanwhile: the slot is free, --to follows as planned.
    if (seen?.from !== false)
      return failed(error, `${listed} stays at ${move.from}; unsubscribing it failed`);
  }
  try {
    await api.subscribeWebhook(cid, event, move.to);
    return row(target.companyId, event, move, 'moved');
  } catch (error) {
    if (!isRowFailure(error)) throw error;
    try {
      await api.subscribeWebhook(cid, event, move.from);
    } catch (again) {
      if (!isRowFailure(again)) throw again;
      return lostRow(target, event, move, { refused: error, again }, report);
    }
    fail(error);
    return {
      ...row(target.companyId, event, move, 'restored'),
      error: {
        ...rowError(error),
        message: `subscribing ${move.to} failed, ${move.from} restored: ${error.message}`,
      },
    };
  }
}

/**
 * --from removed, --to refused, --from refused again: the account gets the event at neither URL. The
 * service's words ("Invalid target") would read as "nothing changed", so the row's message, its
 * reason on a terminal and the closing summary all say first what was lost.
 */
function lostRow(
  target: Target,
  event: string,
  move: WebhookMove,
  errors: { refused: AgencyError; again: AgencyError },
  report: { fail: (error: AgencyError, reason?: string) => void; lost: LostNote },
): MoveRow {
  const { refused, again } = errors;
  const listed = listedEvent(event);
  const lost = `now subscribed at neither URL: ${move.from} was removed and could not be restored`;
  const why = serviceDetail(refused.message) ?? refused.message;
  const status = refused.status === null ? '' : `${refused.status} `;
  report.fail(again, `${listed} ${lost} (subscribing ${move.to}: ${status}${why})`);
  const failed: MoveRow = {
    ...row(target.companyId, event, move, 'failed'),
    error: {
      ...rowError(again),
      message: `${listed} is ${lost} (subscribing ${move.to} failed: ${refused.message}; subscribing ${move.from} again failed: ${again.message})`,
    },
  };
  report.lost(failed, `${lost} (${why})`);
  return failed;
}

function row(companyId: number | null, event: string | null, move: WebhookMove, result: MoveResult): MoveRow {
  return {
    company_id: companyId,
    event: event === null ? null : listedEvent(event),
    from: move.from,
    to: move.to,
    result,
  };
}
