import type { SecretStore } from '../../common/secret-store.js';
import { assertAccount, assertSecret } from './errors.js';

/**
 * Secrets in a Map, for tests and throwaway data directories only.
 *
 * NOTHING SURVIVES THE PROCESS: every secret (signing keys, client secrets) is gone when it
 * exits, and credentials issued with such a key can never be signed for again.
 */
export class MemorySecretStore implements SecretStore {
  readonly kind = 'memory' as const;
  // A private field, so util.inspect and JSON.stringify of the store never show the secrets.
  readonly #secrets = new Map<string, string>();

  /** The secret stored under `account`, or null. */
  async get(account: string): Promise<string | null> {
    assertAccount(account);
    return this.#secrets.get(account) ?? null;
  }

  /** Stores (or replaces) a secret. */
  async set(account: string, secret: string): Promise<void> {
    assertAccount(account);
    assertSecret(secret);
    this.#secrets.set(account, secret);
  }

  /** Removes a secret; true when there was one. */
  async delete(account: string): Promise<boolean> {
    assertAccount(account);
    return this.#secrets.delete(account);
  }

  /** Plain-object form: the kind only, so an accidental log of the store shows no secret. */
  toJSON(): { kind: 'memory' } {
    return { kind: this.kind };
  }
}
