/**
 * --check a,b --check c as `health` and `history health` read it: one parser, so both take the same
 * names (any case, `-` for `_`) and refuse an unknown one alike (exit 2, nothing read).
 */
import { UsageError } from '../../errors.js';
import { isNearMiss } from '../../output/suggest.js';
import { CHECK_NAMES, type CheckName } from '../../reports/health.js';
import { option } from '../../terms.js';

/** --check a,b --check c: the checks named, each once; an unknown one is exit 2, nothing sent. */
export function parseChecks(values: readonly string[] | undefined): CheckName[] | undefined {
  if (values === undefined) return undefined;
  const checks: CheckName[] = [];
  for (const word of values.flatMap((value) => value.split(','))) {
    const typed = word.trim().toLowerCase().replace(/-/g, '_');
    if (typed === '') continue;
    const check = CHECK_NAMES.find((name) => name === typed);
    if (check === undefined) {
      const close = CHECK_NAMES.filter((name) => isNearMiss(typed, name));
      throw new UsageError(
        `Unknown check ${JSON.stringify(word.trim())} in ${option('check')}; valid: ${CHECK_NAMES.join(', ')}.` +
          (close.length > 0 ? ` Did you mean ${close.join(' or ')}?` : ''),
      );
    }
    if (!checks.includes(check)) checks.push(check);
  }
  if (checks.length === 0)
    throw new UsageError(`${option('check')} needs a check name; valid: ${CHECK_NAMES.join(', ')}.`);
  return checks;
}
