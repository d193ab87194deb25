/** A single updating progress line on stderr, only when stderr is a terminal; nothing when piped. */
import type { PaginationData } from '../api/types.js';
import type { Context } from '../context.js';

export interface Progress {
  update: (pagination: PaginationData | undefined, done: number) => void;
  done: () => void;
}

const SILENT: Progress = { update: () => {}, done: () => {} };

export function progressLine(ctx: Context, noun: string): Progress {
  if (!ctx.out.streams.stderrIsTTY || ctx.debug) return SILENT;
  let shown = false;
  return {
    update: (pagination, done) => {
      const total = pagination?.total_elements;
      // One page is quick: a progress line would only flicker.
      if (!shown && pagination && pagination.total_pages <= 1) return;
      shown = true;
      ctx.out.progress(`${done}${total ? ` of ${total}` : ''} ${noun}…`);
    },
    done: () => {
      if (shown) ctx.out.clearProgress();
      shown = false;
    },
  };
}
