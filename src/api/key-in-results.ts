/**
 * The key in use never shows in a result unless showing a key is what the command is for (contract,
 * "Errors and exit codes"): a service answer that echoes it (say, `me`) has it masked in the data the
 * client hands on, so every format of the command line and every MCP result gets it masked alike.
 */
import { maskKey } from '../config.js';

/** `data` with every string holding `key` masked; the same value when the key is not there (the common case). */
export function maskKeyInUse(data: unknown, text: string, key: string): unknown {
  if (key === '' || !text.includes(key)) return data;
  const masked = maskKey(key);
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return value.includes(key) ? value.split(key).join(masked) : value;
    if (Array.isArray(value)) return value.map(walk);
    // Plain objects only: an ExactInteger (an id beyond 2^53) is kept as it is.
    if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(
        Object.entries(value).map(([name, item]) => [walk(name) as string, walk(item)]),
      );
    }
    return value;
  };
  return walk(data);
}
