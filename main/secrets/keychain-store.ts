import { createRequire } from 'node:module';
import { SECRET_SERVICE, type SecretStore } from '../../common/secret-store.js';
import { KEYTAR_MISSING_GUIDANCE, SECRET_STORE_GUIDANCE, SecretStoreUnavailableError, assertAccount, assertSecret, messageOf, redact } from './errors.js';

/**
 * The part of keytar this store uses, declared here rather than imported from keytar's types:
 * keytar is an optional dependency (npm skips it where libsecret is missing), and the project
 * must still typecheck without it.
 */
export interface KeytarApi {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** How long probe() waits for the Secret Service before calling the keychain unusable. */
export const DEFAULT_PROBE_TIMEOUT_MS = 10_000;

export interface KeychainStoreOptions {
  /** The keychain service every secret is filed under (default SECRET_SERVICE); tests use their own. */
  service?: string;
  /** Loads keytar; default requires the installed package. Tests pass a failing loader. */
  loadKeytar?: () => Promise<KeytarApi>;
  /** See DEFAULT_PROBE_TIMEOUT_MS. */
  probeTimeoutMs?: number;
}

/**
 * Requires keytar only when first used: it is CommonJS with a native addon that links
 * libsecret on Linux, and an optional dependency that `npm ci` leaves out where libsecret is
 * missing; a static import would make merely importing this module (or anything that
 * re-exports it) fail on such a machine.
 */
export async function loadInstalledKeytar(): Promise<KeytarApi> {
  const require = createRequire(import.meta.url);
  return require('keytar') as KeytarApi;
}

/**
 * Secrets in the OS keychain through keytar: the macOS Keychain, the Windows Credential
 * Manager, or a Secret Service (gnome-keyring, KWallet) on a Linux D-Bus session.
 */
export class KeychainStore implements SecretStore {
  readonly kind = 'keychain' as const;
  readonly service: string;
  readonly #load: () => Promise<KeytarApi>;
  readonly #probeTimeoutMs: number;
  #keytar: Promise<KeytarApi> | undefined;

  constructor(options: KeychainStoreOptions = {}) {
    this.service = options.service ?? SECRET_SERVICE;
    this.#load = options.loadKeytar ?? loadInstalledKeytar;
    this.#probeTimeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  }

  /**
   * Resolves when the keychain answers a harmless lookup, else rejects with
   * SecretStoreUnavailableError. A read, not a write: on a desktop a write to a locked
   * keyring pops up an unlock prompt, which must not happen merely because the app started.
   * A locked keyring therefore passes the probe; the first set() then asks to unlock it (or
   * fails with the same guidance where no prompt can be shown).
   */
  async probe(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(unavailable(`the keychain did not answer within ${this.#probeTimeoutMs} ms`)),
        this.#probeTimeoutMs,
      );
      timer.unref();
    });
    try {
      await Promise.race([this.#call('look up a secret', (k) => k.getPassword(this.service, '.proofdesk-probe')), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The secret stored under `account`, or null. */
  async get(account: string): Promise<string | null> {
    assertAccount(account);
    return this.#call('look up a secret', (k) => k.getPassword(this.service, account));
  }

  /** Stores (or replaces) a secret. */
  async set(account: string, secret: string): Promise<void> {
    assertAccount(account);
    assertSecret(secret);
    await this.#call('store a secret', (k) => k.setPassword(this.service, account, secret), secret);
  }

  /** Removes a secret; true when there was one. */
  async delete(account: string): Promise<boolean> {
    assertAccount(account);
    return this.#call('delete a secret', (k) => k.deletePassword(this.service, account));
  }

  /** Runs one keytar call, turning every failure (load or backend) into SecretStoreUnavailableError. */
  async #call<T>(what: string, run: (keytar: KeytarApi) => Promise<T>, secret?: string): Promise<T> {
    const keytar = await this.#keytarModule();
    try {
      return await run(keytar);
    } catch (error) {
      // keytar's errors are libsecret's / D-Bus's texts, e.g. "Cannot autolaunch D-Bus without X11
      // $DISPLAY", "The name org.freedesktop.secrets was not provided by any .service files",
      // "Cannot create an item in a locked collection": all mean "this keychain is not usable".
      throw unavailable(`the keychain failed to ${what} (${redact(messageOf(error), [secret])})`);
    }
  }

  #keytarModule(): Promise<KeytarApi> {
    // Cached, rejection included: a missing native library will not appear on a retry.
    this.#keytar ??= this.#load().catch((error: unknown) => {
      if (isModuleNotFound(error)) {
        throw new SecretStoreUnavailableError(`Proofdesk cannot use the OS keychain: ${KEYTAR_MISSING_GUIDANCE}`);
      }
      throw unavailable(`the keychain library (keytar) could not be loaded (${firstLine(messageOf(error))})`);
    });
    return this.#keytar;
  }
}

/** keytar is not installed at all (npm skipped the optional dependency), as opposed to broken. */
function isModuleNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') && /keytar/.test(messageOf(error));
}

/** Node's load errors carry a multi-line "Require stack": one line is what a user needs. */
function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}

function unavailable(reason: string): SecretStoreUnavailableError {
  return new SecretStoreUnavailableError(`Proofdesk cannot use the OS keychain: ${reason}. ${SECRET_STORE_GUIDANCE}`);
}
