/**
 * The errors of the secret stores. Their messages name files, accounts and backends, never a
 * secret or a passphrase: they end up in logs, CLI output and bug reports.
 */

/** What to do when no secret store can be opened; part of every "unavailable" message. */
export const SECRET_STORE_GUIDANCE =
  'On a desktop, install and unlock a Secret Service in your session (on Linux: gnome-keyring, e.g. ' +
  '`apt-get install gnome-keyring`, unlocked at login; KWallet with its Secret Service works too). ' +
  'On a headless server, set PROOFDESK_PASSPHRASE (or PROOFDESK_PASSPHRASE_FILE, naming a file that holds it) to keep secrets in an encrypted file ' +
  '(secrets.enc.json) in the data directory instead.';

/**
 * What to do when keytar is not installed: `npm ci` leaves the optional dependency out where
 * libsecret's headers are missing (keytar builds against them). One sentence per way out.
 */
export const KEYTAR_MISSING_GUIDANCE =
  'the keychain library (keytar) is not installed, because libsecret was missing when npm installed ' +
  'Proofdesk. To use the keychain on Debian or Ubuntu, run `sudo apt-get install libsecret-1-dev ' +
  'gnome-keyring dbus-x11` and then `npm ci` again; or set PROOFDESK_PASSPHRASE to keep secrets in an ' +
  'encrypted file (secrets.enc.json) in the data directory instead.';

/** No usable secret store: the keychain cannot be reached, or the encrypted file cannot be opened. */
export class SecretStoreUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretStoreUnavailableError';
  }
}

/** The store opened, but what it holds failed authentication: altered, swapped or damaged data. */
export class SecretStoreCorruptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretStoreCorruptError';
  }
}

/**
 * `text` with every occurrence of the given secrets replaced. Used on messages that come from
 * outside our code (keytar, libsecret) before they are put into an error of ours: we cannot
 * prove a third-party message never echoes its input, so we scrub it.
 */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret) out = out.split(secret).join('[redacted]');
  }
  return out;
}

/** The message of any thrown value, without assuming it is an Error. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'unknown error';
}

/** Throws a TypeError unless `account` is a non-empty string (the account name is not secret). */
export function assertAccount(account: unknown): asserts account is string {
  if (typeof account !== 'string' || account.length === 0) throw new TypeError('account must be a non-empty string');
}

/** Throws a TypeError unless `secret` is a string; the message never shows the value. */
export function assertSecret(secret: unknown): asserts secret is string {
  if (typeof secret !== 'string') throw new TypeError('secret must be a string');
}
