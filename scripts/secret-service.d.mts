export function missingSecretServiceTools(): string[];

export interface SecretService {
  /** What a spawned binary needs to reach this service. */
  env: { DBUS_SESSION_BUS_ADDRESS: string };
  /** `secret-tool lookup` of an item: its secret, or undefined when there is none. */
  lookup(attributes: Record<string, string>): string | undefined;
  /** `secret-tool search --all`: the attributes of every matching item, as the tool prints them. */
  search(attributes: Record<string, string>): string;
  /** Locks the login keyring (as a screen lock or a timeout would). */
  lock(): void;
  /** Stops the keyring daemon; the bus stays, so its clients find no Secret Service on it. */
  kill(): Promise<void>;
  close(): Promise<void>;
}

export function startSecretService(): Promise<SecretService>;
