// A tmux control-mode client (`tmux -C attach`): commands written to it are answered between `%begin`
// and `%end` lines (flag 1: sent by this client), and `%output %<pane>` lines tell when a pane printed.
// Reading a screen through it costs no process, where each `tmux capture-pane` is one; a terminal that
// is read many times a second (the docs' examples, the tests' terminals) keeps one of these instead.
import { spawn } from 'node:child_process';

export class TmuxControl {
  #child;
  /** Callers waiting for the answer of each command sent, in order. */
  #answers = [];
  /** Callers waiting for a pane (or any pane: '*') to print. */
  #wakers = [];
  #partial = '';
  #block;
  #failed;

  /** `tmuxArgs`: how to reach the server (`-L name` or `-S socket`, ...); `session`: the one to attach. */
  constructor(tmuxArgs, session) {
    this.#child = spawn('tmux', [...tmuxArgs, '-C', 'attach-session', '-t', session], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.#child.stdout.setEncoding('utf8').on('data', (chunk) => this.#read(chunk));
    this.#child.stdin.on('error', () => {});
    /** Settles when the client has exited (the server was killed). */
    this.closed = new Promise((resolve) => {
      this.#child.on('error', (error) => this.#fail(error));
      this.#child.on('close', () => {
        this.#fail(new Error('the tmux control client has exited'));
        resolve();
      });
    });
  }

  /** Runs a tmux command line (words quoted for tmux if they need it); resolves with its output. */
  command(line) {
    if (this.#failed) return Promise.reject(this.#failed);
    return new Promise((resolve, reject) => {
      this.#answers.push({ resolve, reject });
      this.#child.stdin.write(`${line}\n`);
    });
  }

  /** Settles when `pane` (default: any pane) next prints something, or the client is gone. */
  nextOutput(pane = '*') {
    if (this.#failed) return Promise.resolve();
    return new Promise((resolve) => this.#wakers.push({ pane, resolve }));
  }

  #read(chunk) {
    const lines = (this.#partial + chunk).split('\n');
    this.#partial = lines.pop() ?? '';
    for (const line of lines) {
      if (this.#block) {
        const end = /^%(end|error) \d+ \d+ 1$/.exec(line);
        if (!end) {
          this.#block.push(line);
          continue;
        }
        const text = this.#block.map((l) => `${l}\n`).join('');
        this.#block = undefined;
        const answer = this.#answers.shift();
        if (end[1] === 'end') answer?.resolve(text);
        else answer?.reject(new Error(`tmux: ${text}`));
      } else if (/^%begin \d+ \d+ 1$/.test(line)) {
        this.#block = [];
      } else if (line.startsWith('%output ')) {
        const pane = line.split(' ', 2)[1];
        const woken = this.#wakers.filter((w) => w.pane === '*' || w.pane === pane);
        this.#wakers = this.#wakers.filter((w) => !woken.includes(w));
        for (const waker of woken) waker.resolve();
      }
    }
  }

  #fail(error) {
    this.#failed ??= error;
    for (const answer of this.#answers.splice(0)) answer.reject(error);
    for (const waker of this.#wakers.splice(0)) waker.resolve();
  }
}
