import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { CANARY, call, tomKey, uniqueName } from './helpers.js';

describe('state file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'agency-sandbox-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps companies, keys and HQ keys across a restart, written 0600 and atomically', async () => {
    const statePath = join(dir, 'nested', 'state.json');
    const first = await startSandbox({ statePath });
    const name = uniqueName();
    const made = await call(first, '/v2/agency/companies', { body: { companies: [{ name }] } });
    const id = made.body.companies[0].id;
    const key = (await call(first, `/v2/agency/companies/${id}/api_keys`, { body: { label: 'ci' } })).body
      .api_key;
    const hqKey = first.hqKey;
    const tom = tomKey(first);
    await first.close();

    expect(statSync(statePath).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'nested'))).toEqual(['state.json']);
    expect(JSON.parse(readFileSync(statePath, 'utf8')).version).toBe(1);

    const second = await startSandbox({ statePath });
    try {
      expect(second.hqKey).toBe(hqKey);
      expect(tomKey(second)).toBe(tom);
      expect(second.store.findCompanyByName(name)?.id).toBe(id);
      expect((await call(second, '/v1/me', { key })).body.company_id).toBe(id);
      const keys = await call(second, `/v2/agency/companies/${id}/api_keys`);
      expect(keys.body.content.map((k: { label: string }) => k.label)).toEqual(['Default key', 'ci']);
      const again = await call(second, '/v2/agency/companies', {
        body: { companies: [{ name: uniqueName() }] },
      });
      expect(again.body.companies[0].id).toBe(id + 1);
    } finally {
      await second.close();
    }
  });

  it('lets the hqKey option replace the saved owner key', async () => {
    const statePath = join(dir, 'state.json');
    await (await startSandbox({ statePath })).close();
    const sb = await startSandbox({ statePath, hqKey: CANARY });
    try {
      expect((await call(sb, '/v1/me', { key: CANARY })).status).toBe(200);
    } finally {
      await sb.close();
    }
    expect(JSON.parse(readFileSync(statePath, 'utf8')).users[0].hqKey).toBe(CANARY);
  });

  it('refuses to start on a damaged file, naming it, and leaves it untouched', async () => {
    const statePath = join(dir, 'state.json');
    writeFileSync(statePath, '{"version": 1, "companies": [');
    await expect(startSandbox({ statePath })).rejects.toThrow(statePath);
    expect(readFileSync(statePath, 'utf8')).toBe('{"version": 1, "companies": [');
    writeFileSync(statePath, '{"version": 1}');
    await expect(startSandbox({ statePath })).rejects.toThrow(/damaged/);
  });
});
