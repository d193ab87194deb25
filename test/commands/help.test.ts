/**
 * Every command's help, found by walking the program's real command tree (buildProgram): a command
 * added to src/commands/index.ts is checked here without this file knowing its name.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { VERSION } from '../../src/version.js';
import { sent, sharedInProcessHarness } from '../helpers/core.js';

const shared = sharedInProcessHarness();

interface TreeCommand {
  words: string[];
  leaf: boolean;
  /** How it is run: its words, and its parent's too when it is the parent's default (`agency campaigns`). */
  invocations: string[];
}

/** The words of every command of the tree (['companies', 'list'], …), `help` left out. */
async function commandTree(): Promise<TreeCommand[]> {
  const quiet = Object.assign(new PassThrough(), { isTTY: false });
  const program = await buildProgram({ stdout: quiet, stderr: quiet }, () => async () => {});
  const found: TreeCommand[] = [];
  const walk = (command: typeof program, words: string[]) => {
    for (const sub of command.commands) {
      if (sub.name() === 'help') continue;
      const path = [...words, sub.name()];
      // commander keeps the default subcommand's name in a field of its own.
      const isDefault =
        (command as unknown as { _defaultCommandName?: string })._defaultCommandName === sub.name();
      const invocations = [path.join(' '), ...(isDefault ? [words.join(' ')] : [])];
      found.push({ words: path, leaf: sub.commands.length === 0, invocations });
      walk(sub as typeof program, path);
    }
  };
  walk(program, []);
  return found;
}

const tree = await commandTree();
const leaves = tree.filter((c) => c.leaf).map((c) => c.words.join(' '));
const invocations = new Map(tree.map((c) => [c.words.join(' '), c.invocations]));

describe('help that was asked for', () => {
  it('the tree has the commands a user knows (the walk finds them)', () => {
    for (const known of ['companies list', 'keys create', 'me', 'webhooks subscribe', 'apply'])
      expect(leaves).toContain(known);
  });

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

  it('`agency version` prints the version with global options too; a word after -p is a profile', async () => {
    for (const args of [
      ['version'],
      ['-p', 'work', 'version'],
      ['--json', '-q', 'version'],
      ['--profile=x', 'version'],
    ]) {
      const r = await shared.h.run(args);
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 0, stdout: `${VERSION}\n` });
    }
    // `-p version` names a profile called version: not the command.
    const profile = await shared.h.run(['-p', 'version', 'me']);
    expect(profile.code).toBe(2);
    expect(profile.stderr).toContain('No profile named "version"');
    expect(sent(shared.h.sandbox)).toHaveLength(0);
  });

  it('a typo of `version` or of the `environment` topic is suggested like a command', async () => {
    const version = await shared.h.run(['verison']);
    expect(version.code).toBe(2);
    expect(version.stderr).toContain("unknown command 'verison'\n(Did you mean version?)");
    // In a subcommand `version` is no word to suggest.
    expect((await shared.h.run(['companies', 'verison'])).stderr).not.toContain('version?');
    const env = await shared.h.run(['help', 'env']);
    expect(env.code).toBe(2);
    expect(env.stderr).toContain("unknown command 'env'");
    expect(env.stderr).toContain('hint: Did you mean environment?');
    const typo = await shared.h.run(['help', 'enviroment']);
    expect(typo.stderr).toContain('hint: Did you mean environment?');
    expect((await shared.h.run(['help', 'companies', 'env'])).stderr).not.toContain('environment');
    expect(sent(shared.h.sandbox)).toHaveLength(0);
  });

  it('fits an 80-column terminal: no help line of any command is longer than 80 characters', async () => {
    for (const words of [[], ...tree.map((c) => c.words)]) {
      const r = await shared.h.run([...words, '--help']);
      expect(r.code, words.join(' ')).toBe(0);
      const long = r.stdout.split('\n').filter((line) => line.length > 80);
      expect(long, `agency ${words.join(' ')} --help`).toEqual([]);
    }
  });
});

describe('help that teaches (piped), for every command of the tree', () => {
  it.each(leaves)(
    '`agency %s --help`: purpose, options, global options, examples, what it prints',
    async (path) => {
      const r = await shared.h.run([...path.split(' '), '--help']);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      const text = r.stdout;
      expect(text).toMatch(new RegExp(`^Usage: agency ${path}\\b`));
      const purpose = text.split('\n')[2] ?? '';
      expect(purpose.length).toBeGreaterThan(10);
      expect(text).toMatch(/\nOptions:\n {2}.*\n/);
      // The global options: one short block after the examples, not a section before them.
      expect(text).not.toMatch(/Global Options:/);
      expect(text).toMatch(
        /\nExamples:\n[\s\S]*\nGlobal options: -p\/--profile, [\s\S]*--json[\s\S]*agency help environment/,
      );
      expect(text.split('\nGlobal options: ')[1]?.split('\n').length).toBeLessThanOrEqual(4);
      const examples = text.split('\nExamples:\n')[1] ?? '';
      const exampleLines = examples.split('\n').filter((line) => line.startsWith('  $ '));
      expect(exampleLines.length).toBeGreaterThanOrEqual(2);
      const runs = invocations.get(path) ?? [path];
      expect(exampleLines.some((line) => runs.some((words) => line.includes(`agency ${words}`)))).toBe(true);
      expect(text).toMatch(/\bPrints\b|\bprints\b|\bSays\b/);
      expect(sent(shared.h.sandbox)).toEqual([]);
    },
  );
});
