/**
 * Fleet operations against the sandbox: bulk `companies create` (checked chunks of 10, --skip-existing,
 * --dry-run, --with-keys, failures mid-way, lost answers, Ctrl-C) and `keys create` for many companies.
 * What the tool printed is always compared with what the sandbox holds afterwards.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../src/sandbox/index.js';
import { FOREIGN_AGENCY_ID, MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { type Harness, jsonError, spawnAgency as spawnHarnessAgency, startHarness } from '../helpers/cli.js';

/** The program runs in this process (test/helpers/in-process.ts); spawn() still starts the binary. */
const IN_PROCESS = { inProcess: true };

const COMPANIES = '/rest/v2/agency/companies';
const OLIVIA = 1;

let h: Harness;
let scratch: string;
beforeAll(async () => {
  // 51 companies: two pages of the company list, which a bulk create reads to the end before any POST.
  h = await startHarness({ seed: { companies: 51 } }, IN_PROCESS);
  scratch = mkdtempSync(join(tmpdir(), 'agency-fleet-'));
});
afterAll(async () => {
  await h.close();
  rmSync(scratch, { recursive: true, force: true });
});
beforeEach(() => {
  h.sandbox.reset();
  h.sandbox.store.onChange = undefined;
});

let fileCount = 0;
function writeLines(lines: string[]): string {
  const path = join(scratch, `input-${++fileCount}.txt`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

function names(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix} ${String(i + 1).padStart(2, '0')}`);
}

function createPosts(): RecordedRequest[] {
  return h.requests().filter((r) => r.method === 'POST' && r.path === COMPANIES);
}

function postedNames(request: RecordedRequest | undefined): string[] {
  const body = request?.body as { companies?: { name: string }[] } | undefined;
  return (body?.companies ?? []).map((c) => c.name);
}

/** Companies of the main agency that carry one of these names, as the server holds them. */
function held(wanted: readonly string[]) {
  const set = new Set(wanted);
  return h.sandbox.store.companies(MAIN_AGENCY_ID).filter((c) => set.has(c.name));
}

/** Piped output of companies create: id, name, owner, active (and the key with --with-keys). */
function rows(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t'));
}

/** Runs the sandbox's hook once, inside the processing of the first creation request. */
function afterFirstCreation(action: () => void): void {
  h.sandbox.store.onChange = () => {
    h.sandbox.store.onChange = undefined;
    action();
  };
}

describe('companies create in bulk', () => {
  it('creates the 25 names of a file with 3 requests of 10, 10 and 5, in order, after checking every page', async () => {
    const wanted = names('Bulk File', 25);
    // Comments, blank lines and surrounding whitespace are not names.
    const file = writeLines([
      '# clients for Q3',
      '',
      ...wanted.map((n, i) => (i === 3 ? `  ${n}\t` : n)),
      '   ',
    ]);
    const pages = Math.ceil(h.sandbox.store.companies(MAIN_AGENCY_ID).length / 50);

    const r = await h.run(['companies', 'create', '--file', file]);

    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    const posts = createPosts();
    expect(posts.map(postedNames)).toEqual([wanted.slice(0, 10), wanted.slice(10, 20), wanted.slice(20)]);
    // The check read every page of the company list before the first POST.
    const firstPost = h.requests().indexOf(posts[0] as RecordedRequest);
    const listed = h
      .requests()
      .slice(0, firstPost)
      .filter((q) => q.method === 'GET' && q.path === COMPANIES)
      .map((q) => q.query.page);
    expect(listed.sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: pages }, (_, i) => String(i + 1)),
    );

    const server = held(wanted);
    expect(server).toHaveLength(25);
    expect(h.sandbox.stats().createdCompanies).toBe(25);
    const out = rows(r.stdout);
    expect(out.map((row) => row[1])).toEqual(wanted);
    expect(out.map((row) => Number(row[0]))).toEqual(
      wanted.map((n) => h.sandbox.store.findCompanyByName(n)?.id),
    );
    expect(out.every((row) => row[2] === 'Olivia Owner' && row[3] === 'true')).toBe(true);
  });

  it('takes names from --name and from stdin together, and prints the created companies as JSON', async () => {
    const fromFlags = names('Bulk Mixed Flag', 2);
    const fromStdin = names('Bulk Mixed Stdin', 10);

    const r = await h.run(
      ['companies', 'create', '--json', ...fromFlags.flatMap((n) => ['--name', n]), '--file', '-'],
      { input: fromStdin.join('\n') },
    );

    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout) as { id: number; name: string; owner: string; active: boolean }[];
    expect(created.map((c) => c.name)).toEqual([...fromFlags, ...fromStdin]);
    expect(created.map((c) => c.id).sort()).toEqual(held([...fromFlags, ...fromStdin]).map((c) => c.id));
    expect(createPosts().map((p) => postedNames(p).length)).toEqual([10, 2]);
  });

  it('refuses the whole run when one of more than 10 names exists already: nothing is created', async () => {
    const existing = h.sandbox.store.companies(MAIN_AGENCY_ID)[7];
    const wanted = names('Bulk Clash', 14);
    wanted.splice(11, 0, existing?.name as string);

    const r = await h.run(['companies', 'create', '--file', writeLines(wanted)]);

    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    // One name per line.
    expect(r.stderr).toContain(`\n  ${existing?.name} (id ${existing?.id})\n`);
    expect(r.stderr).toContain('nothing was created');
    expect(r.stderr).toContain('--skip-existing');
    expect(createPosts()).toHaveLength(0);
    expect(held(wanted)).toEqual([existing]);
  });

  it('reports local problems of the names before sending anything (exit 2)', async () => {
    const wanted = [...names('Bulk Invalid', 11), 'Bulk Invalid 03'];

    const r = await h.run(['companies', 'create', '--name', '  ', '--file', writeLines(wanted)]);

    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Empty company name');
    expect(r.stderr).toMatch(/Duplicate company name: "Bulk Invalid 03".*line 3.*line 12/);
    expect(h.requests()).toHaveLength(0);
  });

  it('--skip-existing creates only the missing names, and a second run creates nothing and exits 0', async () => {
    const seeded = h.sandbox.store.companies(MAIN_AGENCY_ID).slice(20, 23);
    const fresh = names('Bulk Skip', 12);
    const wanted = [
      fresh[0],
      seeded[0]?.name,
      ...fresh.slice(1, 6),
      seeded[1]?.name,
      ...fresh.slice(6),
      seeded[2]?.name,
    ];
    const file = writeLines(wanted as string[]);

    const first = await h.run(['companies', 'create', '--file', file, '--skip-existing']);

    expect(first.code).toBe(0);
    // The existing companies first (known before any request), then the created ones.
    expect(rows(first.stdout).map((row) => [row[1], row.at(-1)])).toEqual([
      ...seeded.map((c) => [c.name, 'exists']),
      ...fresh.map((name) => [name, 'created']),
    ]);
    for (const company of seeded) expect(first.stderr).toContain(`\n  ${company.name} (id ${company.id})\n`);
    expect(createPosts().map(postedNames)).toEqual([fresh.slice(0, 10), fresh.slice(10)]);

    h.sandbox.reset();
    const second = await h.run(['companies', 'create', '--file', file, '--skip-existing', '--json']);

    expect(second.code).toBe(0);
    // Every name's company, each marked exists: a re-run script gets every id.
    const again = JSON.parse(second.stdout) as { id: number; name: string; result: string }[];
    expect(again.map((c) => c.name).sort()).toEqual([...(wanted as string[])].sort());
    expect(again.every((c) => c.result === 'exists')).toBe(true);
    expect(again.map((c) => c.id).sort()).toEqual(
      held(wanted as string[])
        .map((c) => c.id)
        .sort(),
    );
    expect(second.stderr).toContain('Nothing to create');
    expect(createPosts()).toHaveLength(0);
    // Every name is on the server exactly once.
    expect(held(wanted as string[])).toHaveLength(15);
  });

  it('--dry-run shows the plan and sends no POST', async () => {
    const seeded = h.sandbox.store.companies(MAIN_AGENCY_ID).slice(30, 32);
    const fresh = names('Bulk Dry', 21);
    const wanted = [...fresh, ...seeded.map((c) => c.name)];
    const file = writeLines(wanted);

    const json = await h.run([
      'companies',
      'create',
      '--file',
      file,
      '--dry-run',
      '--skip-existing',
      '--json',
    ]);

    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      dry_run: true,
      refused: false,
      requests: 3,
      to_create: fresh,
      existing: seeded.map((c) => ({ name: c.name, id: c.id })),
      lookalikes: [],
    });
    expect(json.stderr).toContain('Nothing was sent');

    // Without --skip-existing the plan says that the real run would be refused.
    const piped = await h.run(['companies', 'create', '--file', file, '--dry-run']);

    expect(piped.code).toBe(0);
    expect(rows(piped.stdout).map((row) => row.slice(0, 2))).toEqual([
      ...fresh.map((n) => ['create', n]),
      ...seeded.map((c) => ['exists', c.name]),
    ]);
    expect(piped.stderr).toContain('the real run would be refused');
    expect(h.requests().filter((q) => q.method !== 'GET')).toHaveLength(0);
    expect(held(fresh)).toHaveLength(0);
  });

  it("--with-keys adds each new company's automatic key, the one the server holds", async () => {
    const wanted = names('Bulk Keys', 12);

    const r = await h.run(['companies', 'create', '--file', writeLines(wanted), '--with-keys', '--json']);

    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout) as { id: number; name: string; api_key: string }[];
    expect(created.map((c) => c.name)).toEqual(wanted);
    for (const company of created) {
      const keys = h.sandbox.store.keysOf(company.id, OLIVIA);
      expect(keys).toHaveLength(1);
      expect(company.api_key).toBe(keys[0]?.key);
    }
    // Keys were read from the key lists, with the HQ key, one company after another.
    const keyReads = h.requests().filter((q) => q.method === 'GET' && q.path.endsWith('/api_keys'));
    expect(keyReads.map((q) => q.path)).toEqual(created.map((c) => `${COMPANIES}/${c.id}/api_keys`));

    // Piped, the key is the last column.
    const piped = await h.run(['companies', 'create', '--name', 'Bulk Keys Piped', '--with-keys']);
    const [row] = rows(piped.stdout);
    expect(row?.[4]).toBe(h.sandbox.store.keysOf(Number(row?.[0]), OLIVIA)[0]?.key);
  });
});

describe('companies create when a chunk fails mid-way', () => {
  it('a 500 on the second request: stdout holds exactly what the server created, stderr names the rest', async () => {
    const wanted = names('Midway Fail', 25);
    afterFirstCreation(() =>
      h.sandbox.addFault({
        method: 'POST',
        path: '/v2/agency/companies',
        kind: 'status',
        status: 500,
        times: 1,
      }),
    );

    const r = await h.run(['companies', 'create', '--file', writeLines(wanted)]);

    expect(r.code).toBe(1);
    const server = held(wanted);
    expect(server.map((c) => c.name)).toEqual(wanted.slice(0, 10));
    expect(rows(r.stdout).map((row) => Number(row[0]))).toEqual(server.map((c) => c.id));
    expect(r.stderr).toContain('Request 2 of 3 failed');
    expect(r.stderr).toContain('500');
    expect(r.stderr).toContain('Created 10 of 25');
    expect(r.stderr).toContain('Not created (15):');
    for (const name of wanted.slice(10)) expect(r.stderr).toContain(`    ${name}\n`);
    expect(r.stderr).toContain('--skip-existing');
    // A POST is not retried after a 500, and the third chunk is never sent.
    expect(createPosts()).toHaveLength(2);
    expect(h.sandbox.stats().createdCompanies).toBe(10);
  });

  it('a name taken by someone else between the check and its chunk: --json prints the created ones, the error on stderr', async () => {
    const wanted = names('Midway Clash', 25);
    const store = h.sandbox.store;
    // Tom creates one of our chunk-2 names while the run is going on.
    afterFirstCreation(() =>
      store.createCompanies(
        { level: 'hq', account: 'hq:1', agency: store.mainAgency, user: store.user(2) as never },
        { companies: [{ name: wanted[14] }] },
      ),
    );

    const r = await h.run(['companies', 'create', '--file', writeLines(wanted), '--json']);

    expect(r.code).toBe(1);
    const ours = held(wanted).filter((c) => c.ownerId === OLIVIA);
    expect(ours.map((c) => c.name)).toEqual(wanted.slice(0, 10));
    const printed = JSON.parse(r.stdout) as { id: number; name: string }[];
    expect(printed.map((c) => c.id)).toEqual(ours.map((c) => c.id));
    const { error } = jsonError(r.stderr);
    expect(error.status).toBe(400);
    expect(error.detail).toContain(wanted[14]);
    expect(error.message).toContain('Not created (15):');
    for (const name of wanted.slice(10)) expect(error.message).toContain(name);
    expect(createPosts()).toHaveLength(2);
  });

  it('a lost answer (connection reset after processing) is checked, counted as created, and never re-sent', async () => {
    const wanted = names('Midway Lost', 25);
    afterFirstCreation(() =>
      h.sandbox.addFault({ method: 'POST', path: '/v2/agency/companies', kind: 'reset-after' }),
    );

    const r = await h.run(['companies', 'create', '--file', writeLines(wanted)]);

    expect(r.code).toBe(0);
    const server = held(wanted);
    expect(server).toHaveLength(25);
    expect(rows(r.stdout).map((row) => Number(row[0]))).toEqual(server.map((c) => c.id));
    expect(r.stderr).toMatch(/answer to request 2 of 3 was lost/);
    const posts = createPosts();
    expect(posts.map(postedNames)).toEqual([wanted.slice(0, 10), wanted.slice(10, 20), wanted.slice(20)]);
    expect(posts[1]?.fault).toBe('reset-after');
    expect(h.sandbox.stats().createdCompanies).toBe(25);
  });

  it('a lost request (connection reset before processing) is checked and reported as not created', async () => {
    const wanted = names('Midway Reset', 25);
    afterFirstCreation(() =>
      h.sandbox.addFault({ method: 'POST', path: '/v2/agency/companies', kind: 'reset-before' }),
    );

    const r = await h.run(['companies', 'create', '--file', writeLines(wanted)]);

    expect(r.code).toBe(1);
    const server = held(wanted);
    expect(server.map((c) => c.name)).toEqual(wanted.slice(0, 10));
    expect(rows(r.stdout).map((row) => Number(row[0]))).toEqual(server.map((c) => c.id));
    expect(r.stderr).toContain('Not created (15):');
    for (const name of wanted.slice(10)) expect(r.stderr).toContain(`    ${name}\n`);
    expect(createPosts()).toHaveLength(2);
  });
});

describe('companies create interrupted', () => {
  let slow: Harness;
  beforeAll(async () => {
    // Each request takes long enough for Ctrl-C to land while the first POST is being processed.
    slow = await startHarness({ seed: { companies: 10 }, latencyMs: 400 }, IN_PROCESS);
  });
  afterAll(() => slow.close());
  beforeEach(() => slow.sandbox.reset());

  it('Ctrl-C during a POST: exit 130, and the report matches what the server holds', async () => {
    const wanted = names('Interrupted', 35);
    const file = join(scratch, 'interrupted.txt');
    writeFileSync(file, wanted.join('\n'));

    const child = spawnAgency(['companies', 'create', '--file', file], slow.configDir);
    // Once the body is in, the server goes on to create the companies whatever the client does.
    await until(() => slow.requests().some((q) => q.method === 'POST' && q.body !== undefined), child);
    child.kill('SIGINT');
    const r = await child.result;
    // Compare with the server only once it has finished whatever it received.
    await until(() => slow.requests().every((q) => q.status !== 0));

    expect(r.code).toBe(130);
    const set = new Set(wanted);
    const server = slow.sandbox.store.companies(MAIN_AGENCY_ID).filter((c) => set.has(c.name));
    // The POST in flight was let finish, and no other one started.
    expect(server.length).toBeGreaterThanOrEqual(10);
    expect(server.length).toBeLessThan(35);
    expect(slow.requests().filter((q) => q.method === 'POST')).toHaveLength(server.length / 10);
    expect(rows(r.stdout).map((row) => Number(row[0]))).toEqual(server.map((c) => c.id));
    expect(r.stderr).toContain('Interrupted');
    expect(r.stderr).toContain(`Not created (${35 - server.length}):`);
    for (const name of wanted.slice(server.length)) expect(r.stderr).toContain(`    ${name}\n`);
  });

  it('Ctrl-C during keys create: exit 130, and every key the server made is on stdout', async () => {
    const ids = slow.sandbox.store.companies(MAIN_AGENCY_ID).map((c) => c.id);

    const child = spawnAgency(
      ['keys', 'create', '--label', 'interrupted', ...ids.map(String)],
      slow.configDir,
    );
    await until(() => slow.requests().some((q) => q.method === 'POST' && q.body !== undefined), child);
    child.kill('SIGINT');
    const r = await child.result;
    await until(() => slow.requests().every((q) => q.status !== 0));

    expect(r.code).toBe(130);
    const made = ids.flatMap((id) =>
      slow.sandbox.store
        .keysOf(id, OLIVIA)
        .filter((k) => k.label === 'interrupted')
        .map((k) => [String(id), k.key]),
    );
    expect(made.length).toBeGreaterThanOrEqual(1);
    expect(made.length).toBeLessThan(ids.length);
    expect(rows(r.stdout)).toEqual(made);
    expect(r.stderr).toContain(`Interrupted after creating ${made.length} of ${ids.length} keys`);
  });
});

describe('keys create for many companies', () => {
  const mainIds = () => h.sandbox.store.companies(MAIN_AGENCY_ID).map((c) => c.id);

  it('creates one key for each of 12 companies in one process, as a JSON array', async () => {
    const ids = mainIds().slice(0, 12);

    const r = await h.run(['keys', 'create', '--label', 'fleet-json', '--json', ...ids.map(String)]);

    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout) as { company_id: number; label: string; api_key: string }[];
    expect(created.map((k) => k.company_id)).toEqual(ids);
    for (const key of created) {
      expect(key.label).toBe('fleet-json');
      const onServer = h.sandbox.store.keysOf(key.company_id, OLIVIA).filter((k) => k.label === 'fleet-json');
      expect(onServer.map((k) => k.key)).toEqual([key.api_key]);
    }
    const posts = h.requests().filter((q) => q.method === 'POST');
    expect(posts.map((q) => q.path)).toEqual(ids.map((id) => `${COMPANIES}/${id}/api_keys`));
    expect(posts.every((q) => q.headers['x-company-id'] === undefined)).toBe(true);
    expect(h.sandbox.stats().createdKeys).toBe(12);
  });

  it('a failure for one company does not stop the others; stderr names the failed ones, exit non-zero', async () => {
    const good = mainIds().slice(12, 22);
    const foreign = h.sandbox.store.companies(FOREIGN_AGENCY_ID)[0]?.id as number;
    const missing = Math.max(...h.sandbox.store.companies().map((c) => c.id)) + 1000;
    const ids = [...good.slice(0, 2), foreign, ...good.slice(2, 8), missing, ...good.slice(8)];
    // The piped output of `companies list` works as the file: the first column is the id.
    const file = writeLines(['# from companies list', ...ids.map((id) => `${id}\tsome name\tOlivia Owner`)]);

    const r = await h.run(['keys', 'create', '--label', 'fleet-tsv', '--file', file]);

    expect(r.code).toBe(4);
    const lines = rows(r.stdout);
    expect(lines.map((line) => Number(line[0]))).toEqual(good);
    for (const [id, key] of lines) {
      const onServer = h.sandbox.store.keysOf(Number(id), OLIVIA).filter((k) => k.label === 'fleet-tsv');
      expect(onServer.map((k) => k.key)).toEqual([key]);
    }
    expect(r.stderr).toContain(`company ${foreign}:`);
    expect(r.stderr).toContain(`company ${missing}:`);
    expect(r.stderr).toContain(`Created 10 of 12 keys; failed for 2: ${foreign} (404), ${missing} (404).`);
    // Every company was tried, in order: its keys read first (a 404 there sends no POST).
    const read = h.requests().filter((q) => q.method === 'GET');
    expect(read.map((q) => q.path)).toEqual(ids.map((id) => `${COMPANIES}/${id}/api_keys`));
    const posted = h.requests().filter((q) => q.method === 'POST');
    expect(posted.map((q) => q.path)).toEqual(good.map((id) => `${COMPANIES}/${id}/api_keys`));
    expect(h.sandbox.stats().createdKeys).toBe(10);
  });

  it('refuses a bad id in the file before sending anything (exit 2)', async () => {
    const [a, b] = mainIds();
    const file = writeLines([String(a), '0', String(b)]);

    const r = await h.run(['keys', 'create', '--label', 'fleet-bad', '--file', file]);

    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"0"');
    expect(r.stderr).toContain('line 2');
    expect(r.stdout).toBe('');
    expect(h.requests()).toHaveLength(0);
  });

  it('refuses a company given twice before sending anything (exit 2)', async () => {
    const [a, b] = mainIds();
    const file = writeLines([String(b), String(a)]);

    const r = await h.run(['keys', 'create', String(a), '--label', 'fleet-dup', '--file', file]);

    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Company ${a} is given twice`);
    expect(r.stdout).toBe('');
    expect(h.requests()).toHaveLength(0);
  });
});

/** The harness's spawn, with the handles these tests use to signal the process while it runs. */
function spawnAgency(args: string[], configDir: string) {
  const { child, result } = spawnHarnessAgency(args, { configDir });
  return {
    kill: (signal: NodeJS.Signals) => child.kill(signal),
    result,
    exited: () => child.exitCode !== null,
  };
}

async function until(
  condition: () => boolean,
  child?: { exited(): boolean },
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (child?.exited()) throw new Error('the command ended before the condition was met');
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
