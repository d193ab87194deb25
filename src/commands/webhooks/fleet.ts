/**
 * What the webhook commands that span accounts share (list over targets, subscribe, unsubscribe,
 * move): the target options, reading them before the first write, the rows they print (TSV with the
 * reason as a last field on failed rows only), the stderr summary and the exit code of failed rows.
 * The fan-out itself is src/fleet/webhook-changes.ts (eachAccount).
 */
import { type Command, Option, type OptionValues } from '@commander-js/extra-typings';
import type { AgencyClient } from '../../api/client.js';
import { ExitCode, PartialFailureError } from '../../errors.js';
import { failedCount, type RowError, rowsFailed } from '../../fleet/failures.js';
import { CompanyDirectory } from '../../fleet/resolve.js';
import { selectTargets, type Target } from '../../fleet/targets.js';
import type { AccountsOutcome } from '../../fleet/webhook-changes.js';
import { checkEvent, WEBHOOK_EVENTS } from '../../fleet/webhook-input.js';
import { DEFAULT_CONCURRENCY, parseConcurrency } from '../../input/parse.js';
import { readRunInput } from '../../input/read.js';
import { reasonColumn } from '../../output/columns.js';
import { rowLine } from '../../output/csv.js';
import { listedWhere, serviceDetail } from '../../output/summary.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { option } from '../../terms.js';
import { collectValues, documentedValues, type NoOptions, type OptionsOf } from '../command.js';

/** The target options added to `command`, which keeps its arguments and options (see OptionsOf). */
export function addTargetOptions<Opts extends OptionValues>(command: Command<[], Opts>) {
  return command
    .option('--company <company>', 'a client company: id or exact name (repeatable)', collectValues)
    .option('--file <path>', "company ids or exact names, one per line ('-' = stdin)")
    .option('--all', 'every active company of the agency')
    .option('--concurrency <n>', `client accounts worked on at once (default ${DEFAULT_CONCURRENCY})`);
}

/** The target options as commander parses them: `--company` (repeatable), `--file <path>`, `--all`, `--concurrency`. */
export type TargetFlags = OptionsOf<typeof addTargetOptions<NoOptions>>;

/** `--event <event>` (repeatable), suggesting the documented events; the service accepts others too. */
export function eventOption(description: string) {
  return documentedValues(
    new Option('--event <event>', description).argParser(collectValues),
    WEBHOOK_EVENTS,
    'one of the documented events: see `agency webhooks events`',
  );
}

/**
 * What every webhook change (subscribe, unsubscribe, move) takes after its own options:
 * --allow-unknown-event (the escape from the refusal of an event that looks like a typo), the
 * targets, and --dry-run.
 */
export function addChangeOptions<Opts extends OptionValues>(command: Command<[], Opts>, dryRun: string) {
  const escaped = command.option(
    '--allow-unknown-event',
    'send an event within two edits of a known one (taken for a typo otherwise)',
  );
  return addTargetOptions(escaped).option('--dry-run', dryRun);
}

/** A webhook change's --event values checked (checkEvents), and its note when it acts on the HQ account alone. */
export function changeEvents(
  rt: Runtime,
  flags: OptionsOf<typeof addChangeOptions<NoOptions>>,
  values: readonly string[],
): string[] {
  const events = checkEvents(rt, values, flags.allowUnknownEvent === true);
  noteOwnAccount(rt, flags);
  return events;
}

/**
 * The --event values checked, lower case, each once; an unknown name is a warning, one within two edits
 * of a known event a usage error (exit 2) unless `allowUnknown`.
 */
function checkEvents(rt: Runtime, values: readonly string[], allowUnknown = false): string[] {
  const events: string[] = [];
  for (const value of values) {
    const { event, warning } = checkEvent(value, option('event'), allowUnknown);
    if (warning) rt.out.warn(warning);
    if (!events.includes(event)) events.push(event);
  }
  return events;
}

/** The client, the target accounts, and how many of them are worked on at once. */
export interface OpenTargets {
  api: AgencyClient;
  targets: Target[];
  concurrency: number;
}

/**
 * The client and the target accounts. Local checks of the flags come first; `--file` is read before the
 * first request; names cost one listing. A write in flight is not aborted by Ctrl-C (its outcome is
 * reported); no new one starts.
 */
export async function openTargets(rt: Runtime, flags: TargetFlags): Promise<OpenTargets> {
  const concurrency = parseConcurrency(flags.concurrency);
  const file = flags.file === undefined ? undefined : await readRunInput(rt, flags.file);
  const api = rt.api({ connections: concurrency + 1, interruptible: false });
  const targets = await selectTargets(
    { company: flags.company, file, all: flags.all },
    new CompanyDirectory(api),
  );
  return { api, targets, concurrency };
}

/** A row of a fleet webhook command: its account, its result, and why it failed. */
export interface FleetRow {
  company_id: number | null;
  result: string;
  error?: RowError;
}

/** How a fleet change shows its rows: the columns, the piped fields, and the results that fail. */
export interface ChangeRows<R extends FleetRow> {
  /** The columns after the account's (which comes first) and before the reason (which comes last). */
  columns: Column<R>[];
  fields: (row: R) => unknown[];
  /** The results that make the exit code (default: failed). */
  failed?: readonly string[];
  /**
   * The results where nothing was done and nothing is wrong (on --all most companies), left out of a
   * terminal's table so the rows that changed or failed are not buried, and counted on stderr. Piped
   * rows, --csv and --json list every row: they are a script's interface (the contract's rows).
   */
  quiet?: readonly string[];
}

/**
 * A fleet change (subscribe, unsubscribe, move) in the contract's order: --columns checked, then the
 * command's own input (`check`), then the targets read, then `change`; its rows, warnings and summary
 * printed; the exit code of the failed rows.
 */
export async function runFleetChange<R extends FleetRow, I>(
  rt: Runtime,
  flags: TargetFlags & { dryRun?: boolean | undefined },
  rows: ChangeRows<R>,
  check: () => I,
  change: (api: AgencyClient, input: I & ChangeScope) => Promise<ChangeOutcome<R>>,
): Promise<void> {
  const columns = [companyColumn<R>(), ...rows.columns];
  rt.out.columns(withReason(columns));
  const input = check();
  const { api, targets, concurrency } = await openTargets(rt, flags);
  const scope = { targets, concurrency, dryRun: flags.dryRun, signal: rt.ctx.signal };
  const outcome = await change(api, { ...input, ...scope });
  const table = rt.terminal.stdoutIsTTY && !rt.out.json && rt.out.options.csv !== true;
  const quiet = table ? outcome.rows.filter((r) => rows.quiet?.includes(r.result)) : [];
  const shown = quiet.length ? outcome.rows.filter((r) => !quiet.includes(r)) : outcome.rows;
  await printFleetRows(rt, shown, columns, rows.fields, outcome.reasons);
  for (const warning of outcome.warnings ?? []) rt.out.warn(warning);
  rt.out.info(outcome.summary ?? summarizeResults(shown, quiet, flags.dryRun === true));
  throwIfFailed(rt, outcome, rows.failed);
}

/**
 * No target is the key's own account: a webhook change says so first on stderr, so that a forgotten
 * --all is never silent (before any request).
 */
function noteOwnAccount(rt: Runtime, flags: TargetFlags): void {
  if (flags.all || flags.file !== undefined || (flags.company ?? []).length > 0) return;
  rt.out.note(`on the HQ account itself only; ${option('all')} for every client`);
}

/** What a fleet change gives back besides its rows. */
export interface ChangeOutcome<R> extends AccountsOutcome<R> {
  warnings?: readonly string[] | undefined;
  /**
   * Rows whose reason on a terminal must say what the failure left behind, not only the service's
   * words (a move that left an account subscribed at neither URL).
   */
  reasons?: ReadonlyMap<R, string> | undefined;
  /** The summary on stderr, where counting the results would mislead (a listing: "7 unchanged"). */
  summary?: string | undefined;
  /** A sentence the closing error adds after its count of failed rows. */
  consequence?: string | undefined;
}

/** What every fleet change is given besides its own input: where, how many at once, whether for real. */
interface ChangeScope {
  targets: Target[];
  concurrency: number;
  dryRun: boolean | undefined;
  signal: AbortSignal;
}

/**
 * The rows: `--json` as they are; piped, one tab-separated line each (`fields`), plus the reason on a
 * failed row only; on a terminal (or with --columns/--csv) a table, the reason column only when a row
 * has one. Off a terminal the key's own account has an empty company id.
 */
async function printFleetRows<R extends FleetRow>(
  rt: Runtime,
  rows: R[],
  columns: Column<R>[],
  fields: (row: R) => unknown[],
  reasons?: ReadonlyMap<R, string>,
): Promise<void> {
  const { out } = rt;
  if (out.json) return out.jsonList(rows, withReason(columns));
  const chosen = out.options.columns !== undefined || out.options.csv === true;
  if (!rt.terminal.stdoutIsTTY && !chosen) {
    for (const row of rows) {
      const line = fields(row);
      if (row.error) line.push(row.error.message);
      out.out(rowLine(line, false));
    }
    return;
  }
  // On a terminal the reason is the service's own words (or what a failure left behind); --json, --csv
  // and piped rows keep the whole message.
  const terminalReason = (row: R) => reasons?.get(row) ?? shortReason(row);
  const all = withReason(columns).map((c, i) => {
    if (rt.terminal.stdoutIsTTY) return c.name === 'error' ? { ...c, value: terminalReason } : c;
    return i === 0 ? { ...c, value: (r: R) => r.company_id } : c;
  });
  await out.list(rows, rows.some((r) => r.error) || chosen ? all : all.slice(0, -1));
}

/** The columns a fleet command offers, for checking --columns before any request. */
function withReason<R extends FleetRow>(columns: Column<R>[]): Column<R>[] {
  return [...columns, reasonColumn<R>()];
}

function shortReason(row: FleetRow): string | undefined {
  return row.error && (serviceDetail(row.error.message) ?? row.error.message);
}

/** The account column: "(this account)" on a terminal for the key's own. */
export function companyColumn<R extends { company_id: number | null }>(): Column<R> {
  return {
    header: 'company',
    name: 'company_id',
    aliases: ['company'],
    value: (r) => r.company_id ?? '(this account)',
    kind: 'id',
  };
}

/**
 * "2 moved." on stderr, then the rows not listed: "Not listed: 115 absent (--json lists every row)." or,
 * when none is listed, "Nothing to do: 2 already-moved (--json …)". A dry run says nothing was sent.
 */
function summarizeResults(listed: readonly FleetRow[], quiet: readonly FleetRow[], dryRun: boolean): string {
  const rest = quiet.length ? `${countResults(quiet)} (--json lists every row)` : '';
  let text = countResults(listed);
  if (!text) text = rest ? `nothing to do: ${rest}` : 'nothing to do';
  else if (rest) text += `. Not listed: ${rest}`;
  return dryRun ? `Dry run: ${text}. Nothing was sent.` : `${text[0]?.toUpperCase()}${text.slice(1)}.`;
}

/** "2 moved, 1 already-moved", in the order the results first came; '' for no rows. */
function countResults(rows: readonly FleetRow[]): string {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.result, (counts.get(row.result) ?? 0) + 1);
  return [...counts].map(([result, n]) => `${n} ${result}`).join(', ');
}

/** After the rows are printed: exit 130 when interrupted, else the shared code of the failed rows. */
export function throwIfFailed(
  rt: Runtime,
  outcome: AccountsOutcome<FleetRow> & { consequence?: string | undefined },
  failed: readonly string[] = ['failed'],
): void {
  if (outcome.interrupted) {
    const where = listedWhere(rt.terminal.stdoutIsTTY);
    throw new PartialFailureError(`Interrupted; what was done is ${where}.`, ExitCode.interrupted);
  }
  if (outcome.unreachable) throw outcome.unreachable;
  const failedRows = outcome.rows.filter((r) => failed.includes(r.result));
  if (failedRows.length === 0) return;
  const count = failedCount(failedRows.length, outcome.rows.length, 'row');
  throw rowsFailed(outcome.consequence ? `${count} ${outcome.consequence}` : count, outcome.failures);
}
