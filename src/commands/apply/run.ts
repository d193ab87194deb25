/** The handler of `apply`: the plan, the question, then the changes, each reported as it is made. */

import type { AgencyClient } from '../../api/client.js';
import type { CreatedCompany } from '../../api/types.js';
import {
  AgencyError,
  ExitCode,
  OutcomeExit,
  type OutputError,
  PartialFailureError,
  UsageError,
} from '../../errors.js';
import {
  type Applied,
  applyPlan,
  type CreationOutcome,
  describeApplied,
  keysOutLine,
} from '../../fleet/apply.js';
import { createInChunks, LookalikeError } from '../../fleet/bulk-create.js';
import { failedCount, rowsFailed } from '../../fleet/failures.js';
import { KeysOut } from '../../fleet/keys-out.js';
import { settledWebhookWrites } from '../../fleet/lost-answer.js';
import { computePlan, planChanges } from '../../fleet/plan.js';
import { type DesiredState, readDesiredState } from '../../fleet/plan-file.js';
import { planLines, planSummary } from '../../fleet/plan-lines.js';
import { keysOwnerNote, unreadableFailure } from '../../fleet/plan-user.js';
import { describePending, pendingInvitations, pendingNote } from '../../history/invitations.js';
import { parseConcurrency } from '../../input/parse.js';
import { confirm } from '../../input/prompt.js';
import type { Creation } from '../../output/stdout-watch.js';
import { NOUNS, plural } from '../../output/summary.js';
import type { AnswerInput } from '../../output/terminal.js';
import type { Runtime } from '../../runtime.js';
import { command, option } from '../../terms.js';
import type { ApplyOptions } from './index.js';

export async function applyCommand(rt: Runtime, opts: ApplyOptions): Promise<void> {
  const { terminal } = rt;
  // Checked before anything is read or sent: a script without --yes must not half-run.
  const answers = opts.yes ? undefined : answerInput(terminal, opts.file);
  const concurrency = parseConcurrency(opts.concurrency);
  const warn = (message: string) => rt.out.warn(message);
  const desired = await readDesiredState(opts.file, {
    terminal,
    signal: rt.ctx.signal,
    warn,
    note: (message) => rt.out.note(message),
    allowUnknownEvents: opts.allowUnknownEvent,
  });
  // Opened before the agency is read: a path that cannot be written is exit 2 with nothing sent.
  const keysOut = opts.keysOut === undefined ? undefined : KeysOut.open(opts.keysOut);
  try {
    await planAndApply(rt, opts, concurrency, desired, keysOut, answers);
  } finally {
    keysOut?.close();
    if (answers !== terminal.stdin) answers?.destroy();
  }
}

/**
 * Where the answer to the question is read: stdin on a terminal; when stdin is not one (the plan is
 * piped in: `cat agency.yaml | agency apply -f -`) and stderr is, the controlling terminal (/dev/tty),
 * as sudo asks. With neither, apply cannot ask: exit 2 before anything is read or sent.
 */
function answerInput(terminal: Runtime['terminal'], file: string): AnswerInput {
  if (terminal.stdinIsTTY && terminal.stderrIsTTY) return terminal.stdin;
  const tty = terminal.stderrIsTTY ? terminal.openControllingTerminal() : undefined;
  if (tty) return tty;
  const review = `Review the changes with \`${command('plan -f FILE')}\`, then run apply with ${option('yes')}. Nothing was sent.`;
  if (file === '-' && !terminal.stdinIsTTY) {
    throw new UsageError(
      `apply reads the plan from stdin, so it cannot read an answer there, and there is no terminal to ask on: it needs ${option('yes')}.`,
      { hint: review },
    );
  }
  throw new UsageError(
    `apply changes the agency and needs ${option('yes')} when it cannot ask on a terminal.`,
    {
      hint: review,
    },
  );
}

/** Reads the agency, shows the plan, asks (unless --yes), then makes the changes. */
async function planAndApply(
  rt: Runtime,
  opts: ApplyOptions,
  concurrency: number,
  desired: DesiredState,
  keysOut: KeysOut | undefined,
  /** Where the answer to the question is read; undefined with --yes (no question). */
  answers: AnswerInput | undefined,
): Promise<void> {
  const { out, terminal } = rt;
  const reader = rt.api({ connections: concurrency + 1 });
  const plan = await computePlan(desired, reader, {
    concurrency,
    signal: rt.ctx.signal,
    warn: (message) => out.warn(message),
    allowSimilar: opts.allowSimilar,
    prune: opts.prune,
  });
  const invitations = await pendingInvitations(rt, opts, plan, { resend: opts.resendInvitations === true });
  const owner = await keysOwnerNote(reader, desired);

  for (const line of [...planLines(plan), ...invitations.pending.map(describePending)]) out.info(line);
  if (owner) out.info(owner);
  if (invitations.pending.length > 0) out.info(pendingNote(invitations.pending.length));
  // A company that only looks like an existing one could never be undone: the whole file is refused.
  if (plan.similar.length > 0) {
    throw new LookalikeError(plan.similar, out.json ? Number.POSITIVE_INFINITY : undefined);
  }
  const pending = planChanges(plan).length;
  // "No changes. …" when there is nothing to do: no question, no POST.
  out.info(planSummary(plan));
  // Companies the key's user cannot read get no change; the run ends with their error.
  const unreadable = plan.unreadable.length > 0 ? unreadableFailure(plan.unreadable) : undefined;
  if (pending === 0) {
    if (out.json) out.jsonValue([]);
    if (unreadable) throw unreadable;
    return;
  }
  if (
    answers &&
    !(await confirm(
      { stdin: answers, stderr: terminal.stderr },
      `Apply ${pending} change${pending === 1 ? '' : 's'}?`,
      false,
      rt.ctx.signal,
    ))
  ) {
    // Not an error (the user chose), but not a success either: `apply && next-step` must stop here.
    throw new OutcomeExit('Apply cancelled: nothing was changed.', ExitCode.failure);
  }

  // A POST in flight is not aborted by Ctrl-C, so that its outcome (a key!) is reported; none starts after.
  const api = rt.api({ connections: concurrency + 1, interruptible: false });
  const made: Applied[] = [];
  // --json: every change in the order reported, the failed and skipped ones too (with their reason).
  const reported: Applied[] = [];
  // A keys file that cannot be written stops the run like Ctrl-C: nothing further is created.
  const keysFileFailed = new AbortController();
  let keysFileError: OutputError | undefined;
  const outcome = await applyPlan(
    plan,
    {
      keys: api,
      // After a lost answer, the account's webhooks are read again to learn what happened.
      webhooks: settledWebhookWrites(api, (message) => out.warn(message)),
      guests: api,
      campaigns: api,
      createCompanies: (names, knownIds, onCreated) => createForApply(rt, api, names, knownIds, onCreated),
    },
    {
      concurrency,
      signal: AbortSignal.any([rt.ctx.signal, keysFileFailed.signal]),
      note: (message) => out.warn(message),
      onChange: (entry) => {
        reported.push(entry);
        if (entry.result === 'failed' || entry.result === 'skipped' || entry.result === 'unknown') {
          out.failure(describeApplied(entry));
          return;
        }
        // The key reaches the file before anything else happens.
        if (entry.type === 'key' && keysOut) {
          keysFileError ??= keysOut.tryAppend(keysOutLine(entry));
          if (keysFileError) keysFileFailed.abort();
        }
        made.push(entry);
        out.created(readBack(entry));
        if (!out.json) out.wrappedLine(describeApplied(entry));
      },
    },
  );
  if (out.json) out.jsonValue(reported);
  await invitations.record(
    made.flatMap((m) =>
      m.type === 'guest' && m.company_id !== null ? [{ company_id: m.company_id, email: m.email }] : [],
    ),
  );
  if (keysFileError) throw keysFileError;
  const failed = outcome.applied.length - made.length;
  if (outcome.interrupted) {
    throw new PartialFailureError(
      `Interrupted after ${made.length} of ${plural(pending, NOUNS.change)} (listed on stdout). Run apply again to finish.`,
      ExitCode.interrupted,
    );
  }
  if (failed > 0)
    throw rowsFailed(failedHeadline(outcome.applied, pending), outcome.failures, { grouped: false });
  const applied = `Applied ${made.length} change${made.length === 1 ? '' : 's'}.`;
  if (unreadable) {
    out.info(applied);
    throw unreadable;
  }
  out.success(applied);
}

/**
 * "2 of 9 changes failed (…)", and of invitations whose answer was lost, "3 of 9 changes have an
 * unknown outcome (…)": never counted as failed, since the service may have taken them.
 */
function failedHeadline(applied: readonly Applied[], pending: number): string {
  const unknown = applied.filter((a) => a.result === 'unknown').length;
  const failed = applied.filter((a) => a.result === 'failed' || a.result === 'skipped').length;
  const lost = `${unknown} of ${plural(pending, NOUNS.change)} ${unknown === 1 ? 'has' : 'have'} an unknown outcome (the answer was lost; running apply again is safe)`;
  if (unknown === 0) return failedCount(failed, pending, 'change');
  if (failed === 0) return `${lost}.`;
  return `${failedCount(failed, pending, 'change')} ${lost}.`;
}

/** What a change made, and the command that shows it, for a result stdout could not take. */
function readBack(entry: Applied): Creation {
  const id = entry.company_id ?? '<company>';
  switch (entry.type) {
    case 'company':
      return {
        what: `company ${JSON.stringify(entry.name)} (id ${id})`,
        readBack: `agency companies view ${id}`,
      };
    case 'key':
      return {
        what: `the key ${JSON.stringify(entry.label)} of company ${id}`,
        readBack: `agency keys list ${id} --reveal`,
      };
    case 'webhook':
    case 'unmanaged-webhook':
      return {
        what: `the webhook ${entry.event} → ${entry.url} of company ${id}${entry.type === 'webhook' ? '' : ' (unsubscribed)'}`,
        readBack: `agency webhooks --company ${id}`,
      };
    case 'bounce-shield':
      return {
        what: `the Bounce Shield of campaign ${entry.campaign_id} of company ${id}`,
        readBack: `agency campaigns bounce-shield --company ${id} --campaign ${entry.campaign_id}`,
      };
    case 'guest':
    case 'guest-permissions':
      return {
        what: `the guest ${entry.email} of company ${id}`,
        readBack: `agency companies users ${id} --role guest`,
      };
  }
}

/** Bulk creation with its lost-answer check; the plan's listing says which companies existed before. */
async function createForApply(
  rt: Runtime,
  api: AgencyClient,
  names: string[],
  knownIds: ReadonlySet<number>,
  onCreated?: (companies: readonly CreatedCompany[]) => void,
): Promise<CreationOutcome> {
  const result = await createInChunks(
    { reads: api, writes: api },
    { toCreate: names, existing: [], lookalikes: [], seenIds: new Set(knownIds) },
    {
      signal: rt.ctx.signal,
      notes: { info: (m) => rt.out.info(m), warn: (m) => rt.out.warn(m) },
      onCreated,
    },
  );
  const failed: CreationOutcome['failed'] = [];
  const { failure } = result;
  if (failure && failure.error instanceof AgencyError && !(failure.error.exitCode === ExitCode.interrupted)) {
    const created = new Set(result.created.map((c) => c.name.trim()));
    for (const name of result.chunks.slice(failure.index).flat()) {
      if (!created.has(name)) failed.push({ name, error: failure.error });
    }
  }
  return { created: result.created, failed };
}
