/**
 * The targets of a fleet command (contract, "Fleet changes"): none = the key's own account;
 * `--company` (repeatable); `--file` of ids or exact names; `--all` = every active company.
 * Every value is checked before the first request; names cost one listing for the whole run.
 */
import { UsageError } from '../errors.js';
import { option } from '../terms.js';
import {
  type CompanyDirectory,
  type CompanyEntry,
  companyFileEntries,
  parseCompanyEntries,
  resolveCompanies,
  type SourcedRef,
} from './resolve.js';

export interface Target {
  /** null = the key's own account (no x-company-id). */
  companyId: number | null;
  /** The company's name when the listing was read. */
  name?: string | undefined;
  /** `--all` only: an inactive company, reported as skipped-inactive and never sent a request. */
  skipInactive?: boolean | undefined;
}

export interface TargetOptions {
  /** `--company` values, in order. */
  company?: readonly string[] | undefined;
  /** The text of `--file` and where it came from (a path, or "stdin"). */
  file?: { text: string; source: string } | undefined;
  all?: boolean | undefined;
}

/** Accounts to act on, in the user's order (`--all`: the listing's), each once. */
export async function selectTargets(options: TargetOptions, directory: CompanyDirectory): Promise<Target[]> {
  const entries = targetEntries(options);
  if (options.all) {
    if (entries.length > 0 || options.file) {
      throw new UsageError(
        `${option('all')} cannot be combined with ${option('company')} or ${option('file')}.`,
      );
    }
    const companies = await directory.all();
    return companies.map((c) => ({ companyId: c.id, name: c.name, skipInactive: !c.active || undefined }));
  }
  if (options.file && entries.length === 0) {
    throw new UsageError(`${options.file.source} names no company (only blank or # lines).`);
  }
  if (entries.length === 0) return [{ companyId: null }];
  const companies = await resolveCompanies(entries, directory, 'once');
  return companies.map(({ id, company }) => ({ companyId: id, name: company?.name }));
}

/** Every --company and --file value checked locally, in order (a usage error lists every bad one). */
export function readRefs(options: TargetOptions): SourcedRef[] {
  return parseCompanyEntries(targetEntries(options), 'once');
}

function targetEntries(options: TargetOptions): CompanyEntry[] {
  const entries = (options.company ?? []).map((value) => ({ value, where: option('company') }));
  if (options.file) entries.push(...companyFileEntries(options.file.text, options.file.source));
  return entries;
}
