/**
 * Rows of history.db: each run under its agency, and what `health`, `deliverability` and `report`
 * store of it; the memory `health` compares with. SQL only: no output, no network.
 */
import type { Database, SqlValue } from 'sql.js';
import { idKey } from '../api/types.js';
import { periodDays } from '../input/period.js';
import { COUNT_FIELDS, type ResultCounts } from '../reports/campaigns.js';
import type { Problem } from '../reports/health.js';
import { forStorage, readStored } from '../terms.js';
import type { HealthMemory, RememberedProblem } from './health-memory.js';
import { bindable, fromStore, storedId } from './ids.js';

/** An agency as the store knows it: the base URL and the HQ account's id (never a key). */
export interface AgencyKey {
  baseUrl: string;
  accountId: string;
}

type RecordedCommand = 'health' | 'deliverability' | 'report';

export interface RunInfo {
  command: RecordedCommand;
  at: string;
  period: { from: string; to: string };
  version: string;
}

/** The agency's row id, when the store has one. */
export function findAgency(db: Database, agency: AgencyKey): number | undefined {
  const found = db.exec('SELECT id FROM agencies WHERE base_url = ? AND account_id = ?', [
    agency.baseUrl,
    agency.accountId,
  ]);
  const id = found[0]?.values[0]?.[0];
  return typeof id === 'number' ? id : undefined;
}

/** The agency's row id, added when the store has none yet. */
export function agencyId(db: Database, agency: AgencyKey): number {
  const id = findAgency(db, agency);
  if (id !== undefined) return id;
  db.run('INSERT INTO agencies (base_url, account_id) VALUES (?, ?)', [agency.baseUrl, agency.accountId]);
  return findAgency(db, agency) as number;
}

function insertRun(db: Database, agency: AgencyKey, run: RunInfo): number {
  db.run(
    'INSERT INTO runs (agency_id, command, at, period_from, period_to, period_days, tool_version) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [
      agencyId(db, agency),
      run.command,
      run.at,
      run.period.from,
      run.period.to,
      periodDays(run.period),
      run.version,
    ],
  );
  return db.exec('SELECT last_insert_rowid()')[0]?.values[0]?.[0] as number;
}

/** Rows of a query as objects; integers (ids) exact beyond 2^53 (ids.ts). */
export function rows(db: Database, sql: string, params: SqlValue[] = []): Record<string, SqlValue>[] {
  const statement = db.prepare(sql, params.map(bindable));
  try {
    const out: Record<string, SqlValue>[] = [];
    while (statement.step()) {
      const row = statement.getAsObject(null, { useBigInt: true });
      out.push(Object.fromEntries(Object.entries(row).map(([name, value]) => [name, fromStore(value)])));
    }
    return out;
  } finally {
    statement.free();
  }
}

/**
 * For each client some earlier health run of the agency checked (with a period of `days` days): that
 * client's latest such run, and the client's problems in it.
 */
export function loadHealthMemory(db: Database, agency: AgencyKey, days: number): HealthMemory {
  const memory = new Map<string, { at: string; problems: RememberedProblem[] }>();
  const id = findAgency(db, agency);
  if (id === undefined) return memory;
  // SQLite takes the bare columns of a max() aggregate from the row that holds the maximum.
  const latest = rows(
    db,
    `SELECT c.company_id, c.run_id, max(r.at || printf('%020d', r.id)) AS latest, r.at
       FROM health_clients c JOIN runs r ON r.id = c.run_id
      WHERE r.agency_id = ? AND r.command = 'health' AND r.period_days = ?
      GROUP BY c.company_id`,
    [id, days],
  );
  const runOf = new Map(latest.map((row) => [idKey(storedId(row.company_id)), Number(row.run_id)]));
  for (const row of latest) memory.set(idKey(storedId(row.company_id)), { at: String(row.at), problems: [] });
  const runs = [...new Set(runOf.values())];
  for (let i = 0; i < runs.length; i += 500) {
    const chunk = runs.slice(i, i + 500);
    const found = rows(
      db,
      `SELECT run_id, company_id, name, severity, check_name, subject, detail, first_seen
         FROM health_problems WHERE run_id IN (${chunk.map(() => '?').join(', ')})`,
      chunk,
    );
    for (const row of found) {
      const company = storedId(row.company_id);
      if (runOf.get(idKey(company)) !== Number(row.run_id)) continue;
      const problem: RememberedProblem = {
        company_id: company,
        name: String(row.name),
        severity: String(row.severity) as RememberedProblem['severity'],
        check: String(row.check_name),
        subject: String(row.subject),
        detail: readStored(String(row.detail)),
        first_seen: String(row.first_seen),
      };
      memory.get(idKey(company))?.problems.push(problem);
    }
  }
  return memory;
}

/** One health run: the clients it checked and their problems, each with the first_seen it was given. */
export function recordHealthRun(
  db: Database,
  agency: AgencyKey,
  run: Omit<RunInfo, 'command'>,
  checked: readonly { id: number; name: string }[],
  problems: readonly Problem[],
): number {
  const runId = insertRun(db, agency, { ...run, command: 'health' });
  const client = db.prepare(
    'INSERT OR IGNORE INTO health_clients (run_id, company_id, name) VALUES (?, ?, ?)',
  );
  const problem = db.prepare(
    'INSERT INTO health_problems (run_id, company_id, name, check_name, subject, severity, detail, first_seen) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  try {
    for (const c of checked) client.run([runId, bindable(c.id), c.name]);
    for (const p of problems)
      problem.run([
        runId,
        bindable(p.company_id),
        p.name,
        p.check,
        p.subject,
        p.severity,
        // As the command line says it (`agency campaigns resume …`): the file is read with sqlite3 too.
        forStorage(p.detail),
        p.first_seen ?? run.at,
      ]);
  } finally {
    client.free();
    problem.free();
  }
  return runId;
}

/** The counts `deliverability` stores per client: this period's and the previous one's. */
interface DeliverabilityCounts {
  company_id: number;
  name: string;
  sent: number;
  delivered: number;
  opened: number;
  replied: number;
  bounced: number;
  sent_previous: number;
  delivered_previous: number;
  opened_previous: number;
  replied_previous: number;
  bounced_previous: number;
}

const DELIVERABILITY_COUNTS = [
  'sent',
  'delivered',
  'opened',
  'replied',
  'bounced',
  'sent_previous',
  'delivered_previous',
  'opened_previous',
  'replied_previous',
  'bounced_previous',
] as const;

/** A report's count the history keeps: every one but clicks (the store's report_totals has no column for them). */
type StoredReportCount = Exclude<keyof ResultCounts, 'clicked'>;

/** The totals `report` stores per client (the billing view of `report --by client`): the report's own counts. */
export const REPORT_COUNTS: readonly ('campaigns' | StoredReportCount)[] = [
  'campaigns',
  ...COUNT_FIELDS.filter((field): field is StoredReportCount => field !== 'clicked'),
];

type ReportTotals = { company_id: number; name: string } & Record<(typeof REPORT_COUNTS)[number], number>;

/** The counts a run of `deliverability` or `report` stores per client: the table and its columns (queries.ts reads them back). */
export const STORED_COUNTS = {
  deliverability: { table: 'deliverability', counts: DELIVERABILITY_COUNTS },
  report: { table: 'report_totals', counts: REPORT_COUNTS },
} as const;

/** What each client's row of counts is, by command. */
interface StoredRows {
  deliverability: DeliverabilityCounts;
  report: ReportTotals;
}

/** A run of `deliverability` or `report`: its row in `runs`, then one row of counts per client in its table. */
export function recordCounts<K extends keyof typeof STORED_COUNTS>(
  db: Database,
  agency: AgencyKey,
  command: K,
  run: Omit<RunInfo, 'command'>,
  clients: readonly StoredRows[K][],
): number {
  const { table, counts } = STORED_COUNTS[command];
  const runId = insertRun(db, agency, { ...run, command });
  insertAll(db, table, runId, ['company_id', 'name', ...counts], clients);
  return runId;
}

function insertAll<T extends object>(
  db: Database,
  table: string,
  runId: number,
  columns: readonly string[],
  items: readonly T[],
): void {
  const statement = db.prepare(
    `INSERT OR REPLACE INTO ${table} (run_id, ${columns.join(', ')}) VALUES (?${', ?'.repeat(columns.length)})`,
  );
  try {
    for (const item of items)
      statement.run([runId, ...columns.map((c) => bindable((item as Record<string, SqlValue>)[c] ?? null))]);
  } finally {
    statement.free();
  }
}
