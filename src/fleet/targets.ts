/**
 * The targets of a fleet command (contract, "Fleet changes"): none = the key's own account;
 * `--company` (repeatable); `--file` of ids or exact names; `--all` = every active company.
 * Every value is checked before the first request; names cost one listing for the whole run.
 */
import { UsageError } from '../errors.js';
import { type CompanyDirectory, CompanyNotFoundError, type CompanyRef, parseCompanyRef } from './resolve.js';

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

interface SourcedRef {
  ref: CompanyRef;
  where: string;
}

/** Lines of a targets file: whitespace trimmed, blank lines and `#` comments skipped. */
export function parseTargetLines(text: string, source: string): SourcedRef[] {
  const refs: SourcedRef[] = [];
  const problems: string[] = [];
  collectTargetLines(text, source, refs, problems);
  if (problems.length > 0) throw usageProblems(problems);
  return refs;
}

function collectTargetLines(text: string, source: string, refs: SourcedRef[], problems: string[]): void {
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((line, index) => {
      const trimmed = line.trim();
      if (trimmed === '' || trimmed.startsWith('#')) return;
      const where = `${source} line ${index + 1}`;
      try {
        refs.push({ ref: parseCompanyRef(trimmed, where), where });
      } catch (error) {
        problems.push((error as Error).message);
      }
    });
}

/** Checks every target locally, then resolves names through one listing (only when a name is given). */
/** Accounts to act on, in the user's order (`--all`: the listing's), each once. */
export async function selectTargets(options: TargetOptions, directory: CompanyDirectory): Promise<Target[]> {
  const explicit = readRefs(options);
  if (options.all) {
    if (explicit.length > 0 || options.file) {
      throw new UsageError('--all cannot be combined with --company or --file.');
    }
    const companies = await directory.all();
    return companies.map((c) => ({ companyId: c.id, name: c.name, skipInactive: !c.active || undefined }));
  }
  if (options.file && explicit.length === 0) {
    throw new UsageError(`${options.file.source} names no company (only blank or # lines).`);
  }
  if (explicit.length === 0) return [{ companyId: null }];

  const targets: Target[] = [];
  const seen = new Set<number>();
  const missing: string[] = [];
  for (const { ref } of explicit) {
    try {
      const { id, company } = await directory.resolve(ref);
      if (seen.has(id)) continue;
      seen.add(id);
      targets.push({ companyId: id, name: company?.name });
    } catch (error) {
      if (!(error instanceof CompanyNotFoundError)) throw error;
      missing.push(error.hint ? `${error.message} ${error.hint}` : error.message);
    }
  }
  if (missing.length === 1) throw new CompanyNotFoundError(missing[0] as string);
  if (missing.length > 1) {
    throw new CompanyNotFoundError(`${missing.length} companies not found:\n  ${missing.join('\n  ')}`);
  }
  return targets;
}

/** Every --company and --file value checked locally, in order (a usage error lists every bad one). */
export function readRefs(options: TargetOptions): SourcedRef[] {
  const refs: SourcedRef[] = [];
  const problems: string[] = [];
  (options.company ?? []).forEach((value, i) => {
    try {
      refs.push({ ref: parseCompanyRef(value, '--company'), where: `--company #${i + 1}` });
    } catch (error) {
      problems.push((error as Error).message);
    }
  });
  if (options.file) collectTargetLines(options.file.text, options.file.source, refs, problems);
  if (problems.length > 0) throw usageProblems(problems);
  return refs;
}

function usageProblems(problems: readonly string[]): UsageError {
  return new UsageError(
    problems.length === 1
      ? (problems[0] as string)
      : `${problems.length} problems:\n  ${problems.join('\n  ')}`,
    { hint: 'Nothing was sent.' },
  );
}
