/**
 * openSecretStore's choice of store from the environment. The keychain branches (chosen when
 * present, refused with guidance when absent) need a D-Bus session of their own: they are in
 * keychain.test.ts, run in child processes.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EncryptedFileStore, MemorySecretStore, SECRETS_FILE, SecretStoreUnavailableError, openSecretStore } from '../../main/secrets/index.js';

let dataDir: string;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'proofdesk-open-'));
});

afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('openSecretStore', () => {
  it('PROOFDESK_PASSPHRASE → the encrypted file in the data directory', async () => {
    const store = await openSecretStore({ dataDir, env: { PROOFDESK_PASSPHRASE: 'server passphrase' } });
    expect(store).toBeInstanceOf(EncryptedFileStore);
    expect(store.kind).toBe('encrypted-file');
    expect(existsSync(join(dataDir, SECRETS_FILE))).toBe(true);
    await store.set('a', 'b');
    const again = await openSecretStore({ dataDir, env: { PROOFDESK_PASSPHRASE: 'server passphrase' } });
    expect(await again.get('a')).toBe('b');
  });

  it('PROOFDESK_PASSPHRASE wins over PROOFDESK_SECRET_STORE=memory', async () => {
    const store = await openSecretStore({ dataDir, env: { PROOFDESK_PASSPHRASE: 'p', PROOFDESK_SECRET_STORE: 'memory' } });
    expect(store.kind).toBe('encrypted-file');
  });

  it('a wrong PROOFDESK_PASSPHRASE is refused, not silently replaced by another store', async () => {
    await openSecretStore({ dataDir, env: { PROOFDESK_PASSPHRASE: 'right' } });
    await expect(openSecretStore({ dataDir, env: { PROOFDESK_PASSPHRASE: 'wrong' } })).rejects.toThrow(/passphrase does not open/);
  });

  it('PROOFDESK_SECRET_STORE=memory → the memory store (and an empty passphrase counts as unset)', async () => {
    const store = await openSecretStore({ dataDir, env: { PROOFDESK_SECRET_STORE: 'memory', PROOFDESK_PASSPHRASE: '' } });
    expect(store).toBeInstanceOf(MemorySecretStore);
    expect(store.kind).toBe('memory');
    expect(existsSync(join(dataDir, SECRETS_FILE))).toBe(false);
  });

  it('refuses an unknown PROOFDESK_SECRET_STORE rather than falling through to another store', async () => {
    const error = await openSecretStore({ dataDir, env: { PROOFDESK_SECRET_STORE: 'memroy' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretStoreUnavailableError);
    expect((error as Error).message).toContain('"memroy"');
    expect((error as Error).message).toContain('PROOFDESK_PASSPHRASE');
  });
});
