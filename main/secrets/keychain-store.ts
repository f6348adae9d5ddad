import { createRequire } from 'node:module';
import type * as Keytar from 'keytar';
import { SECRET_SERVICE, type SecretStore } from '../../common/secret-store.js';
import { SECRET_STORE_GUIDANCE, SecretStoreUnavailableError, assertAccount, assertSecret, messageOf, redact } from './errors.js';

/** The part of keytar this store uses. */
export type KeytarApi = Pick<typeof Keytar, 'getPassword' | 'setPassword' | 'deletePassword'>;

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
 * libsecret on Linux, and a static import would make merely importing this module (or
 * anything that re-exports it) fail on a machine without libsecret.
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
      throw unavailable(`the keychain library (keytar) could not be loaded (${messageOf(error)})`);
    });
    return this.#keytar;
  }
}

function unavailable(reason: string): SecretStoreUnavailableError {
  return new SecretStoreUnavailableError(`Proofdesk cannot use the OS keychain: ${reason}. ${SECRET_STORE_GUIDANCE}`);
}
