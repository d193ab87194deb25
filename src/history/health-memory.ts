/**
 * `health` with memory, as a pure function: the problems of the latest earlier recorded run of each
 * client (same agency, same period length) and this run's report in, each problem marked `new` or
 * ongoing since its `first_seen`, and the problems that are gone (resolved) out. A problem is a client,
 * a check and its subject (the mailbox, the campaign): the same problem whatever its detail or
 * severity. A client never checked before has only new problems; a client not checked in this run
 * resolves nothing.
 */
import { idKey } from '../api/types.js';
import type { Problem, ResolvedProblem } from '../reports/health.js';

/** A problem as an earlier run recorded it. */
export interface RememberedProblem {
  company_id: number;
  name: string;
  severity: Problem['severity'];
  check: string;
  subject: string;
  detail: string;
  first_seen: string;
}

/** The latest earlier run that checked a client: when it ran, and the client's problems then. */
export interface ClientMemory {
  at: string;
  problems: readonly RememberedProblem[];
}

/** By client id (its idKey: an id beyond 2^53 is a new object at each reading): only the clients some earlier run of the agency checked. */
export type HealthMemory = ReadonlyMap<string, ClientMemory>;

/** The history's marks of a problem (src/reports/health.ts documents them). */
export interface Remembered {
  new: boolean;
  first_seen: string;
}

function problemKey(problem: { company_id: number; check: string; subject: string }): string {
  return `${problem.company_id}\u0000${problem.check}\u0000${problem.subject}`;
}

/** One client's problems marked against its memory (run time `at`). */
export function rememberClient<P extends Problem>(
  problems: readonly P[],
  memory: ClientMemory | undefined,
  at: string,
): (P & Remembered)[] {
  const earlier = new Map((memory?.problems ?? []).map((p) => [problemKey(p), p]));
  return problems.map((problem) => {
    const before = earlier.get(problemKey(problem));
    return { ...problem, new: before === undefined, first_seen: before?.first_seen ?? at };
  });
}

/** The problems of the checked clients' earlier runs that this run did not find. */
function resolvedProblems(
  problems: readonly Problem[],
  checked: readonly number[],
  memory: HealthMemory,
): ResolvedProblem[] {
  const now = new Set(problems.map(problemKey));
  return [...new Set(checked.map(idKey))].flatMap((id) => {
    const before = memory.get(id);
    if (!before) return [];
    return before.problems
      .filter((p) => !now.has(problemKey(p)))
      .map((p) => ({ ...p, last_seen: before.at }));
  });
}

/** The whole report marked: every problem, and the resolved ones. */
export function remember<P extends Problem>(
  problems: readonly P[],
  checked: readonly number[],
  memory: HealthMemory,
  at: string,
): { problems: (P & Remembered)[]; resolved: ResolvedProblem[] } {
  const byClient = new Map<string, P[]>();
  for (const p of problems) {
    const id = idKey(p.company_id);
    byClient.set(id, [...(byClient.get(id) ?? []), p]);
  }
  const marked = new Map<P, P & Remembered>();
  for (const [id, own] of byClient) {
    const remembered = rememberClient(own, memory.get(id), at);
    for (const [i, m] of remembered.entries()) marked.set(own[i] as P, m);
  }
  return {
    problems: problems.map((p) => marked.get(p) as P & Remembered),
    resolved: resolvedProblems(problems, checked, memory),
  };
}
