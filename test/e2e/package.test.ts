/**
 * What `npm install -g` of the published package gets: the bundles and nothing else. The packed tool is
 * installed into a temporary prefix from npm's cache where it can be; it must run from there, with only
 * the keyring addon in its node_modules, and carry the licences of the code it bundles.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingSecretServiceTools, startSecretService } from '../../scripts/secret-service.mjs';
import { CANARY_KEY, type Harness, ROOT, startHarness } from '../helpers/cli.js';

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

describe('the packed and installed tool', () => {
  let work: string;
  let installed: string;
  let prefix: string;
  let h: Harness;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'agency-pack-'));
    // The suite runs after `npm run build`: pack that build as it is.
    const [packed] = JSON.parse(
      npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT),
    );
    prefix = join(work, 'prefix');
    // --prefer-offline, not --offline: `npm ci` caches the addon's tarballs but not the registry's
    // listing of its versions, which resolving the package's range needs (a clean CI machine has none).
    npm(['install', '--global', '--prefer-offline', '--prefix', prefix, join(work, packed.filename)], work);
    installed = join(prefix, 'lib', 'node_modules', 'agency-cli');
    h = await startHarness();
  }, 120_000);

  afterAll(async () => {
    await h?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('depends on the keyring addon alone, installed with its prebuilt binary for this platform', () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies ?? {})).toEqual(['@napi-rs/keyring']);
    const modules = join(installed, 'node_modules');
    expect(readdirSync(modules)).toEqual(['@napi-rs']);
    const addon = readdirSync(join(modules, '@napi-rs'));
    expect(addon).toContain('keyring');
    // The binary comes from the registry as a package of its own: nothing compiled, nothing downloaded.
    const binary = addon.filter((name) => name.startsWith('keyring-'));
    expect(binary).toHaveLength(1);
    expect(readdirSync(join(modules, '@napi-rs', binary[0] as string)).some((f) => f.endsWith('.node'))).toBe(
      true,
    );
  });

  it('carries the licences of the code it bundles', () => {
    const licences = readFileSync(join(installed, 'dist', 'THIRD_PARTY_LICENSES.md'), 'utf8');
    for (const name of ['commander', 'undici', 'conf', 'chalk', '@modelcontextprotocol/sdk', 'zod'])
      expect(licences).toMatch(new RegExp(`^## ${name} \\d`, 'm'));
  });

  it('installs its man pages where `man` looks: agency(1) and one page per command', () => {
    const man1 = join(prefix, 'share', 'man', 'man1');
    const pages = readdirSync(man1);
    expect(pages).toContain('agency.1');
    expect(pages).toContain('agency-keys-create.1');
    expect(readFileSync(join(man1, 'agency-keys-create.1'), 'utf8')).toMatch(/^\.SH EXAMPLES$/m);
    const man = spawnSync('man', ['agency-keys-create'], {
      encoding: 'utf8',
      env: {
        ...process.env,
        MANPATH: join(prefix, 'share', 'man'),
        MANWIDTH: '80',
        MANPAGER: 'cat',
        PAGER: 'cat',
      },
    });
    if (man.error) return; // no `man` on this system: the files are where it would look
    expect(man.status, man.stderr).toBe(0);
    expect(man.stdout).toMatch(/^NAME\n\s+agency-keys-create - create an API key/m);
    expect(man.stdout).toContain('KEY=$(agency keys create 1042 --label zapier)');
  });

  it("ships the docs the README links to, so an installed README's links resolve", () => {
    const readme = readFileSync(join(installed, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(((?:docs\/)[^)#\s]+)/g)].map((m) => m[1] as string);
    expect(links).toContain('docs/mcp.md');
    expect(links.length).toBeGreaterThan(5);
    for (const link of links) expect(existsSync(join(installed, link)), link).toBe(true);
  });

  it('prints its version and makes a request from the install prefix', async () => {
    const bin = join(installed, '..', '..', '..', 'bin', 'agency');
    const env = { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
    const version = await h.run(['--version'], { bin, env });
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);

    const me = await h.run(['me', '--json'], { bin, env });
    expect(me.code, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout)).toMatchObject({ account_type: 'HQ' });
    expect(h.requests().map((r) => `${r.method} ${r.path}`)).toEqual(['GET /rest/v1/me']);
  });

  it.skipIf(missingSecretServiceTools().length > 0)(
    'keeps a key in the system keyring from the install prefix: the addon loads from its node_modules',
    async () => {
      const bin = join(installed, '..', '..', '..', 'bin', 'agency');
      const service = await startSecretService();
      try {
        const env = { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, ...service.env };
        const args = ['login', '-p', 'kr', '--base-url', h.sandbox.baseUrl];
        const login = await h.run(args, { bin, env, input: CANARY_KEY });
        expect(login.code, login.stderr).toBe(0);
        expect(login.stderr).toContain('in the system keyring.');
        const me = await h.run(['-p', 'kr', 'me', '--json'], { bin, env });
        expect(me.code, me.stderr).toBe(0);
        expect(service.lookup({ service: 'agency-cli', username: `kr@${h.configDir}` })).toBe(CANARY_KEY);
      } finally {
        await service.close();
      }
    },
  );

  it('serves MCP from the install prefix: the SDK comes in its bundle', async () => {
    const bin = join(installed, '..', '..', '..', 'bin', 'agency');
    const env = { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
    const requests = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'pack', version: '1' },
        },
      },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'me', arguments: {} } },
    ];
    const r = await h.run(['mcp'], {
      bin,
      env,
      input: requests.map((m) => `${JSON.stringify(m)}\n`).join(''),
    });
    expect(r.code, r.stderr).toBe(0);
    const answers = r.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const me = answers.find((a) => a.id === 2);
    expect(JSON.parse(me.result.content[0].text)).toMatchObject({ account_type: 'HQ' });
  });
});
