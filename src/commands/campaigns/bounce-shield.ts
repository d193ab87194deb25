/**
 * `agency campaigns bounce-shield [targets] [--campaign <id>...] [--set N | --clear] [--dry-run]`: each
 * campaign's Bounce Shield threshold (GET .../bounce_shield/threshold), set (PUT) where it differs or
 * cleared (DELETE) where one is set. It changes no sending, so it asks nothing.
 */
import type { Command } from '@commander-js/extra-typings';
import {
  BOUNCE_SHIELD_DEFAULT,
  BOUNCE_SHIELD_MAX,
  BOUNCE_SHIELD_MIN,
} from '../../api/resources/campaigns.js';
import { UsageError } from '../../errors.js';
import type { ShieldRow } from '../../fleet/bounce-shield.js';
import { NOUNS, plural } from '../../output/summary.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { option } from '../../terms.js';
import { collectValues, helpText, type OptionsOf, type Run } from '../command.js';
import { addTargetOptions, runFleetChange } from '../webhooks/fleet.js';
import { campaignIds, selfOnlyNote } from './input.js';

const HELP = helpText({
  prints: `
    Bounce Shield pauses a campaign whose bounce rate (over the last 28 days, after
    20 emails) reaches its threshold; none set means the service's default,
    ${BOUNCE_SHIELD_DEFAULT} %. Prints one row per campaign: company_id, campaign_id,
    campaign, threshold_before, threshold, result (unchanged, set, cleared, would-set,
    would-clear, skipped-inactive or failed, with the reason); a table says "3%" and
    "default (${BOUNCE_SHIELD_DEFAULT}%)" where none is set (TSV and CSV: 3 and empty;
    --json: 3 and null). --set N (${BOUNCE_SHIELD_MIN}-${BOUNCE_SHIELD_MAX}) sets it
    where it differs, --clear goes back to the default where one is set. Without
    --company, --file or --all it reads the key's own account.
  `,
  examples: `
    $ agency campaigns bounce-shield --company 1042
    $ agency campaigns bounce-shield --all --set 3 --dry-run
    $ agency campaigns bounce-shield --company 1042 --campaign 104201 --clear
  `,
});

function configureBounceShield(campaigns: Command) {
  const command = campaigns
    .command('bounce-shield')
    .description("list or set campaigns' Bounce Shield thresholds");
  return addTargetOptions(command)
    .option('--campaign <id>', 'only this campaign (repeatable)', collectValues)
    .option(
      '--set <percent>',
      `set the threshold (${BOUNCE_SHIELD_MIN}-${BOUNCE_SHIELD_MAX}) where it differs`,
    )
    .option('--clear', "back to the service's default where a threshold is set")
    .option('--dry-run', 'read and show what would change; send nothing')
    .addHelpText('after', HELP);
}

type ShieldOptions = OptionsOf<typeof configureBounceShield>;

/** Rows whose threshold was never read: no value to say, not the default. */
const UNREAD: ReadonlySet<ShieldRow['result']> = new Set(['failed', 'skipped-inactive']);

/** A threshold on a screen: "3%", or "default (2%)" where none is set; nothing where it was not read. */
const percent = (value: unknown, row: ShieldRow) =>
  UNREAD.has(row.result) && value === null
    ? ''
    : value === null
      ? `default (${BOUNCE_SHIELD_DEFAULT}%)`
      : `${value}%`;

// The values stay numbers (null: the default) for TSV, CSV and --json; only a screen table says them.
const columns: Column<ShieldRow>[] = [
  { header: 'campaign id', name: 'campaign_id', value: (r) => r.campaign_id, kind: 'id' },
  { header: 'campaign', value: (r) => r.campaign, kind: 'name', priority: 1 },
  {
    header: 'before',
    name: 'threshold_before',
    value: (r) => r.threshold_before,
    shown: percent,
    priority: 2,
  },
  { header: 'threshold', value: (r) => r.threshold, shown: percent, priority: 0, kind: 'count' },
  { header: 'result', value: (r) => r.result, priority: 0, kind: 'count' },
];

/**
 * A listing changes nothing: its summary says what it found ("7 campaigns: 1 with its own threshold,
 * 5 at the default (2%), 1 not read"), not "7 unchanged".
 */
function listingSummary(rows: readonly ShieldRow[]): string {
  const unread = rows.filter((r) => UNREAD.has(r.result)).length;
  const own = rows.filter((r) => !UNREAD.has(r.result) && r.threshold !== null).length;
  const parts = [
    `${own} with ${own === 1 ? 'its' : 'their'} own threshold`,
    `${rows.length - own - unread} at the default (${BOUNCE_SHIELD_DEFAULT}%)`,
    ...(unread > 0 ? [`${unread} not read`] : []),
  ];
  return `${plural(rows.length, NOUNS.campaign)}: ${parts.join(', ')}.`;
}

/** `--set N`: a whole number of percent, 1–99 (the service's range), checked before any request. */
function parseThreshold(value: string): number {
  const text = value.trim().replace(/%$/, '');
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < BOUNCE_SHIELD_MIN || n > BOUNCE_SHIELD_MAX) {
    throw new UsageError(
      `Invalid ${option('set')} ${JSON.stringify(value)}: a Bounce Shield threshold is a whole percent from ${BOUNCE_SHIELD_MIN} to ${BOUNCE_SHIELD_MAX}.`,
    );
  }
  return n;
}

async function bounceShieldCommand(rt: Runtime, opts: ShieldOptions): Promise<void> {
  const { changeBounceShields } = await import('../../fleet/bounce-shield.js');
  const rows = {
    columns,
    fields: (r: ShieldRow) => [
      r.company_id,
      r.campaign_id,
      r.campaign,
      r.threshold_before,
      r.threshold,
      r.result,
    ],
  };
  const check = () => {
    if (opts.set !== undefined && opts.clear)
      throw new UsageError(`${option('set')} and ${option('clear')} cannot be combined.`);
    const threshold = opts.set !== undefined ? parseThreshold(opts.set) : opts.clear ? null : undefined;
    return { campaignIds: campaignIds(opts.campaign), threshold };
  };
  await runFleetChange(rt, opts, rows, check, (api, input) => {
    const changes = input.threshold !== undefined;
    if (changes && opts.company === undefined && opts.file === undefined && !opts.all)
      rt.out.info(selfOnlyNote('bounce-shield'));
    const outcome = changeBounceShields(api, { ...input, note: (message) => rt.out.warn(message) });
    return changes ? outcome : outcome.then((o) => ({ ...o, summary: listingSummary(o.rows) }));
  });
}

export function defineBounceShield(campaigns: Command, run: Run): void {
  configureBounceShield(campaigns).action(run(bounceShieldCommand));
}
