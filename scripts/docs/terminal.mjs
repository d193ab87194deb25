// A real terminal for the docs' console examples: a tmux server on a private socket whose windows are
// 80 columns wide. Each command runs in a window of its own (through bash); what the window shows when
// the command has ended is its output, as a person at an 80-column terminal sees it (tables fitted to
// the width, progress lines gone, long lines wrapped). Asynchronous throughout: the sandbox answering
// the commands runs in this process.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const exec = promisify(execFile);

export async function tmuxVersion() {
  try {
    return (await exec('tmux', ['-V'])).stdout.trim();
  } catch {
    return undefined;
  }
}

export class Terminal {
  #socket = `agency-docs-${randomBytes(6).toString('hex')}`;
  #started = false;

  constructor({ width = 80, height = 100 } = {}) {
    this.width = width;
    this.height = height;
  }

  async #tmux(...args) {
    return (await exec('tmux', ['-L', this.#socket, ...args], { maxBuffer: 1 << 24 })).stdout;
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
    // A window stays readable after its command ended; nothing scrolled off is lost.
    await this.#tmux('set-option', '-g', 'remain-on-exit', 'on');
    await this.#tmux('set-option', '-g', 'history-limit', '20000');
  }

  /**
   * Runs `command` with bash in `cwd` with exactly `env`, and returns the screen once it ended: the
   * lines as shown, trailing blanks dropped. With `stopAfterMs`, a command that runs until Ctrl-C gets
   * one once it has shown something and then nothing new for that long (not a fixed time from the
   * start: on a busy machine its start alone may take seconds).
   */
  async run(command, { cwd, env, stopAfterMs, timeoutMs = 60_000 }) {
    const variables = Object.entries(env).map(([name, value]) => `${name}=${value}`);
    const pane = (
      await this.#tmux(
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
        '-c',
        command,
      )
    ).trim();
    try {
      const started = Date.now();
      let stopped = false;
      let shown = '';
      let shownSince = started;
      for (;;) {
        const [dead, status] = (
          await this.#tmux('display-message', '-p', '-t', pane, '#{pane_dead} #{pane_dead_status}')
        )
          .trim()
          .split(' ');
        if (dead === '1') return { status: Number(status), screen: await this.#screen(pane) };
        const elapsed = Date.now() - started;
        if (stopAfterMs !== undefined && !stopped) {
          const screen = await this.#screen(pane);
          if (screen !== shown) [shown, shownSince] = [screen, Date.now()];
          else if (shown !== '' && Date.now() - shownSince > stopAfterMs) {
            await this.#tmux('send-keys', '-t', pane, 'C-c');
            stopped = true;
          }
        }
        if (elapsed > timeoutMs) {
          const screen = await this.#screen(pane);
          throw new Error(`\`${command}\` did not end within ${timeoutMs / 1000} s; its screen:\n${screen}`);
        }
        await sleep(40);
      }
    } finally {
      await this.#tmux('kill-pane', '-t', pane).catch(() => {});
    }
  }

  async #screen(pane) {
    const text = await this.#tmux('capture-pane', '-p', '-S', '-', '-t', pane);
    return text
      .split('\n')
      .filter((line) => !/^Pane is dead/.test(line))
      .map((line) => line.trimEnd())
      .join('\n')
      .replace(/\n+$/, '');
  }

  async close() {
    if (this.#started) await this.#tmux('kill-server').catch(() => {});
  }
}
