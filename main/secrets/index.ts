/** The secret stores: OS keychain, encrypted file for headless servers, memory for tests. */
export { openSecretStore, PASSPHRASE_ENV, PASSPHRASE_FILE_ENV, SECRET_STORE_ENV, type OpenSecretStoreOptions } from './open-secret-store.js';
export { KeychainStore, type KeytarApi } from './keychain-store.js';
export { EncryptedFileStore, SECRETS_FILE } from './encrypted-file-store.js';
export { MemorySecretStore } from './memory-store.js';
export { SecretStoreUnavailableError, SecretStoreCorruptError } from './errors.js';
