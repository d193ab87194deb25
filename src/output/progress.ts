/**
 * A single updating progress line on stderr, only when stdout and stderr are both the terminal (as gh
 * and npm: `agency inventory | head` prints rows to the same screen, where a spinner would share their
 * lines), and not with --debug, whose log lines would tear it, nor with -q; nothing at all otherwise
 * (the contract: no terminal, no progress). It is cleared before the result prints and when the run ends.
 */
import type { PaginationData } from '../api/types.js';
import type { Writer } from './writer.js';

export interface Progress {
  /** After each page or item: `done` so far, and the page's pagination data when there is one. */
  update: (pagination: PaginationData | undefined, done: number) => void;
  /** Clears the line; safe to call more than once. */
  done: () => void;
}

/**
 * Progress for a host that is not a terminal (`agency mcp` turns it into the protocol's progress
 * notifications). Each progress line opens a phase (companies listed, then audited), whose steps say
 * the count so far, the total when known, and the line a terminal would show.
 */
export type ProgressSink = () => (done: number, total: number | undefined, message: string) => void;

const SILENT: Progress = { update: () => {}, done: () => {} };
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const TICK_MS = 120;
/** A quick command shows no progress at all; only one that keeps the user waiting does. */
const WAITING_AFTER_MS = 600;

/**
 * `noun` completes "<done>[ of <total>] <noun>…": 'companies' → "50 of 127 companies…",
 * 'of 10 keys created' → "3 of 10 keys created…". `total`: the count a host's progress goes up to, when
 * the noun says it (a page's own total is used otherwise).
 */
export function progressLine(
  rt: { out: Writer; ctx: { debug: boolean }; progress?: ProgressSink | undefined },
  noun: string,
  total?: number,
): Progress {
  const { out, progress: sink } = rt;
  if (sink) {
    const step = sink();
    return {
      update: (pagination, done) => {
        const pageTotal = pagination?.total_elements || undefined;
        step(done, pageTotal ?? total, `${done}${pageTotal ? ` of ${pageTotal}` : ''} ${noun}`);
      },
      done: () => {},
    };
  }
  if (!out.canShowProgress || rt.ctx.debug) return SILENT;
  let text: string | undefined;
  let frame = 0;
  let ticker: NodeJS.Timeout | undefined;
  const show = (next: string) => {
    text = next;
    out.progress(`${FRAMES[frame++ % FRAMES.length]} ${text}`);
    // The spinner shows that a slow page is still on its way; unref'd so it never holds the process.
    ticker ??= setInterval(() => text !== undefined && show(text), TICK_MS).unref();
  };
  const waiting = setTimeout(() => text ?? show('Waiting for the service…'), WAITING_AFTER_MS).unref();
  return {
    update: (pagination, done) => {
      // The first page is also the last (one page, or --page N): a progress line would only flicker.
      if (text === undefined && pagination && pagination.current_page_number >= pagination.total_pages)
        return;
      const total = pagination?.total_elements;
      show(`${done}${total ? ` of ${total}` : ''} ${noun}…`);
    },
    // Also called between items (before an error message); the next update draws the line again.
    done: () => {
      clearTimeout(waiting);
      clearInterval(ticker);
      ticker = undefined;
      if (text !== undefined) out.clearProgress();
      text = undefined;
    },
  };
}
