/** The secret stores: OS keychain, encrypted file for headless servers, memory for tests. */
export { openSecretStore, passphraseFromEnv, PASSPHRASE_ENV, PASSPHRASE_FILE_ENV, SECRET_STORE_ENV, type OpenSecretStoreOptions } from './open-secret-store.js';
export { KeychainStore, DEFAULT_PROBE_TIMEOUT_MS, type KeychainStoreOptions, type KeytarApi } from './keychain-store.js';
export { EncryptedFileStore, SECRETS_FILE, SCRYPT_PARAMS, type EncryptedFileStoreOptions } from './encrypted-file-store.js';
export { MemorySecretStore } from './memory-store.js';
export { SecretStoreUnavailableError, SecretStoreCorruptError, SECRET_STORE_GUIDANCE } from './errors.js';
