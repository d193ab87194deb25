import { describe, expect, it } from 'vitest';
import { sent, sharedInProcessHarness } from '../helpers/core.js';

const shared = sharedInProcessHarness();

describe('help that was asked for', () => {
  it('`agency help` and `agency help <command>` succeed; a missing subcommand is a usage error', async () => {
    const all = await shared.h.run(['help']);
    expect(all.code).toBe(0);
    expect(all.stdout).toContain('Usage: agency');
    const me = await shared.h.run(['help', 'me']);
    expect(me.code).toBe(0);
    expect(me.stdout).toContain('Usage: agency me');
    expect((await shared.h.run(['companies'])).code).toBe(2);
    expect(sent(shared.h.sandbox)).toHaveLength(0);
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
      const r = await shared.h.run([...command, '--help']);
      expect(r.code, command.join(' ')).toBe(0);
      const long = r.stdout.split('\n').filter((line) => line.length > 80);
      expect(long, `agency ${command.join(' ')} --help`).toEqual([]);
    }
  });
});
