/**
 * What `campaigns pause`, `stop` and `resume` share: the options (targets, --campaign, --mailbox,
 * --dry-run, --yes, --record / --from-record), the local checks made before any request, the question
 * on a terminal, and the rows. The fleet logic is in src/fleet/campaign-control.ts; the fan-out, rows,
 * summary and exit code are the fleet changes' own (../webhooks/fleet.ts).
 */
import type { Command } from '@commander-js/extra-typings';
import type { CampaignRow, CampaignVerb } from '../../fleet/campaign-control.js';
import type { RecordEntry } from '../../fleet/campaign-record.js';
import type { AppendedFile } from '../../fleet/keys-out.js';
import type { Target } from '../../fleet/targets.js';
import { readRunInput } from '../../input/read.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { option } from '../../terms.js';
import { type CommandText, collectValues, helpText, type OptionsOf, type Run } from '../command.js';
import { addTargetOptions, runFleetChange } from '../webhooks/fleet.js';
import { askToChange, campaignIds, fromRecord, requireYes, selfOnlyNote } from './input.js';

export function defineCampaignChange(
  campaigns: Command,
  run: Run,
  verb: CampaignVerb,
  text: CommandText,
): void {
  configureChange(campaigns, verb, text).action(
    run((rt, opts: CampaignChangeOptions) => changeCampaignsCommand(rt, verb, opts)),
  );
}

/** resume reads the campaigns of a --from-record file; pause and stop write one with --record. */
function configureChange(campaigns: Command, verb: CampaignVerb, text: CommandText) {
  const command = addTargetOptions(campaigns.command(verb).description(text.description))
    .option('--campaign <id>', 'only this campaign (repeatable)', collectValues)
    .option('--mailbox <email>', 'only the campaigns sending from this address (repeatable)', collectValues)
    .option('--dry-run', 'read and show what would change; send nothing')
    .option('-y, --yes', 'do not ask (required when not on a terminal)');
  const recorded =
    verb === 'resume'
      ? command.option('--from-record <file>', 'resume exactly the campaigns a --record file lists')
      : command.option(
          '--record <file>',
          'append one JSON line per campaign changed, for `campaigns resume --from-record`',
        );
  return recorded.addHelpText('after', helpText(text));
}

/** The options of resume (fromRecord) or of pause and stop (record). */
export type CampaignChangeOptions = OptionsOf<typeof configureChange>;

/** The rows where nothing is done and nothing is wrong: counted on a terminal, not listed. */
const QUIET = [
  'already-paused',
  'already-stopped',
  'already-running',
  'not-running',
  'not-paused',
  'skipped-inactive',
];

const columns: Column<CampaignRow>[] = [
  { header: 'campaign id', name: 'campaign_id', value: (r) => r.campaign_id, kind: 'id' },
  { header: 'campaign', value: (r) => r.campaign, kind: 'name', priority: 1 },
  { header: 'status before', name: 'status_before', value: (r) => r.status_before, priority: 2 },
  // A result is one word (would-pause): kept whole ('count' is never cut).
  { header: 'result', value: (r) => r.result, priority: 0, kind: 'count' },
];

async function changeCampaignsCommand(
  rt: Runtime,
  verb: CampaignVerb,
  opts: CampaignChangeOptions,
): Promise<void> {
  const [{ changeCampaigns }, { readRecord, recordLine, RECORD_FILE }, files, { checkGuestEmail }] =
    await Promise.all([
      import('../../fleet/campaign-control.js'),
      import('../../fleet/campaign-record.js'),
      import('../../fleet/keys-out.js'),
      import('../../fleet/guests.js'),
    ]);
  const readFrom = 'fromRecord' in opts ? opts.fromRecord : undefined;
  const writeTo = 'record' in opts ? opts.record : undefined;
  const recordText = readFrom === undefined ? undefined : await readRunInput(rt, readFrom, 'the record');
  const rows = {
    columns,
    fields: (r: CampaignRow) => [r.company_id, r.campaign_id, r.campaign, r.status_before, r.result],
    quiet: QUIET,
  };
  let record: AppendedFile | undefined;
  let recordError: Error | undefined;
  const recordFailed = new AbortController();
  // Every flag checked before any request (exit 2, nothing sent); the record file opened last.
  const check = () => {
    const mailboxes = [
      ...new Set((opts.mailbox ?? []).map((value) => checkGuestEmail(value, option('mailbox')))),
    ];
    const selection = { campaignIds: campaignIds(opts.campaign), mailboxes };
    const entries = recordText && fromRecord(opts, recordText, readRecord);
    requireYes(rt, verb, opts);
    if (writeTo !== undefined && !opts.dryRun) record = files.AppendedFile.open(writeTo, RECORD_FILE);
    return { selection, entries };
  };
  try {
    await runFleetChange(rt, opts, rows, check, async (api, input) => {
      const targets = input.entries ? recordTargets(input.entries) : input.targets;
      if (!input.entries && opts.company === undefined && opts.file === undefined && !opts.all)
        rt.out.info(selfOnlyNote(verb));
      return changeCampaigns(api, {
        verb,
        pick: input.entries ? { record: input.entries } : { selection: input.selection },
        targets,
        concurrency: input.concurrency,
        dryRun: opts.dryRun,
        signal: AbortSignal.any([input.signal, recordFailed.signal]),
        confirm: async (pending) => {
          if (opts.yes) return;
          const { CompanyDirectory } = await import('../../fleet/resolve.js');
          await askToChange(rt, verb, pending, targets, (ids) => new CompanyDirectory(api).find(ids));
        },
        confirmed: (row) => {
          if (!record || recordError) return;
          recordError = record.tryAppend(recordLine(row, new Date()));
          if (recordError) recordFailed.abort();
        },
        note: (message) => rt.out.warn(message),
      });
    });
  } catch (error) {
    throw recordError ?? error;
  } finally {
    record?.close();
  }
  if (recordError) throw recordError;
}

/**
 * The accounts a record names, each once, the HQ account first and then by id: the record's own order
 * is the order the changes were confirmed in, which several accounts at once leave to chance.
 */
function recordTargets(entries: readonly RecordEntry[]): Target[] {
  // By their digits: an id beyond 2^53 is a new object on each line.
  const ids = [...new Map(entries.map((entry) => [String(entry.company_id), entry.company_id])).values()];
  // The order of the accounts only: ids beyond 2^53 compare as doubles here, and nothing is matched by it.
  return ids.sort((a, b) => (a ?? 0) - (b ?? 0)).map((companyId) => ({ companyId }));
}
