/** The handler of `plan`, and what `apply` shares with it: reading the file and making the plan. */

import type { AgencyClient } from '../../api/client.js';
import { AgencyError, ExitCode } from '../../errors.js';
import {
  describeBlocked,
  describeChange,
  makePlan,
  type Plan,
  planChanges,
  planJson,
  planSummary,
} from '../../fleet/plan.js';
import { type DesiredState, parsePlanFile } from '../../fleet/plan-file.js';
import { CompanyDirectory } from '../../fleet/resolve.js';
import { parseConcurrency } from '../../input/parse.js';
import { readInput } from '../../input/read.js';
import type { Runtime } from '../../runtime.js';
import type { PlanOptions } from './index.js';

/** `plan --exit-code` with changes pending. */
class ChangesPending extends AgencyError {
  readonly exitCode = ExitCode.changesPending;
}

export async function planCommand(rt: Runtime, opts: PlanOptions): Promise<void> {
  const concurrency = parseConcurrency(opts.concurrency);
  const desired = await readDesiredState(rt, opts.file);
  const plan = await computePlan(rt, desired, rt.api({ connections: concurrency + 1 }), concurrency);
  const { out } = rt;
  if (out.json) out.jsonValue(planJson(plan));
  else for (const line of planLines(plan)) out.line(line);
  out.info(planSummary(plan));
  const pending = planChanges(plan).length;
  if (opts.exitCode && pending > 0) {
    throw new ChangesPending(`${pending} change${pending === 1 ? ' is' : 's are'} pending.`);
  }
}

export async function readDesiredState(rt: Runtime, path: string): Promise<DesiredState> {
  const { text, source } = await readInput(path, rt.terminal, rt.ctx.signal);
  const desired = parsePlanFile(text, source);
  for (const warning of desired.warnings) rt.out.warn(warning);
  return desired;
}

export async function computePlan(
  rt: Runtime,
  desired: DesiredState,
  api: AgencyClient,
  concurrency: number,
): Promise<Plan> {
  const plan = await makePlan(
    desired,
    new CompanyDirectory(api),
    { keys: api, webhooks: api },
    {
      concurrency,
      signal: rt.ctx.signal,
    },
  );
  for (const warning of plan.warnings.slice(desired.warnings.length)) rt.out.warn(warning);
  return plan;
}

/** The change lines, then the "!" lines of what cannot be done. */
export function planLines(plan: Plan): string[] {
  return [...planChanges(plan).map(describeChange), ...plan.blocked.map(describeBlocked)];
}
