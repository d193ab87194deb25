/**
 * Bulk creation without the binary: a fake agency that pages its company list, applies each creation
 * request all or nothing, and can lose an answer after doing the work (or refuse a request outright).
 */
import { describe, expect, it } from 'vitest';
import type { Company, CreatedCompany, Page } from '../../src/api/types.js';
import { ApiError, NetworkError } from '../../src/errors.js';
import {
  chunkFailure,
  createInChunks,
  LookalikeError,
  NameClashError,
  planCreation,
} from '../../src/fleet/bulk-create.js';

type Fault = 'refuse' | 'refuse-with-500' | 'lose-after-creating' | 'lose-before-creating';

class FakeAgency {
  companies: Company[] = [];
  /** Faults by creation request number (1-based). */
  faults = new Map<number, Fault>();
  listFails = false;
  readonly log: string[] = [];
  #creations = 0;

  constructor(names: string[] = []) {
    for (const name of names) this.#add(name);
  }

  async listCompaniesPage(page: number): Promise<Page<Company>> {
    this.log.push(`GET page ${page}`);
    if (this.listFails) throw new NetworkError('connection reset');
    const content = this.companies.slice((page - 1) * 50, page * 50);
    const total_pages = Math.max(1, Math.ceil(this.companies.length / 50));
    return {
      content,
      pagination_data: {
        current_page_number: page,
        total_pages,
        page_size: 50,
        total_elements: this.companies.length,
      },
    };
  }

  async createCompanies(names: readonly string[]): Promise<CreatedCompany[]> {
    const n = ++this.#creations;
    this.log.push(`POST ${names.length}`);
    const fault = this.faults.get(n);
    if (fault === 'refuse') throw new ApiError('Company name already taken', { status: 400 });
    if (fault === 'lose-before-creating') throw new NetworkError('socket hang up');
    if (fault === 'refuse-with-500') throw new ApiError('Internal server error', { status: 500 });
    const created = names.map((name) => this.#add(name));
    if (fault === 'lose-after-creating') throw new ApiError('Bad gateway', { status: 502 });
    return created.map(({ id, name, owner, active }) => ({ id, name, owner, active }));
  }

  #add(name: string): Company {
    const company = { id: 1000 + this.companies.length, name, owner: 'hq@example.com', active: true };
    this.companies.push(company);
    return company;
  }
}

const names = (n: number, prefix = 'Client') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);
const quiet = () => {
  const notes: string[] = [];
  return {
    notes,
    sink: { info: (m: string) => notes.push(m), warn: (m: string) => notes.push(`warn: ${m}`) },
  };
};

async function createAll(agency: FakeAgency, wanted: string[]) {
  const plan = await planCreation(agency, wanted);
  const { notes, sink } = quiet();
  const result = await createInChunks({ reads: agency, writes: agency }, plan, {
    signal: new AbortController().signal,
    notes: sink,
  });
  return { plan, result, notes };
}

describe('planning', () => {
  it('reads the company list first even for one name (one listing)', async () => {
    const agency = new FakeAgency(['Old 1']);
    const plan = await planCreation(agency, names(1));
    expect(plan).toEqual({ toCreate: names(1), existing: [], lookalikes: [], seenIds: new Set([1000]) });
    expect(agency.log).toEqual(['GET page 1']);
  });

  it('reads every page before more than 10 names, and finds the names that exist', async () => {
    const agency = new FakeAgency(names(60, 'Old'));
    const plan = await planCreation(agency, ['Old 55', 'New 1', ...names(10, 'Fresh')]);
    expect(agency.log).toEqual(['GET page 1', 'GET page 2']);
    expect(plan.existing.map((e) => [e.name, e.company.id])).toEqual([['Old 55', 1054]]);
    expect(plan.toCreate).toHaveLength(11);
    expect(plan.seenIds?.size).toBe(60);
  });

  it('an existing name is an exact match after trimming; a case or spacing variant is only a look-alike', async () => {
    const agency = new FakeAgency(['Acme Ltd', 'acme ltd', 'Blue  Harbor']);
    const plan = await planCreation(agency, ['acme ltd', 'ACME LTD', 'Blue Harbor', ' Acme Ltd ']);
    // The exact match's id, never a case variant's.
    expect(plan.existing.map((e) => [e.name, e.company.id])).toEqual([
      ['acme ltd', 1001],
      [' Acme Ltd ', 1000],
    ]);
    expect(plan.toCreate).toEqual(['ACME LTD', 'Blue Harbor']);
    expect(plan.lookalikes.map((l) => [l.name, l.companies.map((c) => c.id)])).toEqual([
      ['ACME LTD', [1000, 1001]],
      ['Blue Harbor', [1002]],
    ]);
  });

  it('makes a clash an error that names each existing company and sends nothing', async () => {
    const agency = new FakeAgency(['Acme Ltd']);
    const exact = await planCreation(agency, ['Acme Ltd', 'Blue']);
    const error = new NameClashError(exact.existing);
    expect(error.message).toBe('1 of the names already exists; nothing was created:\n  Acme Ltd (id 1000)');
    expect(error.exitCode).toBe(5);
  });

  it('makes a look-alike an error (exit 5) that names the existing company', async () => {
    const agency = new FakeAgency(['Acme Ltd', 'Blue Harbor']);
    const one = await planCreation(agency, ['acme ltd']);
    const error = new LookalikeError(one.lookalikes);
    expect(error.message).toBe('"acme ltd" looks like "Acme Ltd" (id 1000); nothing was created.');
    expect(error.exitCode).toBe(5);
    const two = await planCreation(agency, ['acme ltd', 'Blue  harbor']);
    expect(new LookalikeError(two.lookalikes).message).toBe(
      '2 names look like existing companies; nothing was created:\n' +
        '  "acme ltd" looks like "Acme Ltd" (id 1000)\n  "Blue  harbor" looks like "Blue Harbor" (id 1001)',
    );
  });
});

describe('sending in chunks', () => {
  it('sends 25 names as 10, 10 and 5, in order', async () => {
    const agency = new FakeAgency();
    const { result } = await createAll(agency, names(25));
    expect(agency.log).toEqual(['GET page 1', 'POST 10', 'POST 10', 'POST 5']);
    expect(result.failure).toBeUndefined();
    expect(result.created.map((c) => c.name)).toEqual(names(25));
  });

  it('stops at a refused chunk and reports exactly what was and was not created', async () => {
    const agency = new FakeAgency();
    agency.faults.set(2, 'refuse');
    const { result } = await createAll(agency, names(25));
    expect(agency.log).toEqual(['GET page 1', 'POST 10', 'POST 10']);
    expect(result.created).toHaveLength(10);
    const failure = result.failure;
    expect(failure?.index).toBe(1);
    const error = chunkFailure(result, 25);
    expect(error.message).toMatch(/^Request 2 of 3 failed: Company name already taken\n {2}Created 10 of 25/);
    expect(error.message).toContain('Not created (15):');
    expect(error.exitCode).toBe(1);
    expect(error.status).toBe(400);
  });

  it('passes the service error through when the only request was refused', async () => {
    const agency = new FakeAgency();
    agency.faults.set(1, 'refuse');
    const { result } = await createAll(agency, names(3));
    const error = chunkFailure(result, 3);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('Company name already taken');
  });
});

describe('an answer that was lost', () => {
  it('counts a whole chunk found afterwards as created, and goes on', async () => {
    const agency = new FakeAgency();
    agency.faults.set(2, 'lose-after-creating');
    const { result, notes } = await createAll(agency, names(25));
    expect(agency.log).toEqual(['GET page 1', 'POST 10', 'POST 10', 'GET page 1', 'POST 5']);
    expect(result.failure).toBeUndefined();
    expect(result.created.map((c) => c.name)).toEqual(names(25));
    expect(notes.at(-1)).toMatch(/^warn: The answer to request 2 of 3 was lost \(Bad gateway\)/);
  });

  it('a small chunk whose answer was lost before anything was made: none counted, the rest not created', async () => {
    const agency = new FakeAgency(['Client 2']);
    agency.faults.set(1, 'lose-before-creating');
    const { result } = await createAll(agency, ['Client 1', 'Client 3']);
    expect(agency.log).toEqual(['GET page 1', 'POST 2', 'GET page 1']);
    expect(result.created).toEqual([]);
    expect(result.failure?.unknown).toEqual([]);
    expect(chunkFailure(result, 2).message).toContain('Not created (2):');
  });

  it('a small chunk created but whose answer was lost is created: the list read first tells', async () => {
    const agency = new FakeAgency();
    agency.faults.set(1, 'lose-after-creating');
    const { result } = await createAll(agency, names(3));
    expect(agency.log).toEqual(['GET page 1', 'POST 3', 'GET page 1']);
    expect(result.failure).toBeUndefined();
    expect(result.created.map((c) => c.name)).toEqual(names(3));
  });

  it('with the list read first, a company that existed before is never counted as created', async () => {
    const agency = new FakeAgency(['Client 12']);
    agency.faults.set(2, 'refuse-with-500');
    // 12 names (one exists, so --skip-existing): the list was read first; the 2nd request fails with 500.
    const plan = await planCreation(agency, names(12));
    plan.toCreate.push('Client 12'); // as if it had not been seen: it must still not count
    const result = await createInChunks({ reads: agency, writes: agency }, plan, {
      signal: new AbortController().signal,
      notes: quiet().sink,
    });
    expect(result.created.map((c) => c.name)).toEqual(names(10));
    expect(result.failure?.unknown).toEqual([]);
  });

  it('reports the chunk as unknown when the check itself fails', async () => {
    const agency = new FakeAgency();
    agency.faults.set(1, 'lose-before-creating');
    const plan = await planCreation(agency, names(2));
    agency.listFails = true;
    const { notes, sink } = quiet();
    const result = await createInChunks({ reads: agency, writes: agency }, plan, {
      signal: new AbortController().signal,
      notes: sink,
    });
    expect(result.failure?.unknown).toEqual(names(2));
    expect(notes).toContain('warn: The check failed: connection reset');
    const error = chunkFailure(result, 2);
    expect(error.message).toContain('Unknown whether created (2)');
  });

  it('starts no request after Ctrl-C', async () => {
    const agency = new FakeAgency();
    const plan = await planCreation(agency, names(15));
    const interrupt = new AbortController();
    interrupt.abort();
    const result = await createInChunks({ reads: agency, writes: agency }, plan, {
      signal: interrupt.signal,
      notes: quiet().sink,
    });
    expect(agency.log).toEqual(['GET page 1']);
    expect(chunkFailure(result, 15).message).toMatch(/^Interrupted\. Created 0 of 15/);
  });
});
