import type { SecretStore } from '../../common/secret-store.js';
import { EncryptedFileStore } from './encrypted-file-store.js';
import { SecretStoreUnavailableError } from './errors.js';
import { KeychainStore, type KeytarApi } from './keychain-store.js';
import { MemorySecretStore } from './memory-store.js';

/** Set (non-empty) → secrets go to the encrypted file in the data directory, under this passphrase. */
export const PASSPHRASE_ENV = 'PROOFDESK_PASSPHRASE';
/** `memory` → secrets live in memory only (tests); unset → the OS keychain. */
export const SECRET_STORE_ENV = 'PROOFDESK_SECRET_STORE';

export interface OpenSecretStoreOptions {
  /** The data directory (where the encrypted file lives when a passphrase is given). */
  dataDir: string;
  /** Where PROOFDESK_PASSPHRASE and PROOFDESK_SECRET_STORE are read (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The keychain service name (default SECRET_SERVICE); tests use a unique one. */
  keychainService?: string;
  /** Loads keytar (default: the installed optional dependency). Tests simulate a missing one. */
  loadKeytar?: () => Promise<KeytarApi>;
}

/**
 * The secret store this process should use, chosen from the environment:
 *
 * 1. `PROOFDESK_PASSPHRASE` set and non-empty → EncryptedFileStore `<dataDir>/secrets.enc.json`
 *    (headless servers).
 * 2. `PROOFDESK_SECRET_STORE=memory` → MemorySecretStore. FOR TESTS ONLY: NOTHING SURVIVES THE
 *    PROCESS — keys generated into it are lost when it exits.
 * 3. Otherwise the OS keychain, probed with a harmless lookup. keytar is an optional dependency:
 *    where it is not installed (no libsecret at install time) this rejects with one sentence
 *    naming the Debian packages to install, or PROOFDESK_PASSPHRASE for the encrypted file.
 *    A secret is never written anywhere without a passphrase or a keychain protecting it.
 *
 * Rejects with SecretStoreUnavailableError when the chosen store cannot be used (no reachable
 * keychain, wrong passphrase), with guidance on what to install or set.
 */
export async function openSecretStore(options: OpenSecretStoreOptions): Promise<SecretStore> {
  const env = options.env ?? process.env;
  const passphrase = env[PASSPHRASE_ENV];
  if (passphrase) return EncryptedFileStore.open({ dataDir: options.dataDir, passphrase });

  const choice = env[SECRET_STORE_ENV];
  if (choice === 'memory') return new MemorySecretStore();
  if (choice) {
    // A typo must not silently fall through to another store.
    throw new SecretStoreUnavailableError(
      `${SECRET_STORE_ENV} must be unset (the OS keychain) or "memory" (tests only); got "${choice}". ` +
        `For the encrypted file, set ${PASSPHRASE_ENV} instead.`,
    );
  }

  const keychain = new KeychainStore({
    ...(options.keychainService ? { service: options.keychainService } : {}),
    ...(options.loadKeytar ? { loadKeytar: options.loadKeytar } : {}),
  });
  await keychain.probe();
  return keychain;
}
