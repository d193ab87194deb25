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

const SUGGESTION = /^(error: unknown (?:command|option) '([^']*)')\n\(Did you mean (?:one of )?([^?]*)\?\)/;

/**
 * commander's error text with its suggestion kept only for the candidates that are near misses
 * ("(Did you mean companies?)"); the rest of the text is unchanged.
 */
export function keepCloseSuggestion(message: string): string {
  const match = SUGGESTION.exec(message);
  if (!match) return message;
  const [whole, head = '', typed = '', list = ''] = match;
  const close = list.split(', ').filter((candidate) => isNearMiss(typed, candidate));
  const suggestion =
    close.length === 0 ? '' : `\n(Did you mean ${close.length > 1 ? 'one of ' : ''}${close.join(', ')}?)`;
  return head + suggestion + message.slice(whole.length);
}
