/**
 * Issue 14, item 5: help that fits 60 and 100 columns without breaking a word, an Environment section
 * with this system's config path, required options marked, `agency help <command...>`, and
 * suggestions only for near misses.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { type AgencyTerminals, startAgencyTerminals } from '../helpers/agency-terminals.js';
import { agencyEnv, BIN, type Harness, ROOT, startHarness } from '../helpers/cli.js';
import { sent } from '../helpers/core.js';
import { runOnTerminal } from '../helpers/terminal-run.js';
import { TMUX_MISSING } from '../helpers/tmux.js';

let h: Harness;
let terminals: AgencyTerminals;

beforeAll(async () => {
  h = await startHarness({}, { inProcess: true });
  // 100 columns in a virtual terminal (test/helpers/virtual-terminal.ts), which shows what tmux shows.
  terminals = await startAgencyTerminals(h.configDir, [60], 80, [100]);
});
afterAll(async () => {
  await terminals?.close();
  await h?.close();
});

function words(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/**
 * What a terminal showed is the same text as the piped help, re-wrapped: the same words in the same
 * order. A word the terminal broke at its edge ("AGENCY_PR" + "OFILE)") would not be one of them.
 */
function expectSameWordsRewrapped(screen: string, piped: string, width: number): void {
  const plain = (text: string) => words(text).filter((w) => w !== '\\');
  // A word longer than the screen (a long config path) cannot fit on any line: the terminal breaks it
  // where it must, so line breaks inside it are taken out before comparing.
  let joined = screen;
  for (const word of new Set(plain(piped).filter((w) => w.length > width))) {
    const broken = [...word].map((c) => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('\n?');
    joined = joined.replace(new RegExp(broken, 'g'), word);
  }
  expect(plain(joined)).toEqual(plain(piped));
}

describe.skipIf(Boolean(TMUX_MISSING))(
  TMUX_MISSING ? `help (skipped: ${TMUX_MISSING})` : 'help in a terminal',
  () => {
    const helpScreens: [string, string[]][] = [
      ['agency', []],
      ['agency --help', ['--help']],
      ['agency companies create --help', ['companies', 'create', '--help']],
      ['agency keys create --help', ['keys', 'create', '--help']],
    ];

    it.each([60, 100])('at %i columns no word is broken by the edge of the screen', async (width) => {
      for (const [command, args] of helpScreens) {
        const piped = await h.run(args);
        const { output, exit } = await terminals.runOnce(width, command);
        expect(exit, command).toBe(0);
        expectSameWordsRewrapped(output, piped.stdout, width);
      }
    });

    it('at 100 columns paragraphs use the width (not hard-wrapped at 80)', async () => {
      const { output } = await terminals.runOnce(100, 'agency companies create --help');
      const paragraph = output.split('\n').find((l) => l.startsWith('Prints the created companies')) ?? '';
      expect(paragraph.length).toBeGreaterThan(85);
      expect(paragraph.length).toBeLessThanOrEqual(100);
    });
  },
);

describe('help that teaches', () => {
  it('`agency --help` has an Environment section with the config file of this system', async () => {
    const r = await h.run(['--help']);
    expect(r.code).toBe(0);
    const env = r.stdout.split('\nEnvironment:\n')[1] ?? '';
    for (const name of ['AGENCY_API_KEY', 'AGENCY_PROFILE', 'AGENCY_BASE_URL', 'AGENCY_CONFIG_DIR'])
      expect(env).toMatch(new RegExp(`^ {2}${name} `, 'm'));
    expect(env).toContain(join(h.configDir, 'config.json'));
  });

  it('`agency help environment` describes every global option and every variable the tool reads', async () => {
    const r = await h.run(['help', 'environment']);
    expect(r.code).toBe(0);
    for (const option of [
      '--profile <name>',
      '--base-url <url>',
      '--json',
      '--columns <names>',
      '--timeout',
    ]) {
      expect(r.stdout).toContain(option);
    }
    for (const name of [
      'AGENCY_API_KEY',
      'AGENCY_MAX_IN_FLIGHT',
      'AGENCY_TIMEOUT',
      'NO_COLOR',
      'FORCE_COLOR',
      'HTTPS_PROXY',
      'NO_PROXY',
    ]) {
      expect(r.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    }
    expect(r.stdout).toContain(`Config file: ${join(h.configDir, 'config.json')}`);
  });

  it('`agency help environment` and docs/output.md say how to copy a value a narrow table wrapped (second pass, finding 3)', async () => {
    const r = await h.run(['help', 'environment']);
    const text = r.stdout.replace(/\s+/g, ' ');
    expect(text).toContain('wraps onto more lines of its column and cannot be selected in one piece');
    expect(text).toContain('pipe the output, or use --json or --csv, to copy it whole');
    const docs = readFileSync(join(ROOT, 'docs', 'output.md'), 'utf8').replace(/\s+/g, ' ');
    expect(docs).toContain('pipe the output, or use `--json` or `--csv`, to copy it whole');
  });

  it('a command that runs a default subcommand shows its options: webhooks, campaigns', async () => {
    const campaigns = await h.run(['campaigns', '--help']);
    expect(campaigns.stdout).toMatch(/^ {2}--company <company> /m);
    expect(campaigns.stdout).toMatch(/^ {2}--status <statuses> /m);
    const webhooks = await h.run(['webhooks', '--help']);
    expect(webhooks.stdout).toMatch(/^ {2}--company <company> /m);
    // And the short forms take them.
    const listed = await h.run(['campaigns', '--status', 'running', '--columns', 'id']);
    expect(listed.code, listed.stderr).toBe(0);
  });

  it('the xargs example of `guests permissions --help` runs as written: no warning, every guest in one run', async () => {
    const help = await h.run(['guests', 'permissions', '--help']);
    const example = help.stdout
      .replace(/ \\\n\s+/g, ' ')
      .split('\n')
      .map((line) => line.trim().replace(/^\$ /, ''))
      .find((line) => line.includes('| xargs'));
    expect(example).toBeDefined();
    const company = (example ?? '').match(/users (\d+)/)?.[1] as string;
    const listed = await h.run(['companies', 'users', company, '--role', 'guest']);
    const guests = listed.stdout.trimEnd().split('\n').filter(Boolean);
    expect(guests.length).toBeGreaterThan(0);
    const bin = mkdtempSync(join(tmpdir(), 'agency-example-'));
    try {
      writeFileSync(join(bin, 'agency'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, {
        mode: 0o755,
      });
      h.sandbox.reset();
      // Not spawnSync: the sandbox answers from this process, whose event loop must keep running.
      const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(
          'sh',
          ['-c', example ?? ''],
          { env: { ...agencyEnv({ configDir: h.configDir }), PATH: `${bin}:${process.env.PATH ?? ''}` } },
          (error, stdout, stderr) => resolve({ status: error ? (error.code as number) : 0, stdout, stderr }),
        );
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).not.toMatch(/warning/i);
      expect(run.stdout.trimEnd().split('\n')).toHaveLength(guests.length);
      // One run: the guests read once, at most one PUT for all of them.
      const reads = sent(h.sandbox).filter((q) => q.path.endsWith(`/companies/${company}/users`));
      expect(reads.map((q) => q.query.role)).toEqual(['guest', 'guest']);
      expect(sent(h.sandbox).filter((q) => q.method === 'PUT').length).toBeLessThanOrEqual(1);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('`agency version` prints the version, like --version', async () => {
    const version = await h.run(['version']);
    const flag = await h.run(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toBe(flag.stdout);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('required options are marked as required', async () => {
    const r = await h.run(['keys', 'create', '--help']);
    // The mark belongs to --label's description, however it is wrapped.
    expect(r.stdout).toMatch(/ {2}--label <label> +[^-]*\(required\)\n {2}--file/);
    expect(r.stdout.match(/\(required\)/g)).toHaveLength(1);
  });

  it('`agency help companies create` is the help of `companies create`', async () => {
    const viaHelp = await h.run(['help', 'companies', 'create']);
    const viaFlag = await h.run(['companies', 'create', '--help']);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
    expect(viaHelp.stdout).toMatch(/^Usage: agency companies create/);
  });

  it('`agency help nosuch` says the command is unknown (exit 2)', async () => {
    h.sandbox.reset();
    const r = await h.run(['help', 'nosuch']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/unknown command 'nosuch'/);
    const sub = await h.run(['help', 'companies', 'nosuch']);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toMatch(/unknown command 'companies nosuch'/);
    expect(sent(h.sandbox)).toEqual([]);
  });

  it('a mistyped command is suggested only when it is close', async () => {
    const far = await h.run(['bogus']);
    expect(far.code).toBe(2);
    expect(far.stderr).toContain("unknown command 'bogus'");
    expect(far.stderr).not.toContain('Did you mean');
    const near = await h.run(['compnies', 'list']);
    expect(near.stderr).toContain('(Did you mean companies?)');
    const sub = await h.run(['companies', 'lst']);
    expect(sub.stderr).toContain('(Did you mean list?)');
  });
});

interface CommandNode {
  name(): string;
  readonly commands: readonly CommandNode[];
}

/** The words of every command of the tree (`keys create`, …), from the program itself. */
async function everyCommand(): Promise<string[][]> {
  const program: CommandNode = await buildProgram(
    { stdout: new Writable({ write: (_c, _e, done) => done() }), stderr: process.stderr },
    () => async () => {},
  );
  const walk = (node: CommandNode, words: string[]): string[][] =>
    node.commands
      .filter((c) => c.name() !== 'help')
      .flatMap((c) => [[...words, c.name()], ...walk(c, [...words, c.name()])]);
  return walk(program, []);
}

/** The lines of the Examples section of a help text. */
function exampleLines(help: string): string[] {
  const section = help.split('\nExamples:\n')[1] ?? '';
  return section.split('\n\n')[0]?.split('\n') ?? [];
}

/** The example commands as a shell reads them: ` \` + newline + indent joined, comments apart. */
function pastedExamples(lines: readonly string[]): { commands: string[]; comments: string[] } {
  const text = lines.join('\n').replace(/ \\\n\s*/g, ' ');
  const commands = text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .map((l) => l.trim());
  const comments = text.split('\n').filter((l) => /^\s*#/.test(l));
  return { commands, comments };
}

describe('help examples can be pasted at any width (new-user finding 6)', () => {
  it('every example reads the same at 60 and 80 columns, never wrapped inside a comment or between an option and its value', async () => {
    const commands = await everyCommand();
    let checked = 0;
    for (const words of commands) {
      const piped = await h.run([...words, '--help']);
      const narrow = await runOnTerminal(h, [...words, '--help'], { columns: 60 });
      expect(piped.code).toBe(0);
      const at80 = exampleLines(piped.stdout);
      const at60 = exampleLines(narrow.stdout);
      if (at80.length === 0) continue;
      checked++;
      const name = words.join(' ');
      expect(pastedExamples(at60), name).toEqual(pastedExamples(at80));
      for (const lines of [at80, at60]) {
        lines.forEach((line, i) => {
          // A comment is a line of its own: no command after it, no continuation inside it.
          if (!/^\s*#/.test(line)) expect(line, name).not.toMatch(/\s#[^'"]*$/);
          expect(line, name).not.toMatch(/^\s*#.*\\$/);
          // `--event \` then `prospect_bounced`: an option parted from its value.
          const next = lines[i + 1]?.trim() ?? '';
          if (/\s--?[A-Za-z][\w-]* \\$/.test(line)) expect(next, `${name}: ${line}`).toMatch(/^-/);
        });
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('keys create: the comment goes above its command; webhooks subscribe keeps --event with its event', async () => {
    const keys = exampleLines((await h.run(['keys', 'create', '--help'])).stdout);
    const rotate = keys.findIndex((l) => l.includes('--new)'));
    expect(keys[rotate - 1]).toBe('  # a second key');
    expect(keys[rotate]).toBe('  $ KEY=$(agency keys create 1042 --label zapier --new)');
    const webhooks = exampleLines((await h.run(['webhooks', 'subscribe', '--help'])).stdout);
    expect(webhooks).toContain('      --event prospect_bounced \\');
  });

  it('plan --help prints its YAML sample as written (it fits 80), at 60 columns too', async () => {
    for (const help of [
      (await h.run(['plan', '--help'])).stdout,
      (await runOnTerminal(h, ['plan', '--help'], { columns: 60 })).stdout,
    ]) {
      const sample = help.split('\nThe file:\n')[1]?.split('\n\n')[0]?.split('\n') ?? [];
      expect(sample).toContain('        url: https://crm.example.com/hooks/woodpecker');
      expect(sample).toContain(
        '        - { email: ceo@acme.example, name: Ann Lee, permissions: [mailboxes] }',
      );
      expect(sample).toContain(
        '      guests:                # invited once; pending: "= guest" until accepted',
      );
      // Every line is a YAML line at its indent: nothing was wrapped onto a line of its own.
      for (const line of sample) expect(line).toMatch(/^ {2}( {2})*(- |[a-z]+:|\S.*#)/);
      expect(sample).toContain('    bounce_shield: 3         # % threshold of RUNNING and PAUSED campaigns');
      expect(sample).toHaveLength(12);
    }
  });
});

describe('help is not wider than 100 columns on a wide terminal (new-user finding 31)', () => {
  it('at 200 columns a paragraph wraps at 100', async () => {
    const r = await runOnTerminal(h, ['companies', 'create', '--help'], { columns: 200 });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(100);
    const paragraph = lines.find((l) => l.startsWith('Prints the created companies')) ?? '';
    expect(paragraph.length).toBeGreaterThan(85);
  });
});
