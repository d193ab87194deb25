/**
 * The endpoint table (src/api/resources/): every endpoint the client calls has a route in the
 * sandbox's module of the same name, and every command it names is a command of the tree.
 */
import { existsSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { target } from '../../src/api/resources/endpoint.js';
import { endpoints, NOT_CALLED, RESOURCES } from '../../src/api/resources/index.js';
import { buildProgram } from '../../src/cli.js';
import { findRoute, type Route } from '../../src/sandbox/routing.js';

/** The routes a sandbox module exports (`…Routes`, a table or a function of the sandbox's modes). */
async function sandboxRoutes(resource: string): Promise<Route[]> {
  const module = (await import(`../../src/sandbox/resources/${resource}.ts`)) as Record<string, unknown>;
  const routes: Route[] = [];
  for (const [name, value] of Object.entries(module)) {
    if (!name.endsWith('Routes')) continue;
    if (Array.isArray(value)) routes.push(...(value as Route[]));
    else if (typeof value === 'function')
      for (const docsMode of [false, true])
        routes.push(...(value as (o: { docsMode: boolean }) => Route[])({ docsMode }));
  }
  return routes;
}

/** A path the template stands for, with sample values (a company id, a blacklist kind, a campaign id, a report's hash). */
const samplePath = (path: string) =>
  target(
    { route: `GET ${path}` as `GET /${string}` },
    { cid: 1042, kind: 'emails', id: 104201, hash: 'c0ffee' },
  ).path;

describe('every endpoint the client calls has a sandbox route in the same-named module', () => {
  for (const resource of Object.keys(RESOURCES)) {
    it(`src/sandbox/resources/${resource}.ts serves src/api/resources/${resource}.ts`, async () => {
      expect(existsSync(`src/api/resources/${resource}.ts`)).toBe(true);
      const routes = await sandboxRoutes(resource);
      const missing = endpoints()
        .filter((e) => e.resource === resource)
        .filter(
          (e) => !routes.some((r) => r.methods.includes(e.method) && findRoute([r], samplePath(e.path))),
        )
        .map((e) => `${e.method} ${e.path}`);
      expect(missing).toEqual([]);
    });
  }

  it('the check sees a missing route (an endpoint no module serves)', async () => {
    const routes = await sandboxRoutes('keys');
    expect(
      routes.some(
        (r) =>
          r.methods.includes('DELETE') && findRoute([r], samplePath('/v2/agency/companies/{cid}/api_keys')),
      ),
    ).toBe(false);
    expect(
      routes.some(
        (r) =>
          r.methods.includes('POST') && findRoute([r], samplePath('/v2/agency/companies/{cid}/api_keys')),
      ),
    ).toBe(true);
  });
});

it('an endpoint documented as not called is not in the table of those the client calls', () => {
  const called = new Set(endpoints().map((e) => `${e.method} ${e.path}`));
  expect(NOT_CALLED.filter((e) => called.has(e.route))).toEqual([]);
});

describe('the commands an endpoint names', () => {
  it('are commands of the tree', async () => {
    const quiet = Object.assign(new PassThrough(), { isTTY: false });
    const program = await buildProgram({ stdout: quiet, stderr: quiet }, () => async () => {});
    const names = new Set<string>();
    const walk = (command: typeof program, words: string[]) => {
      for (const sub of command.commands) {
        names.add([...words, sub.name()].join(' '));
        walk(sub as typeof program, [...words, sub.name()]);
      }
    };
    walk(program, []);
    const unknown = endpoints().flatMap((e) =>
      e.commands.filter((c) => !names.has(c)).map((c) => `${e.path}: ${c}`),
    );
    expect(unknown).toEqual([]);
    expect(endpoints().every((e) => e.commands.length > 0)).toBe(true);
  });
});
