/** `agency history health [targets] [--check C] [--since D]`: when each problem appeared and went away. */
import type { Command } from '@commander-js/extra-typings';
import type { ProblemEpisode } from '../../history/queries.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { run } from '../../terms.js';
import { collectValues, helpText, type OptionsOf, type Run } from '../command.js';
import { parseChecks } from '../health/checks.js';
import { addHistoryTargets, nothingRecorded, readHistory } from './shared.js';

const configureHealthHistory = (history: Command) =>
  addHistoryTargets(history.command('health'))
    .description('when recorded health problems appeared and went')
    .option(
      '--check <check>',
      'only this check (repeatable, or comma-separated: mailbox_error,bounce_rate)',
      collectValues,
    )
    .addHelpText(
      'after',
      helpText({
        prints: `
          Prints one row per problem as the recorded health runs saw it: company_id, name,
          check, subject (the mailbox or campaign it is about), first_seen (the first run of
          an unbroken series that had it), last_seen (the last run that had it), resolved
          (the first later run of the client without it; empty while it is still there),
          severity and detail (as the last run saw them). Times are UTC. Oldest first.
          --since D keeps the problems still there on or after that day. Reads only the
          local history (history.db), for the agency of the current profile.
        `,
        examples: `
          $ agency history health
          $ agency history health --company "Acme Ltd" --check mailbox_error
          $ agency history health --since 2026-11-01 --json | jq -r '.[] | select(.resolved == null) | .detail'
        `,
      }),
    );

type HealthHistoryOptions = OptionsOf<typeof configureHealthHistory>;

const minute = (iso: string | null) => (iso === null ? '' : iso.slice(0, 16).replace('T', ' '));

/**
 * On a narrow terminal the check and when it went away (resolved: the point of this history) stay
 * longest, then when it appeared and how bad it is, then its subject and when it was last seen. A
 * resolved column empty in every row (nothing went away) is hidden before the others (layout.ts).
 */
const columns: Column<ProblemEpisode>[] = [
  { header: 'company', name: 'company_id', value: (e) => e.company_id, kind: 'id' },
  { header: 'name', value: (e) => e.name },
  { header: 'check', value: (e) => e.check, kind: 'text', priority: 1 },
  { header: 'subject', value: (e) => e.subject, kind: 'text', priority: 3 },
  {
    header: 'first seen',
    name: 'first_seen',
    value: (e) => minute(e.first_seen),
    kind: 'count',
    priority: 2,
  },
  { header: 'last seen', name: 'last_seen', value: (e) => minute(e.last_seen), kind: 'count', priority: 3 },
  { header: 'resolved', value: (e) => minute(e.resolved), kind: 'count', priority: 1 },
  { header: 'severity', value: (e) => e.severity, kind: 'count', priority: 2 },
  { header: 'detail', value: (e) => e.detail, kind: 'problem', priority: 4 },
];

async function healthHistory(rt: Runtime, opts: HealthHistoryOptions): Promise<void> {
  const shown = rt.out.columns(columns);
  const checks = parseChecks(opts.check) ?? [];
  const { problemEpisodes } = await import('../../history/queries.js');
  const episodes = await readHistory(rt, opts, (db, filter) => filter && problemEpisodes(db, filter), {
    checks,
  });
  if (episodes === undefined) return nothingRecorded(rt, `${run('health')} to record a run.`);
  await rt.out.list(episodes, shown, {
    empty: 'No problem recorded for these clients in the health runs stored.',
    noun: ['problem', 'problems'],
  });
}

export function defineHealthHistory(history: Command, run: Run): void {
  configureHealthHistory(history).action(run(healthHistory));
}
