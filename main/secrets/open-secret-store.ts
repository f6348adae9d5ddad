import { readFile } from 'node:fs/promises';
import type { SecretStore } from '../../common/secret-store.js';
import { EncryptedFileStore } from './encrypted-file-store.js';
import { SecretStoreUnavailableError } from './errors.js';
import { KeychainStore, type KeytarApi } from './keychain-store.js';
import { MemorySecretStore } from './memory-store.js';

/** Set (non-empty) → secrets go to the encrypted file in the data directory, under this passphrase. */
export const PASSPHRASE_ENV = 'PROOFDESK_PASSPHRASE';
/**
 * A file holding the passphrase, as systemd (`LoadCredential=`, `%d/NAME`) and container secrets
 * (`/run/secrets/NAME`) hand it over: the passphrase stays out of the process environment.
 */
export const PASSPHRASE_FILE_ENV = 'PROOFDESK_PASSPHRASE_FILE';
/** `memory` → secrets live in memory only (tests); unset → the OS keychain. */
export const SECRET_STORE_ENV = 'PROOFDESK_SECRET_STORE';

export interface OpenSecretStoreOptions {
  /** The data directory (where the encrypted file lives when a passphrase is given). */
  dataDir: string;
  /** Where PROOFDESK_PASSPHRASE(_FILE) and PROOFDESK_SECRET_STORE are read (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The keychain service name (default SECRET_SERVICE); tests use a unique one. */
  keychainService?: string;
  /** Loads keytar (default: the installed optional dependency). Tests simulate a missing one. */
  loadKeytar?: () => Promise<KeytarApi>;
}

/**
 * The secret store this process should use, chosen from the environment:
 *
 * 1. `PROOFDESK_PASSPHRASE` set and non-empty, or `PROOFDESK_PASSPHRASE_FILE` naming a file
 *    that holds it → EncryptedFileStore `<dataDir>/secrets.enc.json` (headless servers).
 * 2. `PROOFDESK_SECRET_STORE=memory` → MemorySecretStore. FOR TESTS ONLY: NOTHING SURVIVES THE
 *    PROCESS — keys generated into it are lost when it exits.
 * 3. Otherwise the OS keychain, probed with a harmless lookup. keytar is an optional dependency:
 *    where it is not installed (no libsecret at install time) this rejects with one sentence
 *    naming the Debian packages to install, or PROOFDESK_PASSPHRASE for the encrypted file.
 *    A secret is never written anywhere without a passphrase or a keychain protecting it.
 *
 * Rejects with SecretStoreUnavailableError when the chosen store cannot be used (no reachable
 * keychain, wrong passphrase, a passphrase file that cannot be read), with guidance on what to
 * install or set.
 */
export async function openSecretStore(options: OpenSecretStoreOptions): Promise<SecretStore> {
  const env = options.env ?? process.env;
  const passphrase = await passphraseFromEnv(env);
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

/**
 * The passphrase the environment gives: PROOFDESK_PASSPHRASE, or the content of the file
 * PROOFDESK_PASSPHRASE_FILE names without its trailing line break (`echo pass > file` writes
 * one); undefined when neither is set.
 *
 * Rejects with SecretStoreUnavailableError when both are set (which one is meant cannot be
 * told) or the file cannot be read or is empty: a server must not start without its keys.
 */
export async function passphraseFromEnv(env: Readonly<Record<string, string | undefined>>): Promise<string | undefined> {
  const given = env[PASSPHRASE_ENV];
  const file = env[PASSPHRASE_FILE_ENV];
  if (!file) return given || undefined;
  if (given) throw new SecretStoreUnavailableError(`Both ${PASSPHRASE_ENV} and ${PASSPHRASE_FILE_ENV} are set: set one of them.`);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = { ENOENT: 'it does not exist', EACCES: 'this user may not read it', EISDIR: 'it is a directory' }[code ?? ''] ?? code ?? 'unknown error';
    throw new SecretStoreUnavailableError(`The passphrase file ${file} (${PASSPHRASE_FILE_ENV}) cannot be read: ${why}.`);
  }
  const passphrase = text.replace(/\r?\n$/, '');
  if (!passphrase) throw new SecretStoreUnavailableError(`The passphrase file ${file} (${PASSPHRASE_FILE_ENV}) is empty.`);
  return passphrase;
}
