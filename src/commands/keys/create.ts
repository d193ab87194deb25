/**
 * `agency keys create`: one key (printed alone, for KEY=$(…)) or one per company, one request at a
 * time; a failure for one company does not stop the others.
 */
import type { Command } from '@commander-js/extra-typings';
import { AgencyError, ExitCode, InterruptedError, PartialFailureError, UsageError } from '../../errors.js';
import { type RowFailure, rowFailure, rowsFailed } from '../../fleet/failures.js';
import { createKeySettled } from '../../fleet/lost-answer.js';
import { CompanyDirectory, companyFileEntries, resolveCompanies } from '../../fleet/resolve.js';
import { validateLabel } from '../../input/parse.js';
import { readRunInput } from '../../input/read.js';
import { reportError } from '../../output/error-report.js';
import { progressLine } from '../../output/progress.js';
import { rowStream } from '../../output/row-stream.js';
import { NOUNS, plural } from '../../output/summary.js';
import { shellWord } from '../../output/text.js';
import type { Column } from '../../output/writer.js';
import type { Runtime } from '../../runtime.js';
import { argument, command, option } from '../../terms.js';
import { helpText, type OptionsOf, type Run } from '../command.js';

const configureCreate = (keys: Command) =>
  keys
    .command('create')
    .description('create an API key for one or more companies')
    .argument('[company...]', 'company ids or exact names')
    .requiredOption('--label <label>', 'label of the key, e.g. the integration it is for')
    .option('--file <path>', "read company ids from a file, one per line ('-' = stdin)")
    .option('--new', 'create another key even where your user already has one with this label (rotation)')
    .option('--skip-existing', 'the default, still accepted: print the existing key with this label')
    .addHelpText(
      'after',
      helpText({
        prints: `
          For one company, prints the key alone on stdout (a confirmation goes to
          stderr), so that KEY=$(agency keys create 1042 --label zapier) works. For
          several, prints "company_id<TAB>api_key" lines; a failure for one company does
          not stop the others, and the exit code says if any failed.

          The keys your user created are read first, and a company that has a key with
          the label gets no new one: its existing key is printed as if created (result
          exists; --json has "result": "created" or "exists"), so running the same
          command again gives the same key and creates nothing (keys cannot be deleted).
          --new creates another key with the label all the same (rotation).
        `,
        examples: `
          $ KEY=$(agency keys create 1042 --label zapier)   # the same key on every run
          $ KEY=$(agency keys create 1042 --label zapier --new)   # a second key
          $ agency keys create 1042 1043 1044 --label reporting --json
          $ agency companies list --active | cut -f1 |
              agency keys create --file - --label backup
        `,
      }),
    );

type CreateKeysOptions = OptionsOf<typeof configureCreate>;

interface CreatedKey {
  company_id: number;
  label: string;
  api_key: string;
  /** Whether the key was made now or was there (printed as if created). */
  result: 'created' | 'exists';
}

const KEY_COLUMNS: Column<CreatedKey>[] = [
  { header: 'company', name: 'company_id', aliases: ['company'], value: (k) => k.company_id, kind: 'id' },
  { header: 'label', value: (k) => k.label },
  { header: 'api key', value: (k) => k.api_key, kind: 'id' },
];
const RESULT_COLUMN: Column<CreatedKey> = { header: 'result', value: (k) => k.result, kind: 'count' };
/** Piped without --columns or --csv: "company_id<TAB>api_key". */
const PIPED_COLUMNS = [KEY_COLUMNS[0], KEY_COLUMNS[2]] as Column<CreatedKey>[];

async function createKeys(rt: Runtime, companyArgs: string[], opts: CreateKeysOptions): Promise<void> {
  const label = validateLabel(opts.label);
  if (opts.new && opts.skipExisting) {
    throw new UsageError(
      `${option('new')} and ${option('skip-existing')} say opposite things: give one of them.`,
      {
        hint: 'Without either, an existing key with the label is printed and none is created.',
      },
    );
  }
  const rotate = opts.new === true;
  const columns = [...KEY_COLUMNS, RESULT_COLUMN];
  rt.out.columns(columns); // an unknown --columns name is refused before any request
  const ids = await readCompanyIds(rt, companyArgs, opts.file);
  const { out } = rt;
  // Ctrl-C does not abort a POST in flight: a key created but never shown could not be found or
  // deleted through the API. No new request starts after it.
  const api = rt.api({ interruptible: false });
  const { keysLabelled } = await import('../../fleet/keys.js');
  /** The company's key with the label: the one there, else (or with --new) a new one. */
  const obtain = async (companyId: number): Promise<CreatedKey> => {
    const before = await keysLabelled(api, companyId, label);
    const found = before[0];
    if (found && !rotate) return { company_id: companyId, label, api_key: found.api_key, result: 'exists' };
    // After a lost answer the company's keys say whether it was made: they were just read, so a key
    // with the label that was not there before is the new one.
    const apiKey = await createKeySettled(api, companyId, label, {
      before: new Set(before.map((key) => key.api_key)),
      retry: `\`${command(`keys create ${companyId} --label ${shellWord(label)}`)}\` prints the key if it exists and creates it if not.`,
      note: (message) => out.warn(message),
    });
    out.created(createdKey(companyId, label));
    return { company_id: companyId, label, api_key: apiKey, result: 'created' };
  };

  // One key alone on stdout (KEY=$(agency keys create ...)), unless --csv or --columns asks for a table.
  const listAsked = !out.json && (out.options.csv === true || out.options.columns !== undefined);
  if (ids.length === 1 && opts.file === undefined && !listAsked) {
    const companyId = ids[0] as number;
    const key = await obtain(companyId);
    if (out.json) out.jsonValue(out.fields([key], columns)[0]);
    else out.line(key.api_key);
    out.success(
      key.result === 'exists'
        ? `Company ${companyId} already has your key ${JSON.stringify(label)}; printed it, created none (${option('new')} creates another).`
        : `Created key ${JSON.stringify(label)} for company ${companyId}.`,
    );
    return;
  }

  // Agency endpoints share the HQ account's limit: one request at a time, in order. Piped, each key's
  // line is written as it is created: a reader that left (`| head -1`) stops the run at the next line.
  const plainPipe = !out.json && !rt.terminal.stdoutIsTTY && !listAsked;
  const rows = rowStream(out, plainPipe ? PIPED_COLUMNS : columns);
  const created = rows.items;
  const failures: RowFailure[] = [];
  const progress = progressLine(rt, `of ${plural(ids.length, NOUNS.key)} created`, ids.length);
  let interrupted = false;
  for (const companyId of ids) {
    if (rt.ctx.signal.aborted) {
      interrupted = true;
      break;
    }
    try {
      rows.push(await obtain(companyId));
      progress.update(undefined, created.length);
    } catch (error) {
      if (error instanceof InterruptedError) {
        interrupted = true;
        break;
      }
      if (!(error instanceof AgencyError)) throw error;
      failures.push(rowFailure(companyId, error));
      progress.done();
      reportError(out, error, {
        message: error.message.includes(`company ${companyId}`)
          ? error.message
          : `company ${companyId}: ${error.message}`,
        hint: error.hint,
        fields: { company_id: companyId },
      });
    }
  }
  progress.done();
  await rows.end();

  const existed = created.filter((k) => k.result === 'exists').length;
  const made = created.length - existed;
  const notTried = ids.length - created.length - failures.length;
  const existedNote = existed > 0 ? ` (${existed} existed)` : '';
  if (interrupted) {
    throw new PartialFailureError(
      `Interrupted after creating ${made} of ${plural(ids.length, NOUNS.key)}${existedNote} (listed on stdout); ${notTried} not tried.`,
      ExitCode.interrupted,
    );
  }
  if (failures.length > 0) {
    const which = failures.map((f) => `${f.subject}${f.status ? ` (${f.status})` : ''}`).join(', ');
    throw rowsFailed(
      `Created ${made} of ${plural(ids.length, NOUNS.key)}${existedNote}; failed for ${failures.length}: ${which}.`,
      failures,
      { grouped: false },
    );
  }
  out.success(
    `Created ${made} ${made === 1 ? 'key' : 'keys'} labelled ${JSON.stringify(label)}${existed > 0 ? `; ${existed} existed (printed, not created)` : ''}.`,
  );
}

/** A new key, for the message if stdout cannot take it. */
function createdKey(companyId: number, label: string) {
  return {
    what: `the key ${JSON.stringify(label)} of company ${companyId}`,
    readBack: `agency keys list ${companyId} --reveal`,
  };
}

/**
 * Ids from arguments and/or a file (ids or exact names); every bad or repeated value is reported before
 * anything is sent, and names share one listing.
 */
async function readCompanyIds(rt: Runtime, args: string[], file: string | undefined): Promise<number[]> {
  const entries = args.map((value, i) => ({ value, where: argument(i + 1) }));
  if (file !== undefined) {
    const { text, source } = await readRunInput(rt, file, 'company ids, one per line');
    entries.push(...companyFileEntries(text, source));
  }
  if (entries.length === 0) {
    throw new UsageError('No company given.', {
      hint: `Name one or more companies (ids or exact names), or use ${option('file')}.`,
    });
  }
  const companies = await resolveCompanies(entries, new CompanyDirectory(rt.api()), 'refuse');
  return companies.map(({ id }) => id);
}

export function defineCreate(keys: Command, run: Run): void {
  configureCreate(keys).action(run(createKeys));
}
