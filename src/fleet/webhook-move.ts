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
import { serviceDetail } from '../output/summary.js';
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
  const lost = new Map<MoveRow, string>();
  const moveRows = moveAccount(api, move, (row, reason) => lost.set(row, reason));
  const outcome = await eachAccount(api, move.targets, move, {
    skipped: (target) => rowsFor(target, named, 'skipped-inactive'),
    unreadable: (target, error) => rowsFor(target, named, 'failed', error),
    withList: (target, present, fail) => {
      // A --from that only looks like a subscribed URL moves nothing: say so (the events given, else any).
      const events = move.events.length > 0 ? move.events : present.map((w) => w.event);
      for (const event of events) lookalikes.note(target, present, event);
      return moveRows(target, present, fail);
    },
  });
  return { ...outcome, warnings: lookalikes.warnings(), lost };
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
  if (state.hasTo || !state.full) {
    // --to first (already there after a run cut short), then --from: an event always has a URL.
    if (!state.hasTo) {
      try {
        await api.subscribeWebhook(cid, event, move.to);
      } catch (error) {
        return failed(error, `${listed} stays at ${move.from}; subscribing ${move.to} failed`);
      }
    }
    try {
      await api.unsubscribeWebhook(cid, event, move.from);
    } catch (error) {
      return failed(error, `${listed} is now subscribed at both URLs; unsubscribing ${move.from} failed`);
    }
    return row(target.companyId, event, move, 'moved');
  }
  // Three URLs already: one must go first.
  try {
    await api.unsubscribeWebhook(cid, event, move.from);
  } catch (error) {
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
