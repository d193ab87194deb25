/**
 * Issue 14, items 6–10 and 12, and issue 9, items 8 and 9: messages that fit a screen, hints that are
 * right, `api -H/-i/--paginate`, `companies view` and `--search`, completion that stops, and a config
 * file that neither blocks a run that does not need it nor stays readable by others.
 */
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN_AGENCY_ID } from '../../src/sandbox/index.js';
import { type AgencyTerminals, startAgencyTerminals } from '../helpers/agency-terminals.js';
import { CANARY_KEY, type Harness, jsonError, startHarness, writeConfig } from '../helpers/cli.js';
import { activeCompany, lines, sent, teammate } from '../helpers/core.js';
import { refusedPort } from '../helpers/refused-port.js';
import { TMUX_MISSING } from '../helpers/tmux.js';

let h: Harness;
let terminals: AgencyTerminals;
let tmp: string;

beforeAll(async () => {
  // 35 companies, not 120: more than the 30 names the refusals below repeat, and more than 20 that Tom
  // cannot read (23: the summary's id line is capped at 20, then "and N more").
  h = await startHarness({ seed: { companies: 35 } }, { inProcess: true });
  terminals = await startAgencyTerminals(h.configDir, [100], 40);
  tmp = terminals.tmp;
});
afterAll(async () => {
  await terminals?.close();
  await h?.close();
});

const companies = () => h.sandbox.store.companies(MAIN_AGENCY_ID);

function namesFile(names: readonly string[]): string {
  const file = join(tmp, `names-${names.length}-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(file, `${names.join('\n')}\n`);
  return file;
}

describe('bulk messages that fit a screen', () => {
  it('a refusal lists at most 20 existing names, one per line, then "and N more"; --json has all', async () => {
    const existing = companies()
      .slice(0, 30)
      .map((c) => c.name);
    const file = namesFile([...existing, 'Brand New Co One']);
    const r = await h.run(['companies', 'create', '--file', file]);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    const errorLines = lines(r.stderr);
    expect(errorLines[0]).toMatch(/^error: 30 of the names already exist; nothing was created:$/);
    for (const name of existing.slice(0, 20)) expect(r.stderr).toContain(`\n  ${name} (id `);
    expect(r.stderr).not.toContain(existing[25] as string);
    expect(r.stderr).toContain('\n  and 10 more\n');
    for (const line of errorLines) expect(line.length).toBeLessThan(100);
    const json = await h.run(['companies', 'create', '--file', file, '--json']);
    const error = jsonError(json.stderr).error;
    for (const name of existing) expect(error.message).toContain(name);
    expect(sent(h.sandbox).filter((q) => q.method === 'POST')).toEqual([]);
  });

  it('--dry-run says in words that the real run would be refused, and agrees in number', async () => {
    const existing = companies()
      .slice(0, 25)
      .map((c) => c.name);
    const many = await h.run([
      'companies',
      'create',
      '--dry-run',
      '--file',
      namesFile([...existing, 'Dry Run New A', 'Dry Run New B']),
    ]);
    expect(many.code).toBe(0);
    expect(many.stderr).toContain('the real run would be refused: 25 names exist; add --skip-existing');
    const one = await h.run(['companies', 'create', '--dry-run', '--name', existing[0] as string]);
    expect(one.stderr).toContain('the real run would be refused: 1 name exists; add --skip-existing.');
    const skipping = await h.run([
      'companies',
      'create',
      '--dry-run',
      '--skip-existing',
      '--name',
      existing[0] as string,
      '--name',
      'Dry Run New C',
    ]);
    expect(skipping.stderr).toContain('would create 1 in 1 request; 1 exists already.');
    for (const r of [one, skipping]) expect(r.stderr).not.toMatch(/\b1 exist\b|\b1 names\b/);
  });

  it('--skip-existing lists the skipped names one per line, capped', async () => {
    const existing = companies()
      .slice(0, 30)
      .map((c) => c.name);
    const r = await h.run([
      'companies',
      'create',
      '--skip-existing',
      '--dry-run',
      '--file',
      namesFile(existing),
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').every((line) => line.length < 120)).toBe(true);
  });

  it('a fleet summary groups failures by reason', async () => {
    const tom = teammate(h.sandbox);
    const r = await h.run(['inventory'], { env: { AGENCY_API_KEY: tom.hqKey } });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/^\s*\d+ failed: 403 .*— no access to these companies$/m);
    const idLine = r.stderr.split('\n').find((line) => /^\s+companies \d+, \d+/.test(line)) ?? '';
    expect(idLine.split(',').length).toBeLessThanOrEqual(21);
    expect(idLine).toMatch(/and \d+ more$/);
  });
});

describe('hints that are right', () => {
  it('a stopped sandbox: "is the sandbox running? Run `agency sandbox` …"', async () => {
    const port = await refusedPort();
    const dir = join(tmp, 'stopped');
    writeConfig(dir, {
      current: 'sandbox',
      profiles: { sandbox: { api_key: CANARY_KEY, base_url: `http://127.0.0.1:${port}/rest` } },
    });
    const r = await h.run(['me'], { env: { AGENCY_CONFIG_DIR: dir } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('is the sandbox running? Run `agency sandbox` in another terminal');
    expect(r.stderr).toContain(`The "sandbox" profile points at http://127.0.0.1:${port}/rest`);
  });

  it('a stopped server named by --base-url or AGENCY_BASE_URL: the hint blames that, not the profile', async () => {
    const port = await refusedPort();
    const url = `http://127.0.0.1:${port}/rest`;
    // The current profile points at the running sandbox; the flag and the variable point elsewhere. Both
    // at once: each spends its seconds retrying the refused connection.
    const [byFlag, byEnv] = await Promise.all([
      h.run(['--base-url', url, 'me']),
      h.run(['me'], { env: { AGENCY_BASE_URL: url } }),
    ]);
    expect(byFlag.code).toBe(1);
    expect(byFlag.stderr).toContain(`--base-url points at ${url}: is the sandbox running?`);
    expect(byFlag.stderr).not.toContain('profile');
    expect(byEnv.code).toBe(1);
    expect(byEnv.stderr).toContain(`AGENCY_BASE_URL points at ${url}:`);
    expect(byEnv.stderr).not.toContain('profile');
  });

  it('an answer that is not the API: the hint names the base URL and where it was set', async () => {
    const server = createHttpServer((_, res) => res.writeHead(200).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const r = await h.run(['me'], { env: { AGENCY_BASE_URL: `http://127.0.0.1:${port}/rest` } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `the base URL (http://127.0.0.1:${port}/rest, from AGENCY_BASE_URL) points at the agency API`,
      );
    } finally {
      server.close();
    }
  });

  it('a bad AGENCY_TIMEOUT names the variable and the real range', async () => {
    h.sandbox.reset();
    const r = await h.run(['me'], { env: { AGENCY_TIMEOUT: '0' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('AGENCY_TIMEOUT');
    expect(r.stderr).toMatch(/more than 0 and at most 3600/);
    expect(sent(h.sandbox)).toEqual([]);
  });

  it('`profiles remove` does not claim to remove a key the profile did not have', async () => {
    const dir = join(tmp, 'nokey');
    writeConfig(dir, {
      current: 'a',
      profiles: {
        a: { api_key: CANARY_KEY, base_url: h.sandbox.baseUrl },
        keyless: { base_url: h.sandbox.baseUrl },
      },
    });
    const r = await h.run(['profiles', 'remove', 'keyless', '--yes'], { env: { AGENCY_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('✓ Removed profile "keyless".\n');
  });

  it.skipIf(Boolean(TMUX_MISSING))('`--file -` on a terminal says it reads names until Ctrl-D', async () => {
    const t = terminals.at(100);
    await t.clear();
    t.type('agency companies create --file - --dry-run; echo "[exit $?]"');
    try {
      await t.waitFor((s) => s.includes('Ctrl-D'), { timeoutMs: 5000 });
    } finally {
      // Ends the command either way, so that a failure here leaves the terminal usable.
      t.type('Ctrl D Test Co');
      t.key('C-d');
    }
    const screen = await t.waitFor((s) => /\[exit \d+\]/.test(s), { history: true });
    expect(screen).toContain('[exit 0]');
    expect(screen).toMatch(/create +Ctrl D Test Co/);
  });

  it.skipIf(Boolean(TMUX_MISSING))(
    'an empty key at the hidden prompt does not say to use a terminal',
    async () => {
      const t = terminals.at(100);
      await t.clear();
      t.type(`agency login --profile empty-key --base-url ${h.sandbox.baseUrl}; echo "[exit $?]"`);
      await t.waitFor((s) => s.includes('typing is hidden'));
      t.key('Enter');
      const screen = await t.waitFor((s) => /\[exit \d+\]/.test(s), { history: true });
      expect(screen).toContain('[exit 2]');
      expect(screen).toContain('No API key was given.');
      expect(screen).not.toMatch(/in a terminal/);
    },
  );
});

describe('api as gh api users expect', () => {
  it('-H adds a header; x-api-key cannot be set', async () => {
    h.sandbox.reset();
    const r = await h.run(['api', '/v1/me', '-H', 'X-Trace-Id: abc123']);
    expect(r.code).toBe(0);
    expect(sent(h.sandbox)[0]?.headers['x-trace-id']).toBe('abc123');
    h.sandbox.reset();
    const refused = await h.run(['api', '/v1/me', '-H', 'X-Api-Key: other']);
    expect(refused.code).toBe(2);
    expect(sent(h.sandbox)).toEqual([]);
    const malformed = await h.run(['api', '/v1/me', '-H', 'no colon']);
    expect(malformed.code).toBe(2);
  });

  it('-i prints the status line and headers before the body, key never shown', async () => {
    const r = await h.run(['api', '/v1/me', '-i']);
    expect(r.code).toBe(0);
    const [head, body] = r.stdout.split(/\r?\n\r?\n/, 2);
    expect(head).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(head?.toLowerCase()).toContain('content-type: application/json');
    expect(JSON.parse(body ?? '')).toHaveProperty('id');
    expect(r.stdout).not.toContain(CANARY_KEY);
  });

  it('--paginate on an answer without pages prints it as it is', async () => {
    const plain = await h.run(['api', '/v1/me']);
    const paged = await h.run(['api', '/v1/me', '--paginate']);
    expect(paged.code).toBe(0);
    expect(paged.stdout).toBe(plain.stdout);
  });
});

describe('companies at a glance', () => {
  it('`companies view <id>` and `<exact name>` print one record', async () => {
    const company = activeCompany(h.sandbox);
    for (const ref of [String(company.id), company.name]) {
      const r = await h.run(['companies', 'view', ref, '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ id: company.id, name: company.name });
    }
    const tsv = await h.run(['companies', 'view', String(company.id)]);
    expect(tsv.stdout).toContain(`name\t${company.name}\n`);
    const unknown = await h.run(['companies', 'view', 'No Such Company Anywhere']);
    expect(unknown.code).toBe(4);
  });

  it('`companies list --search` filters names case-insensitively', async () => {
    const r = await h.run(['companies', 'list', '--search', 'ACME']);
    expect(r.code).toBe(0);
    const expected = companies().filter((c) => c.name.toLowerCase().includes('acme'));
    expect(expected.length).toBeGreaterThan(0);
    expect(lines(r.stdout).map((l) => Number(l.split('\t')[0]))).toEqual(expected.map((c) => c.id));
  });
});

describe('the config file', () => {
  it('a damaged file does not block a run with the key and base URL from the environment', async () => {
    const dir = join(tmp, 'damaged');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, 'config.json');
    writeFileSync(file, '{"current": "x", bad', { mode: 0o600 });
    const r = await h.run(['me', '--json'], {
      env: { AGENCY_CONFIG_DIR: dir, AGENCY_API_KEY: CANARY_KEY, AGENCY_BASE_URL: h.sandbox.baseUrl },
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveProperty('id');
    expect(r.stderr).toMatch(/^warning: .*config file .*damaged/m);
    expect(readFileSync(file, 'utf8')).toBe('{"current": "x", bad');
    // A run that needs the file still refuses.
    const needs = await h.run(['me'], { env: { AGENCY_CONFIG_DIR: dir } });
    expect(needs.code).toBe(2);
  });

  it('a file readable by others and holding a key is tightened to 0600, said once', async () => {
    const dir = join(tmp, 'open');
    writeConfig(dir, { current: 'a', profiles: { a: { api_key: CANARY_KEY, base_url: h.sandbox.baseUrl } } });
    const file = join(dir, 'config.json');
    chmodSync(file, 0o644);
    const before = readFileSync(file, 'utf8');
    const first = await h.run(['me'], { env: { AGENCY_CONFIG_DIR: dir } });
    expect(first.code).toBe(0);
    expect(lines(first.stderr).filter((l) => l.includes('0600'))).toHaveLength(1);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe(before);
    const second = await h.run(['me'], { env: { AGENCY_CONFIG_DIR: dir } });
    expect(second.stderr).not.toContain('0600');
  });
});

describe.skipIf(Boolean(TMUX_MISSING))('completion', () => {
  it('bash: `profiles use <name> <TAB>` offers nothing more; `--company <TAB>` sends no request', async () => {
    const t = terminals.at(100);
    const script = join(tmp, 'agency.bash');
    writeFileSync(script, (await h.run(['completion', 'bash'])).stdout);
    await t.run(`source ${script}`);
    await t.clear();
    h.sandbox.reset();
    // The shell reads keys in order: once a mark typed after the two Tabs shows, both completions have
    // run (and any request they made was sent), without waiting a fixed time for nothing to happen.
    t.type('agency profiles use test ', false);
    t.key('Tab');
    t.key('Tab');
    t.type('#first', false);
    // Nothing was added after the one profile name.
    expect(await t.waitFor((s) => s.includes('#first'))).toMatch(/^\$ agency profiles use test #first\s*$/m);
    t.key('C-u');
    t.type('agency mailboxes --company ', false);
    t.key('Tab');
    t.key('Tab');
    t.type('#second', false);
    expect(await t.waitFor((s) => s.includes('#second'))).toMatch(
      /^\$ agency mailboxes --company #second\s*$/m,
    );
    t.key('C-u');
    expect(sent(h.sandbox)).toEqual([]);
  });
});
