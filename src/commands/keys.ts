/** `keys list | create`. */
import { collect, paginate } from '../api/paginate.js';
import type { ApiKey } from '../api/types.js';
import type { Runtime } from '../cli.js';
import { maskKey } from '../config.js';
import { AgencyError, ExitCode, InterruptedError, PartialFailureError, UsageError } from '../errors.js';
import { readInput } from './input.js';
import { parseCompanyId, parsePositiveInt } from './parse.js';
import { progressLine } from './progress.js';

export interface ListKeysOptions {
  page?: string | undefined;
  limit?: string | undefined;
  reveal?: boolean | undefined;
}

export async function listKeys(rt: Runtime, company: string, opts: ListKeysOptions): Promise<void> {
  const id = parseCompanyId(company);
  const page = opts.page === undefined ? undefined : parsePositiveInt(opts.page, '--page');
  const limit = opts.limit === undefined ? undefined : parsePositiveInt(opts.limit, '--limit');
  const api = rt.api();
  const keys = await collect(paginate((p) => api.listKeysPage(id, p), { page, limit }));
  const { out } = rt.ctx;
  // A table on a screen is read over a shoulder: keys are masked there unless --reveal.
  const mask = out.streams.stdoutIsTTY && !opts.reveal;
  await out.list<ApiKey>(
    keys,
    [
      { header: 'api key', value: (k) => (mask ? maskKey(k.api_key) : k.api_key) },
      { header: 'label', value: (k) => k.label },
    ],
    {
      empty: `Company ${id} has no keys that your user created — make one with: agency keys create ${id} --label <label>`,
      noun: ['key', 'keys'],
    },
  );
  if (mask && keys.length > 0) out.info('Keys are masked; use --reveal to show them, or pipe the output.');
}

export interface CreateKeysOptions {
  label: string;
  file?: string | undefined;
}

interface CreatedKey {
  company_id: number;
  label: string;
  api_key: string;
}

export async function createKeys(rt: Runtime, companyArgs: string[], opts: CreateKeysOptions): Promise<void> {
  const label = validateLabel(opts.label);
  const ids = await readCompanyIds(rt, companyArgs, opts.file);
  const { out } = rt.ctx;
  // Ctrl-C does not abort a POST in flight: a key created but never shown could not be found or
  // deleted through the API. No new request starts after it.
  const api = rt.api({ interruptible: false });

  if (ids.length === 1 && opts.file === undefined) {
    const companyId = ids[0] as number;
    const apiKey = await api.createKey(companyId, label);
    if (out.json) out.jsonValue({ company_id: companyId, label, api_key: apiKey });
    else out.line(apiKey);
    out.success(`Created key ${JSON.stringify(label)} for company ${companyId}.`);
    return;
  }

  // Agency endpoints share the HQ account's limit: one request at a time, in order.
  const created: CreatedKey[] = [];
  const failures: { companyId: number; error: AgencyError }[] = [];
  const progress = progressLine(rt.ctx, `of ${ids.length} keys created`);
  let interrupted = false;
  for (const companyId of ids) {
    if (rt.ctx.signal.aborted) {
      interrupted = true;
      break;
    }
    try {
      created.push({ company_id: companyId, label, api_key: await api.createKey(companyId, label) });
      progress.update(undefined, created.length);
    } catch (error) {
      if (error instanceof InterruptedError) {
        interrupted = true;
        break;
      }
      if (!(error instanceof AgencyError)) throw error;
      failures.push({ companyId, error });
      progress.done();
      // A 4xx was refused; without an answer, or after a 5xx, the key may exist with its value lost.
      const unsure = error.status === null || error.status >= 500;
      out.error(
        error.message.includes(`company ${companyId}`)
          ? error.message
          : `company ${companyId}: ${error.message}`,
        unsure
          ? `The key may have been created all the same: check with \`agency keys list ${companyId}\`.`
          : error.hint,
      );
      if (out.json) {
        const api = error as AgencyError & { title?: string; detail?: string };
        out.err(
          `${JSON.stringify({ error: { company_id: companyId, status: error.status, title: api.title ?? null, detail: api.detail ?? null, message: error.message } })}\n`,
        );
      }
    }
  }
  progress.done();

  if (out.json) out.jsonValue(created);
  else if (out.streams.stdoutIsTTY) {
    await out.list(created, [
      { header: 'company', value: (k) => k.company_id },
      { header: 'label', value: (k) => k.label },
      { header: 'api key', value: (k) => k.api_key },
    ]);
  } else {
    for (const key of created) out.out(`${key.company_id}\t${key.api_key}\n`);
  }

  const notTried = ids.length - created.length - failures.length;
  if (interrupted) {
    throw new PartialFailureError(
      `Interrupted after creating ${created.length} of ${ids.length} keys (listed on stdout); ${notTried} not tried.`,
      ExitCode.interrupted,
    );
  }
  if (failures.length > 0) {
    const codes = new Set(failures.map((f) => f.error.exitCode));
    throw new PartialFailureError(
      `Created ${created.length} of ${ids.length} keys; failed for ${failures.length}: ${failures
        .map((f) => `${f.companyId}${f.error.status ? ` (${f.error.status})` : ''}`)
        .join(', ')}.`,
      codes.size === 1 ? ([...codes][0] as ExitCode) : ExitCode.failure,
    );
  }
  out.success(`Created ${created.length} keys labelled ${JSON.stringify(label)}.`);
}

export function validateLabel(raw: string): string {
  const label = raw.trim();
  if (label === '') throw new UsageError('The key label is empty.', { hint: 'Use e.g. --label zapier.' });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f-\u009f]/.test(label))
    throw new UsageError('The key label contains control characters.');
  if (label.length > 255) throw new UsageError('The key label is longer than 255 characters.');
  return label;
}

/** Ids from arguments and/or a file; every bad or repeated id is reported before anything is sent. */
async function readCompanyIds(rt: Runtime, args: string[], file: string | undefined): Promise<number[]> {
  const entries = args.map((value, i) => ({ value, where: `argument ${i + 1}` }));
  if (file !== undefined) {
    const { text, source } = await readInput(rt.ctx, file);
    text.split(/\r?\n/).forEach((line, i) => {
      const value = line.trim();
      if (value !== '' && !value.startsWith('#'))
        entries.push({ value: value.split('\t')[0] ?? value, where: `${source} line ${i + 1}` });
    });
  }
  if (entries.length === 0) {
    throw new UsageError('No company given.', { hint: 'Name one or more company ids, or use --file.' });
  }
  const problems: string[] = [];
  const ids: number[] = [];
  const seen = new Map<number, string>();
  for (const { value, where } of entries) {
    let id: number;
    try {
      id = parseCompanyId(value);
    } catch (error) {
      problems.push(`${(error as Error).message} (${where})`);
      continue;
    }
    const first = seen.get(id);
    if (first) problems.push(`Company ${id} is given twice (${first} and ${where}).`);
    else {
      seen.set(id, where);
      ids.push(id);
    }
  }
  if (problems.length > 0) {
    throw new UsageError(
      problems.length === 1
        ? (problems[0] as string)
        : `${problems.length} problems:\n  ${problems.join('\n  ')}`,
      {
        hint: 'Nothing was sent.',
      },
    );
  }
  return ids;
}
