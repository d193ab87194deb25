/**
 * The record of `campaigns pause|stop --record FILE`: one JSON line per campaign the run changed,
 * `{"company_id", "campaign_id", "campaign", "status_before", "at"}`, appended as each change is
 * confirmed (keys-out.ts: 0600, written through before the next request). `campaigns resume
 * --from-record FILE` reads it back: every line checked, a campaign listed twice resumed once.
 */
import { ExactInteger, parseJson, stringifyExact } from '../api/json.js';
import { AgencyError, ExitCode, UsageError } from '../errors.js';
import { command, option } from '../terms.js';
import type { AppendedFileKind } from './keys-out.js';

export interface RecordEntry {
  /** null = the key's own account. */
  company_id: number | null;
  campaign_id: number;
  campaign: string | null;
  status_before: string | null;
  at: string;
}

export const RECORD_FILE: AppendedFileKind = {
  option: option('record'),
  example: 'paused.jsonl',
  noun: 'the record file',
  consequence: 'Nothing further was changed; the rows on stdout show what was.',
  hint: `Free the space (or choose another ${option('record')}); a campaign changed but not recorded is resumed by naming it: \`${command('campaigns resume --company <company> --campaign <id>')}\`.`,
};

/** A `--campaign` id that none of the targets' lists holds. */
export class CampaignNotFoundError extends AgencyError {
  readonly exitCode = ExitCode.notFound;
}

export function recordLine(
  row: {
    company_id: number | null;
    campaign_id: number | null;
    campaign: string | null;
    status_before: string | null;
  },
  at: Date,
): string {
  const { company_id, campaign_id, campaign, status_before } = row;
  // stringifyExact: an id beyond 2^53 is written as the service wrote it, a bare number.
  return `${stringifyExact({ company_id, campaign_id, campaign, status_before, at: at.toISOString() })}\n`;
}

/** The lines of a record, checked (a bad one is exit 2 naming its line), each campaign once. */
export function readRecord(text: string, source: string): RecordEntry[] {
  const entries: RecordEntry[] = [];
  const seen = new Set<string>();
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const entry = parseLine(line, `${source} line ${index + 1}`);
    const key = `${entry.company_id}:${entry.campaign_id}`;
    if (seen.has(key)) return;
    seen.add(key);
    entries.push(entry);
  });
  return entries;
}

function parseLine(line: string, where: string): RecordEntry {
  let value: unknown;
  try {
    value = parseJson(line);
  } catch {
    throw notARecord(where, 'it is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw notARecord(where, 'it is not an object');
  const v = value as Record<string, unknown>;
  const company = v.company_id;
  if (company !== null && !isId(company))
    throw notARecord(where, '"company_id" is not a company id (or null)');
  if (!isId(v.campaign_id)) throw notARecord(where, '"campaign_id" is not a campaign id');
  return {
    company_id: company as number | null,
    campaign_id: v.campaign_id as number,
    campaign: typeof v.campaign === 'string' ? v.campaign : null,
    status_before: typeof v.status_before === 'string' ? v.status_before : null,
    at: typeof v.at === 'string' ? v.at : '',
  };
}

/** A positive whole number, exact beyond 2^53 (parseJson keeps such an id as an ExactInteger). */
function isId(value: unknown): value is number {
  if (value instanceof ExactInteger) return /^\d+$/.test(value.digits);
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function notARecord(where: string, why: string): UsageError {
  return new UsageError(`${where} is not a line of a campaign record: ${why}.`, {
    hint: `A record is written by \`${command('campaigns pause --record FILE')}\` (or stop). Nothing was sent.`,
  });
}
