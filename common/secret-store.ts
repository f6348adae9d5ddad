/**
 * Where private keys and API secrets live: the OS keychain on desktops, an encrypted file on
 * headless servers. Never SQLite, logs, errors or proof files. Env-free interface; the
 * implementations are in main/secrets and are handed to whoever needs them.
 */
export interface SecretStore {
  /** What backs it, for messages and diagnostics (never the secret). */
  readonly kind: 'keychain' | 'encrypted-file' | 'memory';
  /** The secret stored under `account`, or null. */
  get(account: string): Promise<string | null>;
  /** Stores (or replaces) a secret. */
  set(account: string, secret: string): Promise<void>;
  /** Removes a secret; true when there was one. */
  delete(account: string): Promise<boolean>;
}

/** The keychain service name every Proofdesk secret is filed under. */
export const SECRET_SERVICE = 'Proofdesk';
