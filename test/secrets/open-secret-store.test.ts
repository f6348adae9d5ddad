/**
 * openSecretStore's choice of store from the environment. The keychain branches (chosen when
 * present, refused with guidance when absent) need a D-Bus session of their own: they are in
 * keychain.test.ts, run in child processes.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

  it('PROOFDESK_PASSPHRASE_FILE → the encrypted file under the passphrase that file holds (its line break not part of it)', async () => {
    const file = join(dataDir, 'passphrase');
    writeFileSync(file, 'server passphrase\n', { mode: 0o600 });
    const store = await openSecretStore({ dataDir, env: { PROOFDESK_PASSPHRASE_FILE: file } });
    expect(store.kind).toBe('encrypted-file');
    await store.set('a', 'b');
    const again = await openSecretStore({ dataDir, env: { PROOFDESK_PASSPHRASE: 'server passphrase' } });
    expect(await again.get('a')).toBe('b');
    await expect(openSecretStore({ dataDir, env: { PROOFDESK_PASSPHRASE: 'server passphrase\n' } })).rejects.toThrow(/passphrase does not open/);
  });

  it('refuses a passphrase file that is missing, empty or a directory, naming the file and never falling back to another store', async () => {
    const missing = join(dataDir, 'no-such-passphrase');
    // A credentials folder named where its file was meant (root reads any file, so unreadable is a directory here).
    const folder = mkdtempSync(join(dataDir, 'credentials-'));
    const empty = join(dataDir, 'empty');
    writeFileSync(empty, '\n');
    const cases: [string, RegExp][] = [
      [missing, /^The passphrase file .*no-such-passphrase \(PROOFDESK_PASSPHRASE_FILE\) cannot be read: it does not exist\.$/],
      [empty, /^The passphrase file .*empty \(PROOFDESK_PASSPHRASE_FILE\) is empty\.$/],
      [folder, /^The passphrase file .*credentials-\w+ \(PROOFDESK_PASSPHRASE_FILE\) cannot be read: it is a directory\.$/],
    ];
    for (const [file, message] of cases) {
      const error = await openSecretStore({ dataDir, env: { PROOFDESK_PASSPHRASE_FILE: file, PROOFDESK_SECRET_STORE: 'memory' } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SecretStoreUnavailableError);
      expect((error as Error).message).toMatch(message);
    }
    expect(existsSync(join(dataDir, SECRETS_FILE))).toBe(false);
  });

  it('refuses PROOFDESK_PASSPHRASE and PROOFDESK_PASSPHRASE_FILE together: which one is meant cannot be told', async () => {
    const file = join(dataDir, 'passphrase');
    writeFileSync(file, 'one', { mode: 0o600 });
    const error = await openSecretStore({ dataDir, env: { PROOFDESK_PASSPHRASE: 'other', PROOFDESK_PASSPHRASE_FILE: file } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretStoreUnavailableError);
    expect((error as Error).message).toBe('Both PROOFDESK_PASSPHRASE and PROOFDESK_PASSPHRASE_FILE are set: set one of them.');
    expect(existsSync(join(dataDir, SECRETS_FILE))).toBe(false);
  });
});
