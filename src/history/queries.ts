/**
 * What `agency history` reads from history.db: the problems of `health` as episodes (when each appeared
 * and went away), and the stored totals of `report` and `deliverability` per client and period. SQL
 * only, over one agency's runs.
 */
import type { Database } from 'sql.js';
import { idKey } from '../api/types.js';
import { readStored } from '../terms.js';
import { storedId } from './ids.js';
import { rows, STORED_COUNTS } from './runs.js';

/** Which runs to read: the agency's, its clients (ids; none = all), from a day on. */
export interface HistoryFilter {
  agencyId: number;
  companies: readonly number[];
  /** YYYY-MM-DD: only what was still there (health) or whose period ended (results) on or after it. */
  since?: string | undefined;
  checks?: readonly string[] | undefined;
}

/** The agencies of the store recorded with this base URL. */
export function agenciesAt(db: Database, baseUrl: string): { id: number; accountId: string }[] {
  return rows(db, 'SELECT id, account_id FROM agencies WHERE base_url = ?', [baseUrl]).map((r) => ({
    id: Number(r.id),
    accountId: String(r.account_id),
  }));
}

/** One problem from the run that first had it to the last one (and the run that no longer had it). */
export interface ProblemEpisode {
  company_id: number;
  name: string;
  check: string;
  subject: string;
  severity: string;
  detail: string;
  first_seen: string;
  last_seen: string;
  /** The first later run of the client (same period length) without it; null while it is still there. */
  resolved: string | null;
  period_days: number;
}

function companyClause(column: string, companies: readonly number[]): string {
  // The ids' digits (parsed ids: digits only), exact beyond 2^53 where a double would round them.
  return companies.length === 0 ? '' : ` AND ${column} IN (${companies.map(idKey).join(', ')})`;
}

export function problemEpisodes(db: Database, filter: HistoryFilter): ProblemEpisode[] {
  const checks = filter.checks ?? [];
  const checkClause = checks.length === 0 ? '' : ` AND p.check_name IN (${checks.map(() => '?').join(', ')})`;
  // The bare columns of a max() aggregate come from the row that holds the maximum: the latest run's.
  const found = rows(
    db,
    `SELECT e.*, (
        SELECT min(r2.at) FROM health_clients c2 JOIN runs r2 ON r2.id = c2.run_id
         WHERE r2.agency_id = ?1 AND r2.command = 'health' AND r2.period_days = e.period_days
           AND c2.company_id = e.company_id AND r2.at > e.last_seen
           AND NOT EXISTS (SELECT 1 FROM health_problems p2 WHERE p2.run_id = r2.id
             AND p2.company_id = e.company_id AND p2.check_name = e.check_name AND p2.subject = e.subject)
      ) AS resolved
      FROM (
        SELECT p.company_id, p.name, p.check_name, p.subject, p.severity, p.detail, p.first_seen,
               max(r.at) AS last_seen, r.period_days
          FROM health_problems p JOIN runs r ON r.id = p.run_id
         WHERE r.agency_id = ?1${companyClause('p.company_id', filter.companies)}${checkClause}
         GROUP BY p.company_id, p.check_name, p.subject, p.first_seen, r.period_days
      ) e
     ORDER BY e.first_seen, e.company_id, e.check_name, e.subject`,
    [filter.agencyId, ...checks],
  );
  return found
    .map((r) => ({
      company_id: storedId(r.company_id),
      name: String(r.name),
      check: String(r.check_name),
      subject: String(r.subject),
      severity: String(r.severity),
      detail: readStored(String(r.detail)),
      first_seen: String(r.first_seen),
      last_seen: String(r.last_seen),
      resolved: r.resolved === null ? null : String(r.resolved),
      period_days: Number(r.period_days),
    }))
    .filter((e) => filter.since === undefined || (e.resolved ?? e.last_seen).slice(0, 10) >= filter.since);
}

/** A client's stored totals for one period: the latest run of that period. */
export type StoredTotals = {
  company_id: number;
  name: string;
  from: string;
  to: string;
  recorded_at: string;
} & Record<string, number | string>;

function storedTotals(
  db: Database,
  command: keyof typeof STORED_COUNTS,
  filter: HistoryFilter,
): StoredTotals[] {
  const { table, counts } = STORED_COUNTS[command];
  const since = filter.since === undefined ? '' : ' AND r.period_to >= ?';
  const found = rows(
    db,
    `SELECT t.company_id, t.name, r.period_from, r.period_to, max(r.at || printf('%020d', r.id)) AS latest, r.at,
            ${counts.map((c) => `t.${c}`).join(', ')}
       FROM ${table} t JOIN runs r ON r.id = t.run_id
      WHERE r.agency_id = ? AND r.command = ?${companyClause('t.company_id', filter.companies)}${since}
      GROUP BY t.company_id, r.period_from, r.period_to
      ORDER BY r.period_from, r.period_to, t.company_id`,
    [filter.agencyId, command, ...(filter.since === undefined ? [] : [filter.since])],
  );
  return found.map((r) => {
    const totals: StoredTotals = {
      company_id: storedId(r.company_id),
      name: String(r.name),
      from: String(r.period_from),
      to: String(r.period_to),
      recorded_at: String(r.at),
    };
    for (const c of counts) totals[c] = Number(r[c]);
    return totals;
  });
}

export function reportHistory(db: Database, filter: HistoryFilter): StoredTotals[] {
  return storedTotals(db, 'report', filter);
}

export function deliverabilityHistory(db: Database, filter: HistoryFilter): StoredTotals[] {
  return storedTotals(db, 'deliverability', filter);
}

/** Company ids whose stored name is exactly `name` (names are unique within an agency). */
export function companiesNamed(db: Database, agencyId: number, name: string): number[] {
  return rows(
    db,
    `SELECT DISTINCT company_id FROM (
       SELECT h.company_id, h.name FROM health_clients h JOIN runs r ON r.id = h.run_id WHERE r.agency_id = ?1
       UNION SELECT d.company_id, d.name FROM deliverability d JOIN runs r ON r.id = d.run_id WHERE r.agency_id = ?1
       UNION SELECT t.company_id, t.name FROM report_totals t JOIN runs r ON r.id = t.run_id WHERE r.agency_id = ?1
     ) WHERE name = ?2`,
    [agencyId, name],
  ).map((r) => storedId(r.company_id));
}
