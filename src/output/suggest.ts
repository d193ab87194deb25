/**
 * "Did you mean ...?" only when the word is a near miss. commander suggests anything within 3 edits
 * and 40% similarity, so `agency bogus` suggested `logout`; a wrong guess teaches the wrong command.
 * We keep commander's suggestion (it knows the candidates) and drop it when it is not close: at most
 * 2 edits (a swap of neighbours counts as one), and fewer than a third of the longer word.
 */

/** Edit distance with adjacent transpositions (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 0; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] as number[];
    const previous = d[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = best;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** Whether `typed` is a plausible typo of `candidate` (leading dashes of options ignored). */
export function isNearMiss(typed: string, candidate: string): boolean {
  const a = typed.replace(/^-+/, '').toLowerCase();
  const b = candidate.replace(/^-+/, '').toLowerCase();
  const distance = editDistance(a, b);
  return distance <= 2 && distance * 3 < Math.max(a.length, b.length);
}

const UNKNOWN = /^(error: unknown (?:command|option) '([^']*)')(?:\n\(Did you mean (?:one of )?([^?]*)\?\))?/;

/**
 * commander's error text with its suggestion kept only for the candidates that are near misses
 * ("(Did you mean companies?)"); the rest of the text is unchanged. `extra`: words that work where
 * the typo was but that commander does not know as commands (`agency version`), offered when near.
 */
export function keepCloseSuggestion(message: string, extra: readonly string[] = []): string {
  const match = UNKNOWN.exec(message);
  if (!match) return message;
  const [whole, head = '', typed = '', list] = match;
  const candidates = [...(list === undefined ? [] : list.split(', ')), ...extra];
  const close = [...new Set(candidates.filter((candidate) => isNearMiss(typed, candidate)))];
  const suggestion =
    close.length === 0 ? '' : `\n(Did you mean ${close.length > 1 ? 'one of ' : ''}${close.join(', ')}?)`;
  return head + suggestion + message.slice(whole.length);
}

/** A help topic the word may mean: a near miss, or a word it begins (`env` → environment). */
export function isHelpTopicMiss(typed: string, candidate: string): boolean {
  return isNearMiss(typed, candidate) || (typed.length >= 3 && candidate.startsWith(typed.toLowerCase()));
}
