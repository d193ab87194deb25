/**
 * The interactive side, tested the way a person uses it: the built binary typed into a real terminal
 * (a tmux pane of a fixed size) and the screen read back — help and the overview, tables that fit the
 * width, colour and NO_COLOR, counts and empty states, masked keys, the progress line, the hidden
 * login prompt and `profiles list`. Requests and the config file are checked too, where they matter.
 * What the same commands print into a pipe is run in this process (test/helpers/in-process.ts).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { MAIN_AGENCY_ID, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { BIN, CANARY_KEY, type Harness, startHarness, writeConfig } from '../helpers/cli.js';
import { activeCompany, direct, inactiveCompany, owner, sent } from '../helpers/core.js';
import { readTable, wholeText } from '../helpers/table-text.js';
import { stripEscapes, Terminal, TMUX_MISSING } from '../helpers/tmux.js';

const LONG_NAME = 'The Extraordinarily Long Company Name Of Northern Wisconsin Plumbing And Heating Inc';
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for escape sequences is the point
const ANY_ESCAPE = /\u001b\[/;
/** A frame of the progress spinner, or the ellipsis that ends a progress line. */
const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]|…/;

let h: Harness;
/**
 * Answers every request after 200 ms, so that paging through the companies takes a moment: while a list
 * of 120 pages, its progress line ("50 of 120", then "100 of 120") stays 400 ms on the screen, where the
 * test looks for it at each change the terminal prints (the spinner turns every 120 ms).
 */
let slow: Sandbox;
/** An agency without companies. */
let empty: Sandbox;
let tmp: string;
let longId: number;
let term: Terminal;
let narrow: Terminal;
/** The login tests' terminal (120 columns), started by the first of them. */
let loginTerm: Terminal | undefined;

function terminalEnv(configDir: string): Record<string, string> {
  return {
    PATH: `${join(tmp, 'bin')}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: tmp,
    TERM: 'screen',
    LANG: 'C.UTF-8',
    AGENCY_CONFIG_DIR: configDir,
  };
}

beforeAll(async () => {
  h = await startHarness({}, { inProcess: true });
  slow = await startSandbox({ hqKey: CANARY_KEY, latencyMs: 200 });
  empty = await startSandbox({ hqKey: CANARY_KEY, seed: { companies: 0 } });
  tmp = mkdtempSync(join(tmpdir(), 'agency-tty-'));
  const created = await direct(h.sandbox, '/v2/agency/companies', {
    body: { companies: [{ name: LONG_NAME }] },
  });
  expect(created.status).toBe(201);
  longId = created.body.companies[0].id;
  h.sandbox.reset();
  writeConfig(h.configDir, {
    current: 'test',
    profiles: {
      test: { api_key: CANARY_KEY, base_url: h.sandbox.baseUrl },
      slow: { api_key: CANARY_KEY, base_url: slow.baseUrl },
      empty: { api_key: CANARY_KEY, base_url: empty.baseUrl },
    },
  });
  // Typed commands say `agency ...`, as for an installed tool.
  const bin = join(tmp, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'agency'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, {
    mode: 0o755,
  });
  if (!TMUX_MISSING) {
    term = await Terminal.start({ width: 80, height: 40, env: terminalEnv(h.configDir) });
    narrow = await Terminal.start({ width: 50, height: 40, env: terminalEnv(h.configDir) });
  }
});
afterAll(async () => {
  // close() waits for each pane's shell to exit: bash saves its history into HOME (tmp) as it goes.
  await Promise.all([
    term?.close(),
    narrow?.close(),
    loginTerm?.close(),
    h?.close(),
    slow?.close(),
    empty?.close(),
  ]);
  rmSync(tmp, { recursive: true, force: true, maxRetries: 5 });
});

/** Lines of terminal output without trailing blank lines. */
function screenLines(output: string): string[] {
  return output.replace(/\n+$/, '').split('\n');
}

// Every command's help (purpose, options, examples, what it prints) is checked by walking the command
// tree in test/commands/help.test.ts; these are the mistakes a terminal user makes.
describe('mistakes (piped)', () => {
  it('a mistyped command or option suggests the right one, exit 2, nothing sent', async () => {
    for (const [args, suggestion] of [
      [['compnies', 'list'], 'companies'],
      [['companies', 'lst'], 'list'],
      [['key', 'list', '1001'], 'keys'],
      [['companies', 'list', '--inactiv'], '--inactive'],
    ] as const) {
      const r = await h.run([...args]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`(Did you mean ${suggestion}?)`);
    }
    expect(sent(h.sandbox)).toEqual([]);
  });
});

describe.skipIf(Boolean(TMUX_MISSING))(
  TMUX_MISSING ? `terminal (skipped: ${TMUX_MISSING})` : 'terminal',
  () => {
    it('`agency` alone: a short grouped overview that fits 80 columns', async () => {
      const piped = await h.run([]);
      const { output, exit } = await term.run('agency');
      expect(exit).toBe(0);
      const lines = screenLines(output);
      // Nothing wrapped: what the terminal shows is line for line what the program wrote.
      expect(lines).toEqual(screenLines(piped.stdout));
      // Every command path has one line (webhooks, campaigns, blacklist, plan and apply included): no
      // summary wraps onto a continuation line, and the whole overview stays about one screen.
      expect(lines.filter((line) => /^ {20,}\S/.test(line))).toEqual([]);
      // (67 lines with the campaign verbs and the four of `history`: a tall terminal's screen.)
      expect(lines.length).toBeLessThan(70);
      // Every command sits under a heading of its own kind (src/commands/index.ts), none under "Other".
      expect(lines).not.toContain('Other');
      for (const heading of ['Companies and keys', 'Fleet health', 'Accounts', 'Setup', 'Examples'])
        expect(lines).toContain(heading);
      for (const command of [
        'companies list',
        'keys create',
        'webhooks subscribe',
        'inventory',
        'health',
        'guests invite',
        'login',
        'profiles use',
        'sandbox',
      ]) {
        expect(output).toMatch(new RegExp(`^ {2}${command}\\s{2,}\\S`, 'm'));
      }
      expect(output).toContain('agency <command> --help');
      // The full reference stays one flag away.
      expect((await h.run(['--help'])).stdout).toContain('Exit codes:');
    });

    it('a table fits the width: a long name wraps in its column (never cut), a count underneath', async () => {
      const all = h.sandbox.store.companies(MAIN_AGENCY_ID);
      const lastPage = Math.ceil(all.length / 50);
      const expected = all.slice((lastPage - 1) * 50);
      for (const terminal of [term, narrow]) {
        const { output, exit } = await terminal.run(`agency companies list --page ${lastPage}`);
        expect(exit).toBe(0);
        const lines = screenLines(output);
        expect(lines[0]).toMatch(/^ID {2,}NAME\b/);
        // The rows (an outlier name on several lines of its column), then on stderr which columns did
        // not fit (issue 14) and the count.
        const table = readTable(output, ['ID', 'NAME']);
        expect(table.rows.map((row) => row.ID?.join(''))).toEqual(expected.map((c) => String(c.id)));
        for (const line of lines) expect(line.length).toBeLessThanOrEqual(terminal.width);
        const long = table.rows.find((row) => row.ID?.[0] === String(longId));
        expect(wholeText(long?.NAME, LONG_NAME)).toBe(true);
        expect(long?.NAME?.length).toBeGreaterThan(1);
        expect(output).not.toContain('…');
        expect(lines.slice(table.lines.length).join(' ')).toMatch(/columns hidden .* use --columns/);
        expect(lines.at(-1)).toBe(
          `${expected.length} companies (page ${lastPage} of ${lastPage}; ${all.length} in all)`,
        );
      }
    });

    it('colours states on a terminal only: not with NO_COLOR, --no-color, or into a pipe', async () => {
      const inactive = inactiveCompany(h.sandbox);
      const coloured = await term.run('agency companies list --limit 10', { escapes: true });
      expect(coloured.exit).toBe(0);
      // tmux re-encodes attributes; what matters is that 'true' is green and 'false' red.
      expect(coloured.output).toContain('\u001b[32mtrue');
      expect(coloured.output).toContain('\u001b[31mfalse');
      const error = await term.run(`agency me --company ${inactive.id}`, { escapes: true });
      expect(error.exit).toBe(5);
      expect(error.output).toContain('\u001b[31merror:');

      for (const command of [
        'NO_COLOR=1 agency companies list --limit 10',
        'agency --no-color companies list --limit 10',
        `NO_COLOR=1 agency me --company ${inactive.id}`,
      ]) {
        const plain = await term.run(command, { escapes: true });
        expect(plain.output).toMatch(/^ID {2,}NAME|^error:/m);
        expect(plain.output).not.toMatch(ANY_ESCAPE);
      }

      const piped = await term.run('FORCE_COLOR=1 agency companies list --limit 10 | cat', { escapes: true });
      expect(piped.exit).toBe(0);
      expect(piped.output).not.toMatch(ANY_ESCAPE);
      expect(piped.output).not.toContain('NAME');
      expect(screenLines(piped.output)).toHaveLength(10);
    });

    it('keys are masked in the table unless --reveal', async () => {
      const company = activeCompany(h.sandbox);
      const keys = h.sandbox.store.keysOf(company.id, owner(h.sandbox).id);
      expect(keys.length).toBeGreaterThan(0);
      const masked = await term.run(`agency keys list ${company.id}`);
      expect(masked.exit).toBe(0);
      for (const { key, label } of keys) {
        expect(masked.output).not.toContain(key);
        expect(masked.output).toMatch(new RegExp(`^${key.slice(0, 4)}…${key.slice(-4)} +${label}$`, 'm'));
      }
      expect(masked.output).toContain('--reveal');
      const revealed = await term.run(`agency keys list ${company.id} --reveal`);
      for (const { key } of keys) expect(revealed.output).toContain(key);
    });

    it('an empty list says what to do next on a terminal, and nothing at all into a pipe', async () => {
      const { output, exit } = await term.run('agency -p empty companies list');
      expect(exit).toBe(0);
      expect(output.trim()).toBe(
        'No companies yet — create one with: agency companies create --name "Acme Ltd"',
      );
      const piped = await h.run(['-p', 'empty', 'companies', 'list']);
      expect(piped).toMatchObject({ code: 0, stdout: '', stderr: '' });
    });

    it('paging shows one updating progress line on stderr, cleared before the table', async () => {
      const total = slow.store.companies(MAIN_AGENCY_ID).length;
      expect(total).toBeGreaterThan(100);
      await term.clear();
      term.type('agency -p slow companies list --inactive; agency -p slow companies list; echo "[done $?]"');
      // Seen while the second command pages: "⠙ 50 of 120 companies…" on a single line.
      const during = await term.waitFor((s) => new RegExp(`\\b(50|100) of ${total} companies…`).test(s), {
        intervalMs: 25,
      });
      expect(during.split('\n').filter((line) => line.includes(`of ${total} companies…`))).toHaveLength(1);
      const after = await term.waitFor((s) => /\[done 0\]$/m.test(s), { history: true });
      expect(after).not.toContain('companies…');
      const inactive = slow.store.companies(MAIN_AGENCY_ID, { active: false }).length;
      expect(after).toContain(`\n${inactive} companies\n`);
    });

    it('no spinner when stdout is piped or redirected, even with stderr on the terminal (as gh and npm)', async () => {
      // `| head` prints its rows on the same screen: a spinner on stderr would share their lines and its
      // last frame would stay after the closed pipe ended the run (second new-user pass, finding 6).
      for (const line of [
        // (cut: rows no wider than the terminal, one screen line each)
        'agency inventory | head -3 | cut -f1,2',
        'agency health --fail-on none | head -2 | cut -f1,2',
        'agency -p slow companies list >/dev/null',
      ]) {
        await term.clear();
        let spun = '';
        term.type(`${line}; echo "[done $?]"`);
        const after = await term.waitFor(
          (screen) => {
            if (SPINNER.test(screen)) spun = screen;
            return /\[done \d+\]$/m.test(screen);
          },
          { intervalMs: 25, history: true },
        );
        expect(spun, line).toBe('');
        const printed = after.split('\n').slice(
          1,
          after.split('\n').findIndex((l) => l.startsWith('[done')),
        );
        if (line.includes('head')) {
          expect(printed, after).toHaveLength(Number(/head -(\d)/.exec(line)?.[1]));
          for (const row of printed) expect(row, after).toMatch(/^\d+\s+\S/);
        } else expect(printed, after).toEqual([]);
      }
    });

    it('no progress line when stderr is not a terminal', async () => {
      const piped = await h.run(['-p', 'slow', 'companies', 'list']);
      expect(piped.code).toBe(0);
      expect(piped.stderr).toBe('');
      const errFile = join(tmp, 'progress.err');
      const { exit } = await term.run(`agency -p slow companies list --limit 120 >/dev/null 2>${errFile}`);
      expect(exit).toBe(0);
      expect(readFileSync(errFile, 'utf8')).toBe('');
    });
  },
);

describe.skipIf(Boolean(TMUX_MISSING))(
  TMUX_MISSING ? `login (skipped: ${TMUX_MISSING})` : 'login in a terminal',
  () => {
    /**
     * A config dir of its own whose current profile "test" already has a key, and the login terminal (one
     * for the four tests, not one each), its shell pointed at that dir and its screen cleared. A test that
     * fails may leave a prompt waiting there: the next one then starts a terminal of its own.
     */
    async function loginTerminal(): Promise<{ terminal: Terminal; configDir: string }> {
      const configDir = mkdtempSync(join(tmp, 'login-'));
      writeConfig(configDir, {
        current: 'test',
        profiles: { test: { api_key: CANARY_KEY, base_url: h.sandbox.baseUrl } },
      });
      loginTerm ??= await Terminal.start({ width: 120, height: 30, env: terminalEnv(configDir) });
      const terminal = loginTerm;
      onTestFailed(async () => {
        loginTerm = undefined;
        await terminal.close();
      });
      const pointed = await terminal.run(`export AGENCY_CONFIG_DIR=${configDir}; echo "$AGENCY_CONFIG_DIR"`);
      expect(pointed.output).toBe(configDir);
      await terminal.clear();
      return { terminal, configDir };
    }
    const config = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));

    it('hides the key, says it is an HQ key of which agency, and makes the profile current when asked', async () => {
      const { terminal, configDir } = await loginTerminal();
      h.sandbox.reset();
      const tom = h.sandbox.users[1] as Sandbox['users'][number];
      terminal.type(`agency login -p work --base-url ${h.sandbox.baseUrl}; echo "[exit $?]"`);
      await terminal.waitFor((s) => s.includes('API key (typing is hidden): '.trim()));
      terminal.type(tom.hqKey);
      const asked = await terminal.waitFor((s) => s.includes('[Y/n]'));
      expect(asked).toContain(`Paste the API key for profile "work" (${h.sandbox.baseUrl}).`);
      expect(asked).toContain(
        '✓ Key verified: HQ key of agency "Northwind Outreach".\n  User: Tom Teammate (AGENCY_MEMBER)\n',
      );
      expect(asked).toContain('Make "work" the current profile (now "test")? [Y/n]');
      terminal.type('y');
      const done = await terminal.waitFor((s) => /\[exit \d+\]/.test(s), { history: true });
      expect(done).toContain('[exit 0]');
      expect(done).toContain('✓ Saved the key in profile "work" (current), in the config file.');
      // Typed, verified and saved: at no point did the key reach the screen.
      expect(done).not.toContain(tom.hqKey);
      expect(done).not.toContain(tom.hqKey.slice(-8));
      expect(config(configDir)).toEqual({
        current: 'work',
        profiles: {
          test: { api_key: CANARY_KEY, base_url: h.sandbox.baseUrl },
          work: { api_key: tom.hqKey, base_url: h.sandbox.baseUrl },
        },
      });
      expect(sent(h.sandbox).map((r) => [r.method, r.path, r.headers['x-api-key']])).toEqual([
        ['GET', '/v1/me', tom.hqKey],
      ]);

      // profiles list: the new current profile is the one in use; keys masked.
      const { output } = await terminal.run('agency profiles list');
      expect(output).toMatch(/^work +\* in use +http:\S+ +wpk_…\w{4} +file$/m);
      expect(output).toMatch(/^test {2,}http:/m);
      expect(output).not.toContain(tom.hqKey);
      expect(output).toContain('2 profiles');
      const overridden = await terminal.run('AGENCY_PROFILE=test agency profiles list');
      expect(overridden.output).toMatch(/^test +\* in use/m);
      expect(overridden.output).toContain(
        'In use: "test" (from AGENCY_PROFILE); the saved current profile is "work".',
      );
    });

    it('says a client key is a client key of which company, and keeps the current profile on "n"', async () => {
      const { terminal, configDir } = await loginTerminal();
      const company = activeCompany(h.sandbox);
      const clientKey = h.sandbox.store.keysOf(company.id)[0]?.key as string;
      expect(clientKey).toBeTruthy();
      terminal.type(`agency login -p client --base-url ${h.sandbox.baseUrl}; echo "[exit $?]"`);
      await terminal.waitFor((s) => s.includes('(typing is hidden):'));
      terminal.type(clientKey);
      const asked = await terminal.waitFor((s) => s.includes('[Y/n]'));
      expect(asked).toContain(
        `✓ Key verified: client key of company "${company.name}" (id ${company.id}).\n  Agency: "Northwind Outreach"\n`,
      );
      expect(asked).toMatch(
        /A client key works for me, mailboxes, webhooks and campaigns; companies,\n +keys, inventory and the other agency commands need/,
      );
      terminal.type('n');
      const done = await terminal.waitFor((s) => /\[exit \d+\]/.test(s), { history: true });
      expect(done).toContain('[exit 0]');
      expect(done).toContain(
        '✓ Saved the key in profile "client" (use it with -p client), in the config file.',
      );
      expect(done).not.toContain(clientKey);
      const saved = config(configDir);
      expect(saved.current).toBe('test');
      expect(saved.profiles.client).toEqual({ api_key: clientKey, base_url: h.sandbox.baseUrl });
    });

    it('Ctrl-C at the prompt, or a key the service refuses, saves nothing', async () => {
      const { terminal, configDir } = await loginTerminal();
      const before = readFileSync(join(configDir, 'config.json'), 'utf8');
      terminal.type('agency login -p work; echo "[exit $?]"');
      await terminal.waitFor((s) => s.includes('(typing is hidden):'));
      terminal.type('wpk_half_typed', false);
      terminal.key('C-c');
      const interrupted = await terminal.waitFor((s) => /\[exit \d+\]/.test(s));
      expect(interrupted).toContain('[exit 130]');
      expect(interrupted).not.toContain('wpk_half_typed');

      await terminal.clear();
      const wrong = 'wpk_hq_NOTAKEY0000000000000000';
      terminal.type(`agency login -p work --base-url ${h.sandbox.baseUrl}; echo "[exit $?]"`);
      await terminal.waitFor((s) => s.includes('(typing is hidden):'));
      terminal.type(wrong);
      const refused = await terminal.waitFor((s) => /\[exit \d+\]/.test(s), { history: true });
      expect(refused).toContain('[exit 3]');
      expect(refused).toMatch(/error: .*401/);
      expect(refused).not.toContain(wrong);
      expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toBe(before);
    });
    it('Ctrl-C at "make it current?" is an interruption like any other: exit 130, nothing saved', async () => {
      const { terminal, configDir } = await loginTerminal();
      const before = readFileSync(join(configDir, 'config.json'), 'utf8');
      const tom = h.sandbox.users[1] as Sandbox['users'][number];
      terminal.type(`agency login -p work --base-url ${h.sandbox.baseUrl}; echo "[exit $?]"`);
      await terminal.waitFor((s) => s.includes('(typing is hidden):'));
      terminal.type(tom.hqKey);
      await terminal.waitFor((s) => s.includes('[Y/n]'));
      terminal.key('C-c');
      const done = await terminal.waitFor((s) => /\[exit \d+\]/.test(s), { history: true });
      expect(done).toContain('[exit 130]');
      expect(done).toMatch(/\[Y\/n\] *\nInterrupted\.\n/);
      expect(done).not.toMatch(/internal error|Aborted with/);
      expect(done).not.toContain(tom.hqKey);
      expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toBe(before);
    });

    it('the words before the prompt are wrapped to a narrow terminal (50 columns), never cut', async () => {
      // They were written whole, and the terminal cut them: "API & integ" / "rations".
      await narrow.clear();
      narrow.type(`agency login -p narrow --base-url ${h.sandbox.baseUrl}; echo "[exit $?]"`);
      const asked = await narrow.waitFor((s) => s.includes('(typing is hidden):'));
      narrow.key('C-c');
      await narrow.waitFor((s) => /\[exit \d+\]/.test(s));
      const prose = asked.slice(asked.indexOf('Paste the API key'), asked.indexOf('API key (typing'));
      // Lines broken between words only: joined with a space, they are the two sentences again.
      expect(
        prose
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean)
          .join(' '),
      ).toBe(
        `Paste the API key for profile "narrow" (${h.sandbox.baseUrl}). Find it in Woodpecker under Settings → Add-ons → API & integrations → API keys.`,
      );
    });
  },
);

// Keep the terminal's own view honest: what capture-pane returns is what a person sees.
describe.skipIf(Boolean(TMUX_MISSING))(TMUX_MISSING ? 'harness (skipped)' : 'terminal harness', () => {
  it('reads back exactly what was printed, and the exit code', async () => {
    const { output, exit } = await term.run("printf 'a\\tb\\n'; exit_with() { return $1; }; exit_with 7");
    expect(stripEscapes(output)).toBe('a       b');
    expect(exit).toBe(7);
  });

  it('types text as it is: every ASCII sign (quotes, $, ;, #, ~, braces, backslashes) and Unicode', async () => {
    const text = `~a'b"c$HOME;d #e{f}g\\h\\n%i!j&k|l*m?n[o]p<q>r\`s^t=u+v,w.x/y:z@0 é…✓`;
    const { output, exit } = await term.run(`printf '%s\\n' '${text.replaceAll("'", "'\\''")}'`);
    expect(exit).toBe(0);
    expect(output).toBe(text);
  });
});
