/**
 * Every failure path of every store: no error message, stack or inspected form carries a secret
 * or a passphrase. Errors are logged, shown in the UI and pasted into bug reports.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  EncryptedFileStore,
  KeychainStore,
  MemorySecretStore,
  SECRETS_FILE,
  SecretStoreCorruptError,
  SecretStoreUnavailableError,
  openSecretStore,
  type KeytarApi,
} from '../../main/secrets/index.js';

const PASSPHRASE = 'pass-PHRASE-do-not-leak-1';
const WRONG_PASSPHRASE = 'pass-PHRASE-do-not-leak-2';
const SECRET = 'SECRET-do-not-leak-0xdeadbeef';
const NEEDLES = [PASSPHRASE, WRONG_PASSPHRASE, SECRET];

let dataDir: string;
let filePath: string;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'proofdesk-leaks-'));
  filePath = join(dataDir, SECRETS_FILE);
});

afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** The error `run` rejects with, checked to carry none of the needles anywhere. */
async function leakFreeError(run: () => Promise<unknown>): Promise<Error> {
  let caught: unknown;
  try {
    await run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(Error);
  const error = caught as Error;
  const forms = [error.message, error.stack ?? '', String(error), inspect(error, { showHidden: true, depth: 10 }), JSON.stringify(error)];
  for (const form of forms) for (const needle of NEEDLES) expect(form).not.toContain(needle);
  return error;
}

/** A keytar whose every call fails with a message that (badly) echoes its arguments. */
const echoingKeytar: KeytarApi = {
  getPassword: async (service, account) => Promise.reject(new Error(`lookup of ${service}/${account} failed`)),
  setPassword: async (service, account, password) => Promise.reject(new Error(`could not store "${password}" for ${account}`)),
  deletePassword: async () => Promise.reject(new Error('delete failed')),
};

describe('no secret in any error', () => {
  it('encrypted file: wrong passphrase, altered and swapped entries, bad file, replaced file, held lock', async () => {
    const store = await EncryptedFileStore.open({ dataDir, passphrase: PASSPHRASE, lockTimeoutMs: 200 });
    await store.set('a', SECRET);
    await store.set('b', `${SECRET}-b`);
    const pristine = readFileSync(filePath);

    expect(await leakFreeError(() => EncryptedFileStore.open({ dataDir, passphrase: WRONG_PASSPHRASE }))).toBeInstanceOf(SecretStoreUnavailableError);

    const data = JSON.parse(pristine.toString('utf8')) as { entries: Record<string, { ciphertext: string }> };
    const altered = structuredClone(data);
    const bytes = Buffer.from(altered.entries.a?.ciphertext ?? '', 'base64');
    bytes[3] = (bytes[3] as number) ^ 0xff;
    (altered.entries.a as { ciphertext: string }).ciphertext = bytes.toString('base64');
    writeFileSync(filePath, JSON.stringify(altered));
    expect(await leakFreeError(() => store.get('a'))).toBeInstanceOf(SecretStoreCorruptError);

    const swapped = structuredClone(data);
    [swapped.entries.a, swapped.entries.b] = [swapped.entries.b as { ciphertext: string }, swapped.entries.a as { ciphertext: string }];
    writeFileSync(filePath, JSON.stringify(swapped));
    expect(await leakFreeError(() => store.get('b'))).toBeInstanceOf(SecretStoreCorruptError);

    writeFileSync(filePath, `${pristine.toString('utf8').slice(0, 200)} ${SECRET}`);
    expect(await leakFreeError(() => EncryptedFileStore.open({ dataDir, passphrase: PASSPHRASE }))).toBeInstanceOf(SecretStoreCorruptError);
    expect(await leakFreeError(() => store.set('a', SECRET))).toBeInstanceOf(SecretStoreCorruptError);

    writeFileSync(filePath, pristine);
    writeFileSync(`${filePath}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), token: 't' }));
    expect(await leakFreeError(() => store.set('c', SECRET))).toBeInstanceOf(SecretStoreUnavailableError);
    rmSync(`${filePath}.lock`);

    rmSync(filePath);
    await EncryptedFileStore.open({ dataDir, passphrase: WRONG_PASSPHRASE });
    expect(await leakFreeError(() => store.set('a', SECRET))).toBeInstanceOf(SecretStoreUnavailableError);
    expect(await leakFreeError(() => store.set('a', 7 as unknown as string))).toBeInstanceOf(TypeError);
  });

  it('keychain: keytar that cannot load, and keytar errors that echo the secret, are scrubbed', async () => {
    const broken = new KeychainStore({ service: 'Proofdesk-test', loadKeytar: async () => Promise.reject(new Error('libsecret-1.so.0: cannot open shared object file')) });
    const loadError = await leakFreeError(() => broken.set('a', SECRET));
    expect(loadError).toBeInstanceOf(SecretStoreUnavailableError);
    expect(loadError.message).toContain('keytar');
    expect(loadError.message).toContain('libsecret-1.so.0');
    expect(loadError.message).toContain('PROOFDESK_PASSPHRASE');
    await leakFreeError(() => broken.probe());

    const echoing = new KeychainStore({ service: 'Proofdesk-test', loadKeytar: async () => echoingKeytar });
    const setError = await leakFreeError(() => echoing.set('a', SECRET));
    expect(setError).toBeInstanceOf(SecretStoreUnavailableError);
    expect(setError.message).toContain('[redacted]');
    await leakFreeError(() => echoing.get('a'));
    await leakFreeError(() => echoing.delete('a'));
  });

  it('keychain: a probe that never answers times out with guidance', async () => {
    const hanging: KeytarApi = { ...echoingKeytar, getPassword: () => new Promise(() => undefined) };
    const store = new KeychainStore({ loadKeytar: async () => hanging, probeTimeoutMs: 100 });
    const error = await leakFreeError(() => store.probe());
    expect(error.message).toContain('did not answer within 100 ms');
    expect(error.message).toContain('PROOFDESK_PASSPHRASE');
  });

  it('memory store and openSecretStore refusals', async () => {
    await leakFreeError(() => new MemorySecretStore().set('', SECRET));
    await leakFreeError(() => openSecretStore({ dataDir, env: { PROOFDESK_SECRET_STORE: 'nope' } }));
    await openSecretStore({ dataDir, env: { PROOFDESK_PASSPHRASE: PASSPHRASE } });
    await leakFreeError(() => openSecretStore({ dataDir, env: { PROOFDESK_PASSPHRASE: WRONG_PASSPHRASE } }));
  });
});
