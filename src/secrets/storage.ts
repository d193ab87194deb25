/**
 * Where a profile's key is, and reading it from there when a command needs it. Decided from the
 * config file alone: `profiles list` and every command that needs no key never ask the keyring.
 */
import { KEYRING_STORAGE, type Profile } from '../config.js';
import { ExitCode } from '../errors.js';
import {
  deleteKey,
  isLocked,
  KeyringError,
  KeyringFailure,
  type KeyringItem,
  missingItem,
  readKey,
  unreadable,
  writeKey,
} from './keyring.js';

export type KeyStorage = 'keyring' | 'file';

export function keyStorageOf(profile: Profile | undefined): KeyStorage | undefined {
  if (profile?.api_key_storage === KEYRING_STORAGE) return 'keyring';
  return profile?.api_key ? 'file' : undefined;
}

/** The key from the keyring, or exit 3 saying why not (locked, its service gone, the item removed). */
export async function keyFromKeyring(item: KeyringItem): Promise<string> {
  let key: string | undefined;
  try {
    key = await readKey(item);
  } catch (error) {
    if (error instanceof KeyringFailure) throw unreadable(item, error.message);
    throw error;
  }
  if (key === undefined) throw missingItem(item);
  return key;
}

/** Where login put a key; `fellBack` says why the keyring was not used when none was asked for. */
export interface Placement {
  storage: KeyStorage;
  fellBack?: string;
}

/**
 * Writes the key to the keyring unless the file is asked for. With no choice, a keyring that cannot be
 * used means the file (and the reason, for a note); `--storage keyring` then fails, nothing saved.
 */
export async function placeKey(
  item: KeyringItem,
  key: string,
  wanted: KeyStorage | undefined,
): Promise<Placement> {
  if (wanted === 'file') return { storage: 'file' };
  try {
    await writeKey(item, key);
    return { storage: 'keyring' };
  } catch (error) {
    if (!(error instanceof KeyringFailure)) throw error;
    if (wanted === undefined) return { storage: 'file', fellBack: error.message };
    throw new KeyringError(
      `Cannot save the key in the system keyring: ${error.message}. Nothing was saved.`,
      error.message,
      {
        exitCode: ExitCode.failure,
        hint: isLocked(error.message)
          ? 'Unlock the keyring and run the same `agency login` again, or keep the key in the config file (mode 0600) with --storage file.'
          : 'On Linux the keyring is a Secret Service (such as gnome-keyring) in your D-Bus session. Without one, --storage file keeps the key in the config file (mode 0600).',
      },
    );
  }
}

/**
 * Deletes a profile's keyring item (logout, profiles remove, a key moved to the file). Returns the
 * reason when the keyring could not be reached: the caller says so, with how to remove it by hand.
 */
export async function forgetKey(item: KeyringItem): Promise<string | undefined> {
  try {
    await deleteKey(item);
    return undefined;
  } catch (error) {
    if (error instanceof KeyringFailure) return error.message;
    throw error;
  }
}
