/**
 * The input of `campaigns pause | stop | resume`, checked before any request (exit 2, nothing sent),
 * and the question asked on a terminal once the lists are read.
 */

import { idKey } from '../../api/types.js';
import { AgencyError, ExitCode, InterruptedError, OutcomeExit, UsageError } from '../../errors.js';
import type { CampaignRow, CampaignVerb } from '../../fleet/campaign-control.js';
import type { RecordEntry } from '../../fleet/campaign-record.js';
import type { Target } from '../../fleet/targets.js';
import { parseCompanyId } from '../../input/parse.js';
import { confirm } from '../../input/prompt.js';
import { NOUNS, plural } from '../../output/summary.js';
import type { Runtime } from '../../runtime.js';
import { option } from '../../terms.js';
import type { CampaignChangeOptions } from './change.js';

/** `--campaign` values: positive whole numbers (exact beyond 2^53, as the service's ids), each once. */
export function campaignIds(values: readonly string[] | undefined): number[] {
  const ids = (values ?? []).map((value) => parseCompanyId(value, `${option('campaign')} id`));
  return [...new Map(ids.map((id) => [idKey(id), id])).values()];
}

/** `--from-record FILE` names its own campaigns and accounts: no other selection beside it. */
export function fromRecord(
  opts: CampaignChangeOptions,
  text: { text: string; source: string },
  read: (text: string, source: string) => RecordEntry[],
): RecordEntry[] {
  const others = [
    opts.company && option('company'),
    opts.file !== undefined && option('file'),
    opts.all && option('all'),
    opts.campaign && option('campaign'),
    opts.mailbox && option('mailbox'),
  ].filter((flag): flag is string => typeof flag === 'string');
  if (others.length > 0) {
    throw new UsageError(
      `${option('from-record')} cannot be combined with ${others.join(' or ')}: the record names the campaigns.`,
    );
  }
  return read(text.text, text.source);
}

/** Without a terminal to ask on, a change needs --yes: checked before anything is read or sent. */
export function requireYes(rt: Runtime, verb: CampaignVerb, opts: CampaignChangeOptions): void {
  const canAsk = rt.terminal.stdinIsTTY && rt.terminal.stderrIsTTY;
  if (opts.yes || opts.dryRun || canAsk) return;
  throw new UsageError(`campaigns ${verb} needs ${option('yes')} when it cannot ask on a terminal.`, {
    hint: `See what it would change with ${option('dry-run')}, then run it with ${option('yes')}. Nothing was sent.`,
  });
}

/** Said first when no target is given: a forgotten --all is never silent. */
export function selfOnlyNote(verb: CampaignVerb | 'bounce-shield'): string {
  const doing = verb === 'bounce-shield' ? 'Changing Bounce Shield thresholds' : VERB_WORDS[verb].doing;
  return `${doing} on the HQ account itself only; ${option('all')} for every client.`;
}

const VERB_WORDS: Record<CampaignVerb, { doing: string; ask: string }> = {
  pause: { doing: 'Pausing campaigns', ask: 'Pause' },
  stop: { doing: 'Stopping campaigns', ask: 'Stop' },
  resume: { doing: 'Resuming campaigns', ask: 'Resume' },
};

/** Reads the companies with these ids (the company list, only as far as they are on it). */
export type CompanyFinder = (ids: readonly number[]) => Promise<readonly { id: number; name: string }[]>;

/** The statuses a change starts from, in the order the question names them. */
const STATUS_WORDS = ['RUNNING', 'PAUSED', 'STOPPED'] as const;

/**
 * The changes listed on stderr, then asked ("Pause 2 running campaigns of "Acme Ltd" (1003)?"); no (or
 * Enter) ends the run with nothing sent, exit 1. Each account is named by its name and id: a target
 * given by id has no name yet, so its name is read (`find`); if that read fails, it is "company N".
 */
export async function askToChange(
  rt: Runtime,
  verb: CampaignVerb,
  pending: readonly CampaignRow[],
  targets: readonly Target[],
  find: CompanyFinder,
): Promise<void> {
  const names = await accountNames(pending, targets, find);
  const account = (id: number | null) => {
    if (id === null) return 'the HQ account';
    const name = names.get(idKey(id));
    return name ? `${JSON.stringify(name)} (${id})` : `company ${id}`;
  };
  const { ask } = VERB_WORDS[verb];
  const accounts = new Set(pending.map((row) => (row.company_id === null ? '' : idKey(row.company_id))));
  const first = pending[0]?.company_id ?? null;
  const of =
    accounts.size === 1
      ? account(first)
      : plural(accounts.size, accounts.has('') ? NOUNS.account : NOUNS.client);
  const statuses = STATUS_WORDS.filter((status) => pending.some((row) => row.status_before === status));
  const adjective = statuses.map((status) => status.toLowerCase()).join(' or ');
  const kind = adjective === '' ? 'campaign' : `${adjective} campaign`;
  const what = `${ask} ${pending.length} ${kind}${pending.length === 1 ? '' : 's'} of ${of}`;
  rt.out.info(`${what}:`);
  for (const row of pending) {
    rt.out.info(
      `  ${JSON.stringify(row.campaign ?? '')} (${row.campaign_id}) of ${account(row.company_id)}, ${row.status_before}`,
    );
  }
  if (await confirm(rt.terminal, `${what}?`, false, rt.ctx.signal)) return;
  throw new OutcomeExit(`campaigns ${verb} cancelled: nothing was changed.`, ExitCode.failure);
}

/** The names of the pending rows' accounts, by id: the targets' own, then those read for the others. */
async function accountNames(
  pending: readonly CampaignRow[],
  targets: readonly Target[],
  find: CompanyFinder,
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const t of targets) if (t.companyId !== null && t.name) names.set(idKey(t.companyId), t.name);
  const unnamed = new Map<string, number>();
  for (const { company_id: id } of pending)
    if (id !== null && !names.has(idKey(id))) unnamed.set(idKey(id), id);
  if (unnamed.size === 0) return names;
  try {
    for (const company of await find([...unnamed.values()])) names.set(idKey(company.id), company.name);
  } catch (error) {
    // The question is still asked, with the ids alone: a failed read of names never blocks a pause.
    if (!(error instanceof AgencyError) || error instanceof InterruptedError) throw error;
  }
  return names;
}
