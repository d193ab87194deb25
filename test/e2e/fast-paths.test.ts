/**
 * `agency --version` and `agency [command...] --help` into a pipe are answered by bin/agency.js from texts
 * the build rendered (dist/fast.cjs), without loading the program. Whatever the shortcut prints must be
 * exactly what the program prints: a global option in front (`-p x`) makes the same request go through
 * the program (run in this process, test/helpers/in-process.ts), so each pair of runs below compares the two.
 * Every command's help is compared through the shortcut's own function (bin/agency.js's fastText, what it
 * would write); the binary itself runs for the version, the top-level help and a sample of commands.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agencyEnv, BIN, type RunResult, runAgency } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

/** bin/agency.js's shortcut: the text it prints for some arguments, or undefined (the program answers). */
const { fastText } = createRequire(import.meta.url)(BIN) as {
  fastText(argv: string[], env: Record<string, string | undefined>): string | undefined;
};

const configDir = join(mkdtempSync(join(tmpdir(), 'agency-fast-')), 'config');
afterAll(() => rmSync(join(configDir, '..'), { recursive: true, force: true }));

const run = (args: string[]) => runAgency(args, { configDir });
/** The program itself, without the shortcut. */
const throughProgram = (args: string[]) => runInProcess(['-p', 'x', ...args], { configDir });

/** The command names a help text lists under "Commands:" (without commander's own `help`). */
function commandsIn(help: string): string[] {
  const section = help.split(/^Commands:$/m)[1]?.split(/^\S/m)[0] ?? '';
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)]
    .map((m) => m[1] as string)
    .filter((name) => name !== 'help');
}

/** A preload that tells on stderr when a bundle of the program is compiled (bin/agency.js uses vm.Script). */
function tellingPreload(): string {
  const tell = join(configDir, '..', 'tell.cjs');
  writeFileSync(
    tell,
    "const vm = require('node:vm'); const S = vm.Script; vm.Script = class extends S { constructor(code, o) { process.stderr.write('compiled ' + (o && o.filename) + '\\n'); super(code, o); } };\n",
  );
  return tell;
}

/** The binary with that preload, its output into pipes. */
function runTold(tell: string, args: string[]): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--require', tell, BIN, ...args],
      { env: agencyEnv({ configDir }), encoding: 'utf8' },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, signal: null, stdout, stderr }),
    );
  });
}

function expectSame(shortcut: RunResult, program: RunResult): void {
  expect(shortcut.code).toBe(0);
  expect(shortcut.stderr).toBe('');
  expect(program.code).toBe(0);
  expect(shortcut.stdout).toBe(program.stdout);
}

describe('answers printed without loading the program', () => {
  it('--version and -V print the version the program prints', async () => {
    const [long, short, program] = await Promise.all([
      run(['--version']),
      run(['-V']),
      throughProgram(['--version']),
    ]);
    expect(long.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expectSame(long, program);
    expectSame(short, program);
  });

  it('--help and -h of every command are the help the program prints', async () => {
    // The walk over the commands asks the program in-process.
    const top = await throughProgram(['--help']);
    const paths: string[][] = [[]];
    for (const name of commandsIn(top.stdout)) {
      paths.push([name]);
      const sub = await throughProgram([name, '--help']);
      for (const child of commandsIn(sub.stdout)) paths.push([name, child]);
    }
    // The contract's nouns with verbs are all there, so the walk above did find the nested commands.
    expect(paths).toEqual(
      expect.arrayContaining([
        ['companies', 'list'],
        ['keys', 'create'],
        ['profiles', 'use'],
      ]),
    );
    // What bin/agency.js would print for each, next to what the program prints: every text compared
    // here, without a process each (the binary's own runs below and above show it prints these texts).
    const env = agencyEnv({ configDir });
    for (const words of paths) {
      const program = await throughProgram([...words, '--help']);
      expect(program.code).toBe(0);
      expect(program.stdout, `agency ${words.join(' ')} --help`).toContain('Usage: agency');
      expect(fastText([...words, '--help'], env), `agency ${words.join(' ')} --help`).toBe(program.stdout);
      expect(fastText([...words, '-h'], env), `agency ${words.join(' ')} -h`).toBe(program.stdout);
    }
  });

  it('the binary prints those texts without loading the program: a command, a nested one, --help and -h', async () => {
    const tell = tellingPreload();
    for (const words of [['companies'], ['companies', 'list'], ['keys', 'create'], ['profiles', 'use']]) {
      const [long, short, program] = await Promise.all([
        runTold(tell, [...words, '--help']),
        runTold(tell, [...words, '-h']),
        throughProgram([...words, '--help']),
      ]);
      // An empty stderr: the preload saw no bundle of the program compiled.
      expectSame(long, program);
      expectSame(short, program);
    }
  });

  it("`agency --help` names this system's config file, and is printed without loading the program", async () => {
    const tell = tellingPreload();
    // Short paths: a config line longer than 80 columns is left to the program (it may wrap it).
    const home = '/home/operator';
    for (const env of [
      { AGENCY_CONFIG_DIR: undefined, HOME: home, XDG_CONFIG_HOME: undefined },
      { AGENCY_CONFIG_DIR: undefined, HOME: home, XDG_CONFIG_HOME: join(home, 'xdg') },
      { AGENCY_CONFIG_DIR: '/etc/agency' },
    ]) {
      const fast = spawnSync(process.execPath, ['--require', tell, BIN, '--help'], {
        env: agencyEnv({ configDir, env }),
        encoding: 'utf8',
      });
      const program = await runInProcess(['-p', 'x', '--help'], { configDir, env });
      expect(fast.stderr, JSON.stringify(env)).toBe('');
      expect(fast.status).toBe(0);
      expect(fast.stdout).toBe(program.stdout);
      expect(fast.stdout).toContain(
        `Config file: ${join(env.AGENCY_CONFIG_DIR ?? join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'agency'), 'config.json')}`,
      );
    }
    // The same preload does see the program when it is loaded, so the empty stderr above means something.
    const loaded = spawnSync(process.execPath, ['--require', tell, BIN, '-p', 'x', '--help'], {
      env: agencyEnv({ configDir }),
      encoding: 'utf8',
    });
    expect(loaded.stderr).toContain('compiled');
  });
});
