/**
 * `agency completion <shell>` at a real TAB: bash, zsh and fish in tmux, each with the script installed the
 * way the docs say, and `agency` on the PATH (the built binary). What a person sees after the keys: the
 * command line as the shell rewrote it, and the list it showed. (test/e2e/completion.test.ts asks the
 * scripts' functions directly, for every candidate.)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, writeConfig } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { Terminal, TMUX_MISSING } from '../helpers/tmux.js';

const has = (shell: string) => spawnSync(shell, ['--version'], { encoding: 'utf8' }).status === 0;

let tmp: string;
let env: Record<string, string>;
const scripts: Record<string, string> = {};

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'agency-completion-tty-'));
  const configDir = join(tmp, 'config');
  writeConfig(configDir, { current: 'work', profiles: { work: { api_key: 'wpk_work_key_0000' } } });
  mkdirSync(join(tmp, 'bin'));
  writeFileSync(join(tmp, 'bin', 'agency'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, {
    mode: 0o755,
  });
  env = {
    PATH: `${join(tmp, 'bin')}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: tmp,
    ZDOTDIR: tmp,
    TERM: 'screen',
    LANG: 'C.UTF-8',
    AGENCY_CONFIG_DIR: configDir,
  };
  mkdirSync(join(tmp, 'zfunc'));
  for (const shell of ['bash', 'zsh', 'fish']) {
    const r = await runInProcess(['completion', shell], { configDir });
    expect(r.code, r.stderr).toBe(0);
    scripts[shell] = shell === 'zsh' ? join(tmp, 'zfunc', '_agency') : join(tmp, `agency.${shell}`);
    writeFileSync(scripts[shell], r.stdout);
  }
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The shell's command line and the prompt it starts with, the script installed as the docs say. */
const SHELLS = {
  bash: {
    command: ['bash', '--norc', '--noprofile'],
    setup: () => `PS1='> '; source ${scripts.bash}; clear`,
    /** bash lists the candidates on the second TAB. */
    list: ['Tab', 'Tab'],
  },
  zsh: {
    command: ['zsh', '-f', '-i'],
    setup: () =>
      `fpath=(${join(tmp, 'zfunc')} $fpath); autoload -Uz compinit; compinit -u -D; PS1='> '; clear`,
    list: ['Tab'],
  },
  fish: {
    command: ['fish', '--no-config'],
    setup: () => `source ${scripts.fish}; function fish_prompt; echo '> '; end; clear`,
    list: ['Tab'],
  },
} as const;

for (const [name, shell] of Object.entries(SHELLS)) {
  const missing = TMUX_MISSING ?? (has(name) ? undefined : `${name} is not installed`);
  describe.skipIf(Boolean(missing))(`${name} at a real TAB${missing ? ` (skipped: ${missing})` : ''}`, () => {
    let terminal: Terminal;
    beforeAll(async () => {
      terminal = await Terminal.start({ width: 120, height: 30, env, shell: [...shell.command] });
      terminal.type(shell.setup());
      await terminal.waitFor((s) => s.trim() === '>');
    });
    afterAll(async () => terminal?.close());

    /**
     * Types a line (no Enter) after clearing the screen, then the keys; the screen once `done` holds. The
     * line editor clears the screen (C-l), not a `clear` command: a line typed while a command runs is
     * echoed by the terminal before the next prompt (`agency … id,na   > agency … id,name,`).
     */
    async function complete(line: string, keys: readonly string[], done: (screen: string) => boolean) {
      terminal.key('C-u');
      terminal.key('C-l');
      await terminal.waitFor((s) => s.trim() === '>');
      terminal.type(line, false);
      for (const key of keys) terminal.key(key);
      return terminal.waitFor(done);
    }

    it('a value completed inside a comma list takes no space: a comma continues the list', async () => {
      await complete('agency companies list --columns id,na', ['Tab'], (s) =>
        /--columns id,name\s*$/m.test(s),
      );
      terminal.type(',', false);
      const line = await terminal.waitFor((s) => /--columns id,name\s*,\s*$/m.test(s));
      expect(line).toMatch(/^> agency companies list --columns id,name,$/m);
      // The next TAB offers the rest of the list, after what was typed.
      for (const key of shell.list) terminal.key(key);
      const offered = await terminal.waitFor((s) => s.includes('id,name,owner') || /^\s*owner\b/m.test(s));
      expect(offered).toMatch(/running_campaigns/);
      expect(offered).not.toMatch(/id,name,id\b/);
      // A comma-separated choice (--status) the same.
      await complete('agency campaigns --status running,pa', ['Tab'], (s) => /running,paused\s*$/m.test(s));
      terminal.type(',', false);
      expect(await terminal.waitFor((s) => /running,paused\s*,\s*$/m.test(s))).toMatch(
        /^> agency campaigns --status running,paused,$/m,
      );
    });

    it('a value that ends its list, and a value of a one-value option, are followed by a space', async () => {
      await complete('agency companies users 1 --role gu', ['Tab'], (s) => /--role guest\s*$/m.test(s));
      terminal.type('x', false);
      expect(await terminal.waitFor((s) => /--role guest\s*x$/m.test(s))).toMatch(/--role guest x$/m);
    });

    it('help <TAB> completes command names, help companies <TAB> its subcommands', async () => {
      await complete('agency help compa', ['Tab'], (s) => /help companies\s*$/m.test(s));
      terminal.type('x', false);
      // The command name is whole: a space follows it.
      expect(await terminal.waitFor((s) => /help companies\s*x$/m.test(s))).toMatch(/help companies x$/m);
      const screen = await complete('agency help companies ', shell.list, (s) =>
        s.includes('email-accounts'),
      );
      for (const sub of ['create', 'list', 'users', 'view']) expect(screen).toContain(sub);
      const topics = await complete('agency help he', shell.list, (s) => s.includes('health'));
      expect(topics).toMatch(/agency help health/);
      const environment = await complete('agency help env', ['Tab'], (s) => /help environment\s*$/m.test(s));
      expect(environment).toMatch(/^> agency help environment$/m);
    });

    if (name === 'zsh') {
      it('shows what each command and option is for', async () => {
        const commands = await complete('agency ', ['Tab'], (s) => s.includes('webhooks'));
        expect(commands).toMatch(/^companies\s+-- list, create and view client companies$/m);
        expect(commands).toMatch(/^help\s+-- display help for command$/m);
        const options = await complete('agency keys list 1 --', ['Tab'], (s) => s.includes('--reveal'));
        expect(options).toMatch(/^--reveal\s+-- \S/m);
        // Global options too, and a short form beside its long one.
        expect(options).toMatch(/^--profile\s+-- config profile to use/m);
        const both = await complete('agency keys list 1 -', ['Tab'], (s) => s.includes('--reveal'));
        expect(both).toMatch(/--profile\s+-p\s+-- config profile to use|-p\s+--profile\s+-- config profile/);
      });
    }
  });
}
