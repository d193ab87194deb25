/**
 * Guest invitations remembered: the service cannot list a pending invitation, so `apply` records each
 * one it sent in the history, and `plan` (and apply's own plan) shows a guest invited earlier and not
 * yet a user as "invited on <date>, not yet accepted" instead of a change. `apply --resend-invitations`
 * sends them again. Without the history (off, or unreadable) nothing is remembered: the guest is a
 * change again, as before.
 */
import type { Database } from 'sql.js';
import { idKey } from '../api/types.js';
import { forCompany } from '../fleet/names.js';
import type { Plan } from '../fleet/plan.js';
import type { Runtime } from '../runtime.js';
import { command } from '../terms.js';
import { bindable, storedId } from './ids.js';
import { type HistoryFlag, historyFor, tolerated } from './record.js';
import { type AgencyKey, agencyId, findAgency, rows } from './runs.js';

/** A guest of the file invited by an earlier apply, not visible yet among the company's users. */
export interface PendingInvitation {
  company: string;
  company_id: number;
  email: string;
  /** When apply sent it (UTC). */
  invited_at: string;
}

const keyOf = (companyId: number, email: string) => `${idKey(companyId)}\u0000${email.trim().toLowerCase()}`;

/** The invitations the store remembers for the agency, by company and address. */
function loadInvitations(db: Database, agency: AgencyKey): Map<string, string> {
  const id = findAgency(db, agency);
  if (id === undefined) return new Map();
  return new Map(
    rows(db, 'SELECT company_id, email, invited_at FROM invitations WHERE agency_id = ?', [id]).map((r) => [
      keyOf(storedId(r.company_id), String(r.email)),
      String(r.invited_at),
    ]),
  );
}

/**
 * Moves the guests of the plan that an earlier apply invited out of its changes (in place), and returns
 * them. A guest who is now a user of the company was never in the changes: accepted, nothing to say.
 */
function setAsidePending(plan: Plan, remembered: ReadonlyMap<string, string>): PendingInvitation[] {
  const pending: PendingInvitation[] = [];
  for (const planned of plan.companies) {
    const company = planned.existing;
    if (!company) continue;
    planned.missingGuests = planned.missingGuests.filter((guest) => {
      const at = remembered.get(keyOf(company.id, guest.email));
      if (at === undefined) return true;
      pending.push({ company: company.name, company_id: company.id, email: guest.email, invited_at: at });
      return false;
    });
  }
  return pending;
}

/** `= guest a@b.com for "Acme Ltd" invited on 2026-12-02, not yet accepted` */
export function describePending(p: PendingInvitation): string {
  return `= guest ${p.email} ${forCompany(p.company)} invited on ${p.invited_at.slice(0, 10)}, not yet accepted`;
}

/** Under the plan: what the "=" lines are, and how to send them again. */
export function pendingNote(count: number): string {
  const what =
    count === 1 ? '1 guest invitation sent earlier is' : `${count} guest invitations sent earlier are`;
  return `${what} not yet accepted (not a change; \`${command('apply --resend-invitations')}\` sends ${count === 1 ? 'it' : 'them'} again).`;
}

/** Records the invitations apply sent (a later one replaces an earlier one's date). */
function rememberInvitations(
  db: Database,
  agencyId: number,
  sent: readonly { company_id: number; email: string }[],
  at: string,
): void {
  const statement = db.prepare(
    'INSERT OR REPLACE INTO invitations (agency_id, company_id, email, invited_at) VALUES (?, ?, ?, ?)',
  );
  try {
    for (const s of sent) statement.run([agencyId, bindable(s.company_id), s.email.trim().toLowerCase(), at]);
  } finally {
    statement.free();
  }
}

/**
 * For plan and apply: when the file has guests and the run uses the history, the remembered
 * invitations are set aside from the plan's changes (unless `resend`); returns them, and a recorder of
 * the invitations the run then sends. The store's failures are warnings.
 */
export async function pendingInvitations(
  rt: Runtime,
  opts: HistoryFlag,
  plan: Plan,
  { resend = false }: { resend?: boolean } = {},
): Promise<{
  pending: PendingInvitation[];
  record(sent: readonly { company_id: number; email: string }[]): Promise<void>;
}> {
  const none = { pending: [], record: async () => {} };
  const file = historyFor(rt, opts);
  const wanted = plan.companies.some((c) => c.missingGuests.length > 0);
  if (file === undefined || !wanted) return none;
  const { readStore, changeStore } = await import('./store.js');
  const { currentAgency } = await import('./record.js');
  const agency = await tolerated(rt, () => currentAgency(rt));
  if (!agency) return none;
  const remembered = await tolerated(rt, () => readStore(file, (db) => loadInvitations(db, agency)));
  const pending = remembered && !resend ? setAsidePending(plan, remembered) : [];
  return {
    pending,
    async record(sent) {
      if (sent.length === 0) return;
      const at = new Date().toISOString();
      await tolerated(rt, () =>
        changeStore(file, (db) => rememberInvitations(db, agencyId(db, agency), sent, at)),
      );
    },
  };
}
