/**
 * The tables of history.db (documented for operators in docs/history.md: keep the two in step). Every
 * run belongs to an agency (the base URL and the HQ account's id, never a key); a run's rows go with it
 * when it is pruned (foreign keys with ON DELETE CASCADE).
 */
export const SCHEMA_VERSION = 1;

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS agencies (
  id INTEGER PRIMARY KEY,
  base_url TEXT NOT NULL,
  account_id TEXT NOT NULL,
  UNIQUE (base_url, account_id)
);
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY,
  agency_id INTEGER NOT NULL REFERENCES agencies (id) ON DELETE CASCADE,
  command TEXT NOT NULL,
  at TEXT NOT NULL,
  period_from TEXT NOT NULL,
  period_to TEXT NOT NULL,
  period_days INTEGER NOT NULL,
  tool_version TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_by_agency ON runs (agency_id, command, at);
CREATE TABLE IF NOT EXISTS health_clients (
  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  company_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (run_id, company_id)
);
CREATE INDEX IF NOT EXISTS health_clients_by_company ON health_clients (company_id);
CREATE TABLE IF NOT EXISTS health_problems (
  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  company_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  check_name TEXT NOT NULL,
  subject TEXT NOT NULL,
  severity TEXT NOT NULL,
  detail TEXT NOT NULL,
  first_seen TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS health_problems_by_run ON health_problems (run_id, company_id);
CREATE TABLE IF NOT EXISTS deliverability (
  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  company_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  sent INTEGER NOT NULL,
  delivered INTEGER NOT NULL,
  opened INTEGER NOT NULL,
  replied INTEGER NOT NULL,
  bounced INTEGER NOT NULL,
  sent_previous INTEGER NOT NULL,
  delivered_previous INTEGER NOT NULL,
  opened_previous INTEGER NOT NULL,
  replied_previous INTEGER NOT NULL,
  bounced_previous INTEGER NOT NULL,
  PRIMARY KEY (run_id, company_id)
);
CREATE TABLE IF NOT EXISTS report_totals (
  run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  company_id INTEGER NOT NULL,
  name TEXT NOT NULL,
  campaigns INTEGER NOT NULL,
  contacted INTEGER NOT NULL,
  delivered INTEGER NOT NULL,
  opened INTEGER NOT NULL,
  replied INTEGER NOT NULL,
  interested INTEGER NOT NULL,
  maybe_later INTEGER NOT NULL,
  not_interested INTEGER NOT NULL,
  bounced INTEGER NOT NULL,
  opt_out INTEGER NOT NULL,
  PRIMARY KEY (run_id, company_id)
);
CREATE TABLE IF NOT EXISTS invitations (
  agency_id INTEGER NOT NULL REFERENCES agencies (id) ON DELETE CASCADE,
  company_id INTEGER NOT NULL,
  email TEXT NOT NULL,
  invited_at TEXT NOT NULL,
  PRIMARY KEY (agency_id, company_id, email)
);
`;
