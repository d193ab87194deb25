/**
 * Who a plan is read as: the service shows each user only the keys they created and only the companies
 * they have access to, so the plan names the key's user where that shapes what it says.
 */
import { AgencyError, InterruptedError, type PartialFailureError } from '../errors.js';
import { type RowFailure, rowsFailed } from './failures.js';

export interface UserReader {
  me(): Promise<Record<string, unknown>>;
}

/** The key's user as `/v1/me` describes them; undefined when it cannot be read (the plan stands). */
async function readUser(api: UserReader): Promise<{ name?: string; email?: string } | undefined> {
  let me: Record<string, unknown>;
  try {
    me = await api.me();
  } catch (error) {
    if (error instanceof AgencyError && !(error instanceof InterruptedError)) return undefined;
    throw error;
  }
  return {
    ...(typeof me.name === 'string' ? { name: me.name } : {}),
    ...(typeof me.email === 'string' ? { email: me.email } : {}),
  };
}

/** "Tom Teammate", else the address, else "The user of this key". */
export async function userName(api: UserReader): Promise<string> {
  const user = await readUser(api);
  return user?.name ?? user?.email ?? 'The user of this key';
}

/**
 * Whose keys a plan compared the file's labels with, when the file names keys: the service lists each
 * user only the keys that user created, so the same file run by a teammate would create every key
 * again. Undefined when the file names no key, or when the key's user cannot be read (the plan stands).
 */
export async function keysOwnerNote(
  api: UserReader,
  desired: { companies: readonly { keys: readonly string[] }[] },
): Promise<string | undefined> {
  if (!desired.companies.some((c) => c.keys.length > 0)) return undefined;
  const user = await readUser(api);
  if (!user) return undefined;
  const { name, email } = user;
  const who = name && email ? `${name} (${email})` : (name ?? email ?? 'the user of this key');
  return `Keys compared with those ${who} created (each user sees only their own).`;
}

/**
 * The error a plan (or apply) ends with when some of the file's companies could not be read: the plan
 * was printed without them (their `!` lines say so); the exit code is the one their failures share
 * (3 for the service's 403), as for every fleet read that could not read some companies.
 */
export function unreadableFailure(unreadable: readonly RowFailure[]): PartialFailureError {
  const n = unreadable.length;
  return rowsFailed(
    `${n} of the file's companies could not be read (see the ! lines); the plan leaves ${n === 1 ? 'it' : 'them'} out.`,
    unreadable,
    { grouped: false },
  );
}
