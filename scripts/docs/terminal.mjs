// A real terminal for the docs' console examples: a tmux server on a private socket whose windows are
// 80 columns wide. Each command runs in a window of its own (through bash); what the window shows when
// the command has ended is its output, as a person at an 80-column terminal sees it (tables fitted to
// the width, progress lines gone, long lines wrapped). Asynchronous throughout: the sandbox answering
// the commands runs in this process.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { TmuxControl } from './tmux-control.mjs';

const exec = promisify(execFile);

export async function tmuxVersion() {
  try {
    return (await exec('tmux', ['-V'])).stdout.trim();
  } catch {
    return undefined;
  }
}

export class Terminal {
  /** The server's socket, in a directory of its own that close() removes (tmux leaves the file). */
  #dir = mkdtempSync(path.join(tmpdir(), 'agency-docs-tmux-'));
  #socket = path.join(this.#dir, 'socket');
  #started = false;
  /** Scripts written so far (each example's is a file in #dir). */
  #scripts = 0;
  /** Screens are read, keys sent and windows closed through one control client (no process each). */
  #control;

  constructor({ width = 80, height = 100 } = {}) {
    this.width = width;
    this.height = height;
  }

  async #tmux(...args) {
    return (await exec('tmux', ['-S', this.#socket, ...args], { maxBuffer: 1 << 24 })).stdout;
  }

  async start() {
    await this.#tmux(
      'new-session',
      '-d',
      '-s',
      'docs',
      '-x',
      String(this.width),
      '-y',
      String(this.height),
      'sleep 86400',
    );
    this.#started = true;
    // Nothing scrolled off is lost.
    await this.#tmux('set-option', '-g', 'history-limit', '20000');
    this.#control = new TmuxControl(['-S', this.#socket], 'docs');
  }

  /** A command through the control client; its words are pane ids, options, and text without quotes. */
  async #send(...args) {
    return this.#control.command(args.map((word) => `'${word}'`).join(' '));
  }

  /**
   * Runs `command` with bash in `cwd` with exactly `env`, and returns the screen once it ended: the
   * lines as shown, trailing blanks dropped. With `stopAfterMs`, a command that runs until Ctrl-C gets
   * one once it has shown something and then nothing new for that long (not a fixed time from the
   * start: on a busy machine its start alone may take seconds). `answers` are typed one by one, each
   * when the command waits at a prompt (the last line ends in ':', '?' or ']', and stays so).
   *
   * The end is a line the shell prints after the command, not the end of the process: a pty hands its
   * last bytes to tmux asynchronously, so a window whose process has exited may never show them (a
   * fast `cat` then shows nothing). The shell stays alive after that line until the window is closed.
   */
  async run(command, { cwd, env, stopAfterMs, answers = [], timeoutMs = 60_000 }) {
    const variables = Object.entries(env).map(([name, value]) => `${name}=${value}`);
    const done = `--- end of example ${randomBytes(6).toString('hex')} ---`;
    // Ctrl-C stops the command, not the shell around it (a trapped signal is default again in children).
    // In a file: the window is opened through the control client (no tmux process per example), whose
    // command lines cannot hold the script's line breaks.
    this.#scripts += 1;
    const script = path.join(this.#dir, `example-${this.#scripts}.sh`);
    writeFileSync(script, `trap : INT\n${command}\nprintf '\\n%s\\n' '${done}'\nexec sleep 3600\n`);
    const pane = (
      await this.#send(
        'new-window',
        '-d',
        '-P',
        '-F',
        '#{pane_id}',
        '-t',
        'docs',
        '-c',
        cwd,
        '--',
        'env',
        '-i',
        ...variables,
        'bash',
        '--norc',
        '--noprofile',
        script,
      )
    ).trim();
    try {
      const started = Date.now();
      let stopped = false;
      let shown = '';
      let shownSince = started;
      let answeredAt = '';
      const toType = [...answers];
      for (;;) {
        const screen = await this.#screen(pane);
        const lines = screen.split('\n');
        const end = lines.indexOf(done);
        if (end !== -1) return lines.slice(0, end).join('\n').replace(/\n+$/, '');
        if (screen !== shown) [shown, shownSince] = [screen, Date.now()];
        const quiet = shown === '' ? 0 : Date.now() - shownSince;
        if (toType.length > 0 && screen !== answeredAt && /[:?\]]$/.test(screen) && quiet > 300) {
          await this.#tmux('send-keys', '-t', pane, '-l', toType.shift());
          await this.#send('send-keys', '-t', pane, 'Enter');
          answeredAt = screen;
        }
        if (stopAfterMs !== undefined && !stopped) {
          if (quiet > stopAfterMs) {
            await this.#send('send-keys', '-t', pane, 'C-c');
            stopped = true;
          }
        }
        if (Date.now() - started > timeoutMs) {
          throw new Error(`\`${command}\` did not end within ${timeoutMs / 1000} s; its screen:\n${screen}`);
        }
        // The next look shortly after the pane prints, or after 40 ms at the latest (the quiet times above).
        const interval = new AbortController();
        await Promise.race([
          this.#control.nextOutput(pane).then(() => sleep(10)),
          sleep(40, undefined, { signal: interval.signal }).catch(() => {}),
        ]);
        interval.abort();
      }
    } finally {
      await this.#send('kill-pane', '-t', pane).catch(() => {});
    }
  }

  /** -J: a line the terminal wrapped at its edge (long JSON, a key) comes back whole, not cut mid-word. */
  async #screen(pane) {
    const text = await this.#send('capture-pane', '-p', '-J', '-S', '-', '-t', pane);
    return text
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n')
      .replace(/\n+$/, '');
  }

  async close() {
    if (this.#started) await this.#tmux('kill-server').catch(() => {});
    await this.#control?.closed;
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
