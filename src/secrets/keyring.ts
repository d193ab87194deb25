/**
 * The system keyring (macOS Keychain, Windows Credential Manager, the Secret Service on Linux) through
 * @napi-rs/keyring: prebuilt binaries in the npm registry, nothing compiled or downloaded at install.
 * The native addon is loaded here, on the first read or write of a key, never by a command that needs
 * none: its loading costs ~12 ms (docs/performance.md).
 *
 * One item per profile and config directory: service "agency-cli", account "<profile>@<config dir>",
 * so that two config directories (AGENCY_CONFIG_DIR) with a profile of the same name never share a key.
 */
import { resolve } from 'node:path';
import { AgencyError, ExitCode } from '../errors.js';

const KEYRING_SERVICE = 'agency-cli';

/** Which keyring item holds a profile's key. */
export interface KeyringItem {
  readonly profile: string;
  readonly configDir: string;
}

function accountOf(item: KeyringItem): string {
  return `${item.profile}@${resolve(item.configDir)}`;
}

/** How a person deletes the item by hand, when agency could not (its keyring was unreachable). */
function deleteByHand(item: KeyringItem): string {
  const account = accountOf(item);
  if (process.platform === 'darwin')
    return `Delete it with: security delete-generic-password -s ${KEYRING_SERVICE} -a '${account}'`;
  if (process.platform === 'win32')
    return `Delete "${account}.${KEYRING_SERVICE}" in the Credential Manager.`;
  return `Delete it with: secret-tool clear service ${KEYRING_SERVICE} username '${account}'`;
}

/** A key's item that could not be deleted (logout, profiles remove): the config no longer names it. */
export function notDeleted(item: KeyringItem, reason: string): KeyringError {
  return new KeyringError(
    `The key of profile "${item.profile}" is still in the system keyring: it could not be deleted there (${reason}).`,
    reason,
    {
      exitCode: ExitCode.failure,
      hint: `${deleteByHand(item)} (or unlock the keyring and delete it there).`,
    },
  );
}

/**
 * The keyring could not be used: none on this system, locked, its service gone. `reason` is the
 * platform's own words. Exit 3 when a command needs the key (it cannot authenticate); login, which
 * was asked to write there, reports it as a failure (exit 1) instead.
 */
export class KeyringError extends AgencyError {
  readonly exitCode: ExitCode;
  constructor(
    message: string,
    readonly reason: string,
    options: { hint?: string; exitCode?: ExitCode } = {},
  ) {
    super(message, { hint: options.hint });
    this.exitCode = options.exitCode ?? ExitCode.auth;
  }
}

type Binding = typeof import('@napi-rs/keyring');
let binding: Promise<Binding> | undefined;

async function entryFor(item: KeyringItem) {
  binding ??= import('@napi-rs/keyring');
  let loaded: Binding;
  try {
    loaded = await binding;
  } catch (error) {
    // No binary for this platform (an unusual CPU or libc): no keyring, the file still works.
    binding = undefined;
    throw new KeyringFailure(`no keyring library for this system (${(error as Error).message})`);
  }
  // On Linux, the Secret Service only: the library would otherwise fall back to the kernel's keyring,
  // which forgets everything at the end of the session (and a login would seem to work, then not).
  return new loaded.AsyncEntry(KEYRING_SERVICE, accountOf(item), { linux: { store: 'secret-service' } });
}

/** A failure of the keyring itself, in its own words; callers turn it into a KeyringError. */
export class KeyringFailure extends Error {}

function failure(error: unknown): KeyringFailure {
  if (error instanceof KeyringFailure) return error;
  // "Platform failure: DBus error: <why>": the why is what a person can act on.
  const text = (error instanceof Error ? error.message : String(error))
    .replace(/^(Platform failure|Couldn't access platform storage):\s*/i, '')
    .replace(/^DBus error:\s*/i, '');
  return new KeyringFailure(inPlainWords(text) || 'unknown error');
}

/** D-Bus's words for the two usual cases of a Linux system without a Secret Service. */
function inPlainWords(reason: string): string {
  if (/autolaunch|DBUS_SESSION_BUS_ADDRESS/.test(reason))
    return 'DBUS_SESSION_BUS_ADDRESS is not set, so there is no Secret Service to ask';
  if (/org\.freedesktop\.secrets/.test(reason)) return 'no Secret Service answers on the D-Bus session bus';
  return reason;
}

/** The key, or undefined when the keyring has no such item. Throws KeyringFailure. */
export async function readKey(item: KeyringItem): Promise<string | undefined> {
  try {
    return (await (await entryFor(item)).getPassword()) ?? undefined;
  } catch (error) {
    throw failure(error);
  }
}

/** Stores (or replaces) the key. Throws KeyringFailure. */
export async function writeKey(item: KeyringItem, key: string): Promise<void> {
  try {
    await (await entryFor(item)).setPassword(key);
  } catch (error) {
    throw failure(error);
  }
}

/** Deletes the item; false when there was none. Throws KeyringFailure. */
export async function deleteKey(item: KeyringItem): Promise<boolean> {
  try {
    return await (await entryFor(item)).deletePassword();
  } catch (error) {
    throw failure(error);
  }
}

/** Locked keyrings say so ("unlock prompt was dismissed", "locked"); anything else is unreachable. */
export function isLocked(reason: string): boolean {
  return /\block|unlock|prompt/i.test(reason);
}

/** A command needs the key and the keyring cannot give it: exit 3, with what to do. */
export function unreadable(item: KeyringItem, reason: string): KeyringError {
  const locked = isLocked(reason);
  return new KeyringError(
    `Cannot read the key of profile "${item.profile}" from the system keyring: ${reason}.`,
    reason,
    {
      hint: locked
        ? 'Unlock the keyring (log in to the desktop session, or unlock it in your keyring application), then run the command again; or set AGENCY_API_KEY.'
        : `The keyring service could not be reached (on Linux: a Secret Service such as gnome-keyring in this D-Bus session). Start it, or set AGENCY_API_KEY, or keep the key in the config file: \`agency login -p ${item.profile} --storage file\`.`,
    },
  );
}

/** The profile says its key is in the keyring, but the keyring has no such item (removed by hand). */
export function missingItem(item: KeyringItem): KeyringError {
  return new KeyringError(
    `The key of profile "${item.profile}" is not in the system keyring (it was removed there).`,
    'no such item',
    { hint: `Run \`agency login -p ${item.profile}\` to save it again, or set AGENCY_API_KEY.` },
  );
}
