/** The handler of `plan`: read the file, read the agency, print the changes it takes. */

import { AgencyError, ExitCode } from '../../errors.js';
import { computePlan, planChanges, planJson } from '../../fleet/plan.js';
import { readDesiredState } from '../../fleet/plan-file.js';
import { planLines, planSummary } from '../../fleet/plan-lines.js';
import { keysOwnerNote, unreadableFailure } from '../../fleet/plan-user.js';
import { describePending, pendingInvitations, pendingNote } from '../../history/invitations.js';
import { parseConcurrency } from '../../input/parse.js';
import type { Runtime } from '../../runtime.js';
import type { PlanOptions } from './index.js';

/** `plan --exit-code` with changes pending. */
class ChangesPending extends AgencyError {
  readonly exitCode = ExitCode.changesPending;
}

export async function planCommand(rt: Runtime, opts: PlanOptions): Promise<void> {
  const concurrency = parseConcurrency(opts.concurrency);
  const { out } = rt;
  const warn = (message: string) => out.warn(message);
  const desired = await readDesiredState(opts.file, {
    terminal: rt.terminal,
    signal: rt.ctx.signal,
    warn,
    note: (message) => out.note(message),
    allowUnknownEvents: opts.allowUnknownEvent,
  });
  const api = rt.api({ connections: concurrency + 1 });
  const plan = await computePlan(desired, api, {
    concurrency,
    signal: rt.ctx.signal,
    warn,
    allowSimilar: opts.allowSimilar,
  });
  const invited = (await pendingInvitations(rt, opts, plan)).pending;
  const owner = await keysOwnerNote(api, desired);
  if (out.json)
    out.jsonValue({ ...planJson(plan), ...(invited.length > 0 ? { pending_invitations: invited } : {}) });
  else for (const line of [...planLines(plan), ...invited.map(describePending)]) out.wrappedLine(line);
  if (owner) out.info(owner);
  if (invited.length > 0) out.info(pendingNote(invited.length));
  out.info(planSummary(plan));
  // An incomplete plan is not a drift result: its exit code (3 for no access) comes before --exit-code's.
  if (plan.unreadable.length > 0) throw unreadableFailure(plan.unreadable);
  const pending = planChanges(plan).length;
  if (opts.exitCode && pending > 0) {
    throw new ChangesPending(`${pending} change${pending === 1 ? ' is' : 's are'} pending.`);
  }
}
