/** Help that was asked for succeeds (exit 0) and fits an 80-column terminal; a missing subcommand is a usage error. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/cli.js';
import { sent, startCoreHarness } from '../helpers/core.js';

let h: Harness;
let tmp: string;
beforeAll(async () => {
  // The program runs in this process (test/helpers/in-process.ts).
  h = await startCoreHarness({}, { inProcess: true });
  tmp = mkdtempSync(join(tmpdir(), 'agency-commands-'));
});
afterAll(async () => {
  await h.close();
  rmSync(tmp, { recursive: true, force: true });
});
beforeEach(() => h.sandbox.reset());

describe('help that was asked for', () => {
  it('`agency help` and `agency help <command>` succeed; a missing subcommand is a usage error', async () => {
    const all = await h.run(['help']);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('Usage: agency');
    const me = await h.run(['help', 'me']);
    expect(me.code).toBe(0);
    expect(me.stdout).toContain('Usage: agency me');
    expect((await h.run(['companies'])).code).toBe(2);
    expect(sent(h.sandbox)).toHaveLength(0);
  });

  it('fits an 80-column terminal: no help line is longer than 80 characters', async () => {
    const commands = [
      [],
      ['companies', 'list'],
      ['companies', 'create'],
      ['keys', 'list'],
      ['keys', 'create'],
    ];
    commands.push(
      ['me'],
      ['mailboxes'],
      ['webhooks'],
      ['inventory'],
      ['api'],
      ['login'],
      ['sandbox'],
      ['completion'],
    );
    for (const command of commands) {
      const r = await h.run([...command, '--help']);
      expect(r.code, command.join(' ')).toBe(0);
      const long = r.stdout.split('\n').filter((line) => line.length > 80);
      expect(long, `agency ${command.join(' ')} --help`).toEqual([]);
    }
  });
});
