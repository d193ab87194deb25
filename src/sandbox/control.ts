/**
 * The control API under /_sandbox (outside /rest, never recorded or limited): what tests and the
 * bench read and arm while the sandbox runs, possibly in another process.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type FaultList, type FaultRule, validateFaultRule } from './faults.js';
import { acceptInvitations } from './resources/guests.js';
import type { Store } from './store.js';
import { readBody, send, sendError } from './wire.js';

export interface ControlTarget {
  store: Store;
  faults: FaultList;
  requests(): unknown[];
  stats(): unknown;
  reset(): void;
}

const ALLOWED: Record<string, string[]> = {
  '/requests': ['GET'],
  '/stats': ['GET'],
  '/reset': ['POST'],
  '/faults': ['GET', 'POST', 'DELETE'],
  '/state': ['GET'],
  '/guests/accept': ['POST'],
};

export async function handleControl(
  target: ControlTarget,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const method = req.method ?? 'GET';
  const text = await readBody(req);
  const route = url.pathname.slice('/_sandbox'.length);
  const methods = ALLOWED[route];
  if (!methods) return sendError(res, 404, `No sandbox control endpoint at ${url.pathname}`);
  if (!methods.includes(method)) {
    return sendError(res, 405, `${method} is not allowed on ${url.pathname}`, { allow: methods.join(', ') });
  }
  const { faults } = target;
  switch (`${method} ${route}`) {
    case 'GET /requests':
      return send(res, 200, target.requests());
    case 'GET /stats':
      return send(res, 200, target.stats());
    case 'POST /reset':
      target.reset();
      return send(res, 200, { ok: true });
    case 'GET /faults':
      return send(res, 200, { faults: faults.list() });
    case 'DELETE /faults':
      faults.clear();
      return send(res, 200, { faults: [] });
    case 'POST /faults': {
      let rules: FaultRule[];
      try {
        const parsed: unknown = JSON.parse(text);
        rules = (Array.isArray(parsed) ? parsed : [parsed]).map(validateFaultRule);
      } catch (error) {
        return sendError(res, 400, `Invalid fault rule: ${(error as Error).message}`);
      }
      for (const rule of rules) faults.add(rule);
      return send(res, 200, { faults: faults.list() });
    }
    case 'GET /state':
      return send(res, 200, stateSummary(target.store));
    case 'POST /guests/accept': {
      // Pending invitations are accepted, as if each guest had followed the e-mail's link: all, or
      // those of {"company_id": N} and/or {"email": "..."}.
      let filter: { companyId?: number; email?: string } = {};
      try {
        const parsed: unknown = text.trim() === '' ? {} : JSON.parse(text);
        filter = acceptFilter(parsed);
      } catch (error) {
        return sendError(res, 400, `Invalid body: ${(error as Error).message}`);
      }
      return send(res, 200, { accepted: acceptInvitations(target.store, filter) });
    }
  }
}

function acceptFilter(value: unknown): { companyId?: number; email?: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError('expected an object');
  }
  const { company_id: companyId, email } = value as Record<string, unknown>;
  if (companyId !== undefined && typeof companyId !== 'number')
    throw new TypeError('company_id must be a number');
  if (email !== undefined && typeof email !== 'string') throw new TypeError('email must be a string');
  return {
    ...(companyId === undefined ? {} : { companyId }),
    ...(email === undefined ? {} : { email }),
  };
}

/** What GET /_sandbox/state answers: enough for a test that runs the sandbox as a separate process. */
export function stateSummary(store: Store) {
  const owner = (id: number) => store.user(id)?.name ?? '';
  return {
    agencies: store.agencies().map((a) => ({ id: a.id, name: a.name, main: a.id === store.mainAgency.id })),
    users: store.users().map((u) => ({
      id: u.id,
      agency_id: u.agencyId,
      name: u.name,
      email: u.email,
      role: u.role,
      hq_key: u.hqKey,
    })),
    companies: store.companies().map((c) => ({
      id: c.id,
      agency_id: c.agencyId,
      name: c.name,
      active: c.active,
      owner: owner(c.ownerId),
      keys: store.keyCount(c.id),
    })),
  };
}
