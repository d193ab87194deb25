/**
 * The one check of a key's shape: printable ASCII without spaces, the only bytes an HTTP header can
 * carry as they are. Messages never quote the key: it would leak into logs.
 */
import { UsageError } from '../errors.js';

const MAX_KEY_LENGTH = 4096;

/** True when `key` can travel in an x-api-key header. */
export function hasKeyShape(key: string): boolean {
  return /^[\x21-\x7e]+$/.test(key);
}

/** A key typed (at a terminal) or piped by the user, before it is saved or sent. */
export function validateKey(key: string, typed = false): void {
  if (key === '')
    throw new UsageError('No API key was given.', {
      hint: typed
        ? 'Paste the key at the prompt (nothing is shown while you type or paste), then press Enter.'
        : `Pipe the key on stdin, e.g. printf '%s' "$KEY" | agency login, or run \`agency login\` in a terminal.`,
    });
  if (!hasKeyShape(key)) {
    throw new UsageError('The API key contains spaces or characters that are not printable ASCII.', {
      hint: 'Copy the key again from Settings → Add-ons → API & integrations → API keys.',
    });
  }
  // No lower bound: the service, not a guess of ours, decides whether a short key is valid.
  if (key.length > MAX_KEY_LENGTH)
    throw new UsageError(`That does not look like an API key (longer than ${MAX_KEY_LENGTH} characters).`);
}
