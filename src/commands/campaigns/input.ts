/**
 * The input of `campaigns pause | stop | resume`, checked before any request (exit 2, nothing sent),
 * and the question asked on a terminal once the lists are read.
 */

import { ExitCode, OutcomeExit, UsageError } from '../../errors.js';
import type { CampaignRow, CampaignVerb } from '../../fleet/campaign-control.js';
import type { RecordEntry } from '../../fleet/campaign-record.js';
import type { Target } from '../../fleet/targets.js';
import { parseCompanyId } from '../../input/parse.js';
import { confirm } from '../../input/prompt.js';
import type { Runtime } from '../../runtime.js';
import { option } from '../../terms.js';
import type { CampaignChangeOptions } from './change.js';

/** `--campaign` values: positive whole numbers, each once. */
export function campaignIds(values: readonly string[] | undefined): number[] {
  const ids = (values ?? []).map((value) => parseCompanyId(value, `${option('campaign')} id`));
  const large = (values ?? []).filter((_, i) => !Number.isSafeInteger(ids[i]));
  // Campaign rows and records hold ids as plain numbers: one beyond 2^53 would be a neighbour's.
  if (large.length > 0)
    throw new UsageError(
      `Invalid ${option('campaign')} id ${JSON.stringify(large[0])}: campaign ids beyond 2^53 (9007199254740992) are not supported.`,
    );
  return [...new Set(ids)];
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

/** The changes listed on stderr, then asked; no (or Enter) ends the run with nothing sent, exit 1. */
export async function askToChange(
  rt: Runtime,
  verb: CampaignVerb,
  pending: readonly CampaignRow[],
  targets: readonly Target[],
): Promise<void> {
  const names = new Map(targets.map((t) => [t.companyId, t.name]));
  const { ask } = VERB_WORDS[verb];
  const count = `${pending.length} campaign${pending.length === 1 ? '' : 's'}`;
  rt.out.info(`${ask} ${count}:`);
  for (const row of pending) {
    const name = names.get(row.company_id);
    const account =
      row.company_id === null
        ? 'the HQ account'
        : name
          ? `${JSON.stringify(name)} (${row.company_id})`
          : `company ${row.company_id}`;
    rt.out.info(
      `  ${JSON.stringify(row.campaign ?? '')} (${row.campaign_id}) of ${account}, ${row.status_before}`,
    );
  }
  if (await confirm(rt.terminal, `${ask} ${count}?`, false, rt.ctx.signal)) return;
  throw new OutcomeExit(`campaigns ${verb} cancelled: nothing was changed.`, ExitCode.failure);
}
