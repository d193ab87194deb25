/**
 * A real terminal for end-to-end tests: a detached tmux session on a private socket, with a fixed
 * size, running a plain shell. Tests type into it (send-keys) and read the screen (capture-pane),
 * the way a person uses the tool. tmux is optional: callers skip with a clear message without it.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { TmuxControl } from '../../scripts/docs/tmux-control.mjs';

export const TMUX_MISSING =
  spawnSync('tmux', ['-V'], { encoding: 'utf8' }).status === 0
    ? undefined
    : 'tmux is not installed (apt-get install -y tmux); terminal tests skipped';

export interface TerminalOptions {
  width?: number;
  height?: number;
  /** The whole environment of the shell (nothing else is inherited). */
  env: Record<string, string>;
  /** The program to run; default: a bash without startup files and with a `$ ` prompt. */
  shell?: string[];
}

export class Terminal {
  readonly #socket = `agency-test-${randomBytes(6).toString('hex')}`;
  readonly width: number;
  readonly height: number;
  /**
   * What keys are sent and the screen read through: one client for the whole session, not a tmux process
   * a key or a look (each cost a fork of this process and a client: 600 of them in five test files).
   */
  #control: TmuxControl | undefined;
  /** A key the control client could not send, thrown by the next look. */
  #failed: Error | undefined;

  private constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
  }

  static async start(options: TerminalOptions): Promise<Terminal> {
    const terminal = new Terminal(options.width ?? 100, options.height ?? 30);
    const env = Object.entries(options.env).map(([name, value]) => `${name}=${value}`);
    const shell = options.shell ?? ['bash', '--norc', '--noprofile'];
    terminal.#tmux(
      ['new-session', '-d', '-s', 'main', '-x', String(terminal.width), '-y', String(terminal.height)],
      ['env', '-i', ...env, ...shell],
    );
    // Scrolled-off lines stay readable with screen({history: true}); `clear` must not push old lines there.
    terminal.#tmux(['set-option', '-g', 'history-limit', '5000']);
    terminal.#tmux(['set-option', '-g', 'scroll-on-clear', 'off'], undefined, true);
    terminal.#control = new TmuxControl(terminal.#options(), 'main');
    if (!options.shell) {
      terminal.type("PS1='$ '; PS2=''; unset PROMPT_COMMAND");
      await terminal.clear();
    }
    return terminal;
  }

  /** Types text literally, then Enter unless `enter` is false. */
  type(text: string, enter = true): void {
    if (text) this.#command(['send-keys', '-t', 'main', '-l', text]);
    if (enter) this.key('Enter');
  }

  /** Sends a key by tmux name: 'Enter', 'Tab', 'C-c'. */
  key(name: string): void {
    this.#command(['send-keys', '-t', 'main', name]);
  }

  /**
   * A command through the control client, run by the server in order with the looks that follow; its
   * failure is thrown by the next look.
   */
  #command(args: string[]): void {
    if (!this.#control) {
      this.#tmux(args);
      return;
    }
    this.#control.command(args.map(tmuxWord).join(' ')).catch((error: Error) => {
      this.#failed ??= error;
    });
  }

  /** The screen read through the control client (after every key sent before), as screen() reads it. */
  async #look(options: { escapes?: boolean; history?: boolean }): Promise<string> {
    if (this.#failed) throw this.#failed;
    const text = this.#control
      ? await this.#control.command(captureArgs(options).join(' ')).catch(() => this.screen(options))
      : this.screen(options);
    return text.replace(/\n+$/, '\n');
  }

  /** The visible screen; with `escapes`, including colour and attribute sequences. */
  screen(options: { escapes?: boolean; history?: boolean } = {}): string {
    return this.#tmux(captureArgs(options)).replace(/\n+$/, '\n');
  }

  /** Polls the screen until `done` holds (bounded); returns that screen, or throws with the last one. */
  async waitFor(
    done: (screen: string) => boolean,
    options: { escapes?: boolean; history?: boolean; timeoutMs?: number; intervalMs?: number } = {},
  ): Promise<string> {
    const deadline = Date.now() + (options.timeoutMs ?? 20_000);
    let screen = '';
    for (;;) {
      // Armed before the look, so that what the pane prints while it is read still wakes the next one.
      const printed = this.#control?.nextOutput();
      screen = await this.#look(options);
      if (done(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`Timed out waiting for the terminal; it shows:\n${screen}`);
      // The next look shortly after the pane prints (a burst of output is read once, and a program gets
      // the moment a person would leave it before answering: a prompt is printed before the program
      // turns echo off), or after the interval at the latest (the screen changes without printing only
      // when a test clears or resizes it).
      const interval = new AbortController();
      const settled = printed?.then(() => sleep(30));
      await Promise.race([
        settled,
        sleep(options.intervalMs ?? (settled ? 250 : 50), undefined, { signal: interval.signal }),
      ]).catch(() => {});
      interval.abort();
    }
  }

  /**
   * Runs a command line at the prompt and waits for the next prompt. Returns what the terminal showed
   * in between (stdout and stderr as a person sees them, including scrolled-off lines) and the exit code.
   */
  async run(
    commandLine: string,
    options: { timeoutMs?: number; escapes?: boolean } = {},
  ): Promise<{ output: string; exit: number }> {
    await this.clear();
    this.type(`echo ${START}; ${commandLine}; echo "[exit $?]"`);
    const plain = await this.waitFor((s) => END.test(s), { timeoutMs: options.timeoutMs, history: true });
    const screen = options.escapes ? await this.#look({ escapes: true, history: true }) : plain;
    const lines = screen.split('\n');
    const start = lines.findIndex((line) => stripEscapes(line) === START) + 1;
    const end = lines.findLastIndex((line) => /^\[exit \d+\]$/.test(stripEscapes(line)));
    return { output: lines.slice(start, end).join('\n'), exit: Number(END.exec(plain)?.[1]) };
  }

  /** Clears the screen and the scroll-back, so that the next capture holds only what follows. */
  async clear(): Promise<void> {
    this.type('clear');
    await this.waitFor((screen) => screen.trim() === '$');
    this.#command(['clear-history', '-t', 'main']);
  }

  /**
   * Kills the tmux server and waits until the pane's shell has exited: a shell that is still saving its
   * history (HOME may be a test's temporary directory) would make removing that directory fail.
   */
  async close(): Promise<void> {
    // tmux leaves its socket file behind when the server is killed.
    const socket = this.#tmux(['display-message', '-p', '#{socket_path}'], undefined, true).trim();
    const pids = this.#tmux(['list-panes', '-a', '-F', '#{pane_pid}'], undefined, true)
      .split('\n')
      .map(Number)
      .filter((pid) => pid > 0);
    this.#tmux(['kill-server'], undefined, true);
    await this.#control?.closed;
    if (socket.includes(this.#socket)) rmSync(socket, { force: true });
    const deadline = Date.now() + 5000;
    while (pids.some(isRunning) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  }

  /** tmux's own options: UTF-8, this terminal's server, no configuration file. */
  #options(): string[] {
    return ['-u', '-L', this.#socket, '-f', '/dev/null'];
  }

  #tmux(args: string[], command?: string[], ignoreErrors = false): string {
    const full = [...this.#options(), ...args, ...(command ? [shellQuote(command)] : [])];
    const result = spawnSync('tmux', full, { encoding: 'utf8' });
    if (result.status !== 0 && !ignoreErrors) {
      throw new Error(`tmux ${args[0]} failed (${result.status}): ${result.stderr}`);
    }
    return result.stdout;
  }
}

function captureArgs(options: { escapes?: boolean; history?: boolean }): string[] {
  const args = ['capture-pane', '-p', '-t', 'main'];
  if (options.escapes) args.push('-e');
  if (options.history) args.push('-S', '-');
  return args;
}

/**
 * Whether a process has yet to exit. A shell whose tmux server was killed is reparented to init, and may
 * stay a zombie (exited, not yet reaped) for a second or more: kill(pid, 0) still finds it, so /proc's
 * state is read where there is one (close() waited 1.6 s for such a zombie in a third of its calls).
 */
function isRunning(pid: number): boolean {
  if (existsSync('/proc/self/stat')) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return false;
    }
    // "pid (command) state ...": the command may hold spaces and parentheses, the state follows the last ')'.
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const START = '__agency_test_output__';
const END = /\n\[exit (\d+)\]\n\$\n?$/;

export function stripEscapes(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing escape sequences is the point
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
}

/**
 * One word of a tmux command line (its own parser, not a shell's): a plain word as it is, anything else
 * in double quotes where every ASCII sign is escaped (\$ is no variable, \; no separator, \~ no home)
 * and control characters are written as escapes; letters, digits, spaces and other Unicode stay.
 */
function tmuxWord(word: string): string {
  if (/^[\w@+=:,./-]+$/.test(word)) return word;
  let quoted = '';
  for (const char of word) {
    const code = char.codePointAt(0) as number;
    if (/^[\p{L}\p{N} ]$/u.test(char) || code >= 0x80) quoted += char;
    else if (code < 0x20 || code === 0x7f) quoted += `\\${code.toString(8).padStart(3, '0')}`;
    else quoted += `\\${char}`;
  }
  return `"${quoted}"`;
}

/** One shell word per argument, for the command string tmux hands to /bin/sh. */
function shellQuote(words: readonly string[]): string {
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`)).join(' ');
}
