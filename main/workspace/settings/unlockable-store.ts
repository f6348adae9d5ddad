/**
 * The encrypted-file key store as the desktop app opens it: without a keychain and without
 * PROOFDESK_PASSPHRASE the app starts with the store locked, and the admin types the passphrase
 * in the app (or, on a first run, chooses one, typed twice). The passphrase goes straight into
 * the key derivation of EncryptedFileStore and is kept nowhere: only the derived key stays, in
 * main's memory. A wrong passphrase changes nothing and says so.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceError } from '../../../common/errors.js';
import { MIN_KEYS_PASSPHRASE } from '../../../common/ipc/settings.js';
import type { SecretStore } from '../../../common/secret-store.js';
import { EncryptedFileStore, SECRETS_FILE } from '../../secrets/encrypted-file-store.js';
import { SecretStoreUnavailableError } from '../../secrets/errors.js';

/** Shortest passphrase accepted for a new secrets file (as for a key backup). */
export const MIN_STORE_PASSPHRASE = MIN_KEYS_PASSPHRASE;

/** `unlock`: the file exists, its passphrase is wanted. `create`: no file yet, choose one. */
export type LockState = 'unlock' | 'create' | null;

export class UnlockableSecretStore implements SecretStore {
  readonly kind = 'encrypted-file' as const;
  #inner: EncryptedFileStore | null = null;
  #unlocking: Promise<void> | null = null;

  constructor(readonly dataDir: string) {}

  /** What the admin has to do before keys can be used: null once unlocked. */
  lockState(): LockState {
    if (this.#inner) return null;
    return existsSync(join(this.dataDir, SECRETS_FILE)) ? 'unlock' : 'create';
  }

  /**
   * Opens the file with the passphrase. For an existing file a wrong passphrase is refused
   * (`invalid_value`, nothing changed); with no file yet, one is made under it (the caller has
   * the admin type it twice).
   */
  async unlock(passphrase: string): Promise<void> {
    if (this.#inner) return;
    if (this.#unlocking) return this.#unlocking;
    const creating = this.lockState() === 'create';
    if (typeof passphrase !== 'string' || passphrase.length === 0) throw new ServiceError('invalid_value', 'Type the passphrase of the encrypted keys file.');
    if (creating && passphrase.length < MIN_STORE_PASSPHRASE) {
      throw new ServiceError('invalid_value', `The passphrase needs at least ${MIN_STORE_PASSPHRASE} characters: it is all that protects the keys on this machine.`);
    }
    this.#unlocking = EncryptedFileStore.open({ dataDir: this.dataDir, passphrase })
      .then((store) => {
        this.#inner = store;
      })
      .catch((error: unknown) => {
        if (error instanceof SecretStoreUnavailableError) {
          throw new ServiceError('invalid_value', `That passphrase does not open the encrypted keys file (${SECRETS_FILE} in the data directory); nothing was changed. Type the passphrase chosen when it was made.`);
        }
        throw new ServiceError('internal_error', `The encrypted keys file cannot be opened: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        this.#unlocking = null;
      });
    return this.#unlocking;
  }

  #store(): EncryptedFileStore {
    if (!this.#inner) throw new SecretStoreUnavailableError('The encrypted keys file is locked: type its passphrase in Proofdesk first.');
    return this.#inner;
  }

  get(account: string): Promise<string | null> {
    return this.#store().get(account);
  }

  set(account: string, secret: string): Promise<void> {
    return this.#store().set(account, secret);
  }

  delete(account: string): Promise<boolean> {
    return this.#store().delete(account);
  }
}
