/**
 * `profiles remove` asks on a terminal (the default answer is no); --yes does not ask; without a
 * terminal --yes is required: exit 2 and the profile is kept.
 */
import { describe, expect, it } from 'vitest';
import { runCommand } from '../helpers/fake-terminal.js';
import { HttpMock } from '../helpers/http-mock.js';

const remove = (args: string[], options: Parameters<typeof runCommand>[2]) => {
  const http = new HttpMock();
  return runCommand(['profiles', 'remove', 'test', ...args], http, options).finally(() => http.verify());
};

describe('profiles remove', () => {
  it('asks on a terminal, and removes on "y"', async () => {
    const r = await remove([], { tty: true, stdinTTY: true, input: 'y\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Remove profile "test" and its key? [y/N]');
    expect(r.stderr).toContain('Removed profile "test" and its key.');
    expect(r.config.profiles).toEqual({});
  });

  it('keeps the profile on any other answer, and on Enter alone', async () => {
    for (const input of ['n\n', '\n']) {
      const r = await remove([], { tty: true, stdinTTY: true, input });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('Nothing was removed.');
      expect(Object.keys(r.config.profiles)).toEqual(['test']);
    }
  });

  it('--yes removes without asking', async () => {
    const r = await remove(['--yes'], { tty: true, stdinTTY: true, input: 'n\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('[y/N]');
    expect(r.config.profiles).toEqual({});
  });

  it('without a terminal, --yes is required: exit 2, nothing removed', async () => {
    const r = await remove([], { input: 'y\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'error: Removing profile "test" needs --yes when there is no terminal to ask.',
    );
    expect(Object.keys(r.config.profiles)).toEqual(['test']);
  });
});
