/** EncryptedFileStore on real files: format, crypto, atomicity, locking across processes. */
import { execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EncryptedFileStore, SECRETS_FILE, SecretStoreCorruptError, SecretStoreUnavailableError } from '../../main/secrets/index.js';
import { childArgs } from '../support/ts-child.js';

const ROOT = join(import.meta.dirname, '..', '..');
const PASSPHRASE = 'correct horse battery staple';
const SECRET = 'ed25519-private-key-0123456789abcdef';

let tempRoot: string;
let dataDir: string;
let filePath: string;

beforeEach(() => {
  tempRoot = mkdtempSync(join(tmpdir(), 'proofdesk-secrets-'));
  dataDir = tempRoot;
  filePath = join(dataDir, SECRETS_FILE);
});

afterEach(() => {
  rmSync(tempRoot, { recursive: true, force: true });
});

const openStore = (passphrase = PASSPHRASE, extra: { lockTimeoutMs?: number; staleLockMs?: number } = {}) =>
  EncryptedFileStore.open({ dataDir, passphrase, ...extra });

interface Box {
  iv: string;
  ciphertext: string;
  tag: string;
}
type FileJson = { entries: Record<string, Box>; kdf: { N: number; salt: string }; version: number };
const readJson = (): FileJson => JSON.parse(readFileSync(filePath, 'utf8')) as FileJson;
const writeJson = (data: unknown): void => writeFileSync(filePath, JSON.stringify(data));

/** Rejects with the error `run` throws, or fails the test when it does not throw. */
async function errorOf(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('EncryptedFileStore: storage', () => {
  it('creates the file (mode 0600) in a new data directory on open, before any secret is set', async () => {
    dataDir = join(dataDir, 'nested', 'data');
    filePath = join(dataDir, SECRETS_FILE);
    const store = await openStore();
    expect(store.kind).toBe('encrypted-file');
    expect(store.path).toBe(filePath);
    expect(statSync(filePath).mode & 0o777).toBe(0o600);
    expect(readJson().entries).toEqual({});
    expect(await store.get('missing')).toBeNull();
  });

  it('round-trips secrets across reopen: a new instance reads what an old one wrote', async () => {
    const first = await openStore();
    await first.set('partner:1:signing-key', SECRET);
    await first.set('partner:2:client-secret', 'ünïcødé ✓ secret');
    await first.set('empty', '');
    await first.set('partner:1:signing-key', `${SECRET}-rotated`);

    const second = await openStore();
    expect(await second.get('partner:1:signing-key')).toBe(`${SECRET}-rotated`);
    expect(await second.get('partner:2:client-secret')).toBe('ünïcødé ✓ secret');
    expect(await second.get('empty')).toBe('');
    expect(await second.delete('partner:2:client-secret')).toBe(true);
    expect(await second.delete('partner:2:client-secret')).toBe(false);
    // The first instance reads the file anew each time, so it sees the second one's delete.
    expect(await first.get('partner:2:client-secret')).toBeNull();
  });

  it('keeps the file at mode 0600 across writes and tightens a loosened one on open', async () => {
    const store = await openStore();
    await store.set('a', SECRET);
    expect(statSync(filePath).mode & 0o777).toBe(0o600);
    chmodSync(filePath, 0o644);
    await openStore();
    expect(statSync(filePath).mode & 0o777).toBe(0o600);
  });

  it('leaves no temp or lock files behind (atomic replace)', async () => {
    const store = await openStore();
    await Promise.all([store.set('a', '1'), store.set('b', '2'), store.delete('a')]);
    expect(readdirSync(dataDir)).toEqual([SECRETS_FILE]);
  });

  it('never holds the plaintext secret or the passphrase in the file', async () => {
    const store = await openStore();
    await store.set('signing-key', SECRET);
    const bytes = readFileSync(filePath);
    for (const needle of [SECRET, PASSPHRASE]) {
      expect(bytes.includes(Buffer.from(needle, 'utf8'))).toBe(false);
      expect(bytes.includes(Buffer.from(Buffer.from(needle).toString('base64').slice(0, 24)))).toBe(false);
      expect(bytes.includes(Buffer.from(Buffer.from(needle).toString('hex')))).toBe(false);
    }
  });

  it('uses a fresh IV per entry and per write', async () => {
    const store = await openStore();
    await store.set('a', SECRET);
    const firstIv = readJson().entries.a?.iv;
    await store.set('b', SECRET);
    await store.set('a', SECRET);
    const { entries } = readJson();
    expect(new Set([firstIv, entries.a?.iv, entries.b?.iv]).size).toBe(3);
    expect(entries.a?.ciphertext).not.toBe(entries.b?.ciphertext);
  });

  it('derives the key with scrypt N=2^15, r=8, p=1 and a random per-file salt', async () => {
    await openStore();
    const first = readJson().kdf;
    expect(first).toMatchObject({ name: 'scrypt', N: 32768, r: 8, p: 1 });
    expect(Buffer.from(first.salt, 'base64')).toHaveLength(16);
    rmSync(filePath);
    await openStore();
    expect(readJson().kdf.salt).not.toBe(first.salt);
  });

  it('treats the passphrase as NFC, so a decomposed "é" opens a file made with a composed one', async () => {
    await (await openStore('caf\u00e9 passphrase')).set('a', SECRET);
    expect(await (await openStore('cafe\u0301 passphrase')).get('a')).toBe(SECRET);
  });

  it('takes any account name, "__proto__" included', async () => {
    const store = await openStore();
    await store.set('__proto__', SECRET);
    await store.set('constructor', 'x');
    expect(await (await openStore()).get('__proto__')).toBe(SECRET);
    expect(await store.get('toString')).toBeNull();
    expect(await store.delete('__proto__')).toBe(true);
    expect(await store.get('__proto__')).toBeNull();
  });

  it('refuses an empty passphrase, an empty account and a non-string secret', async () => {
    await expect(openStore('')).rejects.toThrow(TypeError);
    const store = await openStore();
    await expect(store.get('')).rejects.toThrow(TypeError);
    await expect(store.set('a', 42 as unknown as string)).rejects.toThrow('secret must be a string');
  });

  it('does not show its key in util.inspect or JSON', async () => {
    const store = await openStore();
    expect(JSON.stringify(store)).toBe(JSON.stringify({ kind: 'encrypted-file', path: filePath }));
    expect(inspect(store, { showHidden: true, depth: 5 })).not.toMatch(/Buffer|<Buffer/);
  });
});

describe('EncryptedFileStore: refusals', () => {
  it('refuses a wrong passphrase on open, clearly, without either passphrase in the message', async () => {
    await (await openStore()).set('a', SECRET);
    const error = await errorOf(() => openStore('wrong passphrase'));
    expect(error).toBeInstanceOf(SecretStoreUnavailableError);
    expect(error.name).toBe('SecretStoreUnavailableError');
    expect(error.message).toContain(`The passphrase does not open ${filePath}`);
    expect(error.message).not.toContain('wrong passphrase');
    expect(error.message).not.toContain(PASSPHRASE);
  });

  it('refuses a wrong passphrase even on a file with no entries yet (the check value)', async () => {
    await openStore();
    await expect(openStore('wrong passphrase')).rejects.toThrow(SecretStoreUnavailableError);
  });

  it('detects one altered byte of an entry (GCM tag), and still reads the others', async () => {
    const store = await openStore();
    await store.set('victim', SECRET);
    await store.set('bystander', 'fine');
    for (const field of ['ciphertext', 'tag', 'iv'] as const) {
      const original = readFileSync(filePath);
      const data = readJson();
      const box = data.entries.victim as Box;
      const bytes = Buffer.from(box[field], 'base64');
      bytes[0] = (bytes[0] as number) ^ 0x01;
      box[field] = bytes.toString('base64');
      writeJson(data);

      const error = await errorOf(() => store.get('victim'));
      expect(error).toBeInstanceOf(SecretStoreCorruptError);
      expect(error.message).toContain('"victim"');
      expect(error.message).toContain('failed authentication');
      expect(error.message).not.toContain(SECRET);
      expect(await store.get('bystander')).toBe('fine');
      writeFileSync(filePath, original);
    }
    expect(await store.get('victim')).toBe(SECRET);
  });

  it('detects two entries with their ciphertexts swapped (account name is AAD)', async () => {
    const store = await openStore();
    await store.set('alice', 'secret-of-alice');
    await store.set('bob', 'secret-of-bob');
    const data = readJson();
    [data.entries.alice, data.entries.bob] = [data.entries.bob as Box, data.entries.alice as Box];
    writeJson(data);
    await expect(store.get('alice')).rejects.toThrow(SecretStoreCorruptError);
    await expect(store.get('bob')).rejects.toThrow(SecretStoreCorruptError);
  });

  it('refuses a file that is not JSON, or not ours, without quoting its content', async () => {
    writeFileSync(filePath, '{"format": "proofdesk-secrets", TRUNCATED-CONTENT');
    const error = await errorOf(() => openStore());
    expect(error).toBeInstanceOf(SecretStoreCorruptError);
    expect(error.message).toContain(filePath);
    expect(error.message).not.toContain('TRUNCATED');

    writeJson({ format: 'proofdesk-secrets', version: 99 });
    await expect(openStore()).rejects.toThrow(/not a version 1 Proofdesk secrets file/);
  });

  it('refuses KDF parameters beyond sane bounds instead of burning memory on them', async () => {
    await openStore();
    const data = readJson();
    data.kdf.N = 2 ** 30;
    writeJson(data);
    await expect(openStore()).rejects.toThrow(SecretStoreCorruptError);
  });

  it('notices when the file was replaced by another (other salt) after open', async () => {
    const store = await openStore();
    rmSync(filePath);
    await expect(store.get('a')).rejects.toThrow(/disappeared/);
    await openStore();
    const error = await errorOf(() => store.set('a', SECRET));
    expect(error).toBeInstanceOf(SecretStoreUnavailableError);
    expect(error.message).toMatch(/was replaced since it was opened/);
  });
});

describe('EncryptedFileStore: concurrent writers', () => {
  it('lands every one of many concurrent sets and deletes in one process', async () => {
    const store = await openStore();
    const other = await openStore(); // a second instance on the same file: the lock file orders them
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => ((i % 2 === 0 ? store : other).set(`account-${i}`, `secret-${i}`))),
    );
    await Promise.all([store.delete('account-0'), other.delete('account-1')]);
    const reopened = await openStore();
    for (let i = 0; i < 40; i++) expect(await reopened.get(`account-${i}`)).toBe(i < 2 ? null : `secret-${i}`);
    expect(Object.keys(readJson().entries)).toHaveLength(38);
  });

  it('lands every set of several processes writing the same file at once', async () => {
    await openStore(); // created up front, so the children race on writes, not on creation
    const writers = ['p1', 'p2', 'p3'].map(
      (prefix) =>
        new Promise<string>((resolve, reject) => {
          execFile(
            process.execPath,
            [...childArgs(join(import.meta.dirname, 'fixtures', 'file-writer.ts')), dataDir, prefix, '15'],
            { cwd: ROOT, env: { ...process.env, PROOFDESK_PASSPHRASE: PASSPHRASE }, timeout: 50_000 },
            (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
          );
        }),
    );
    expect(await Promise.all(writers)).toEqual(['DONE\n', 'DONE\n', 'DONE\n']);
    const store = await openStore();
    for (const prefix of ['p1', 'p2', 'p3']) {
      for (let i = 0; i < 15; i++) expect(await store.get(`${prefix}-${i}`)).toBe(`secret of ${prefix}-${i}`);
    }
    expect(readdirSync(dataDir)).toEqual([SECRETS_FILE]);
  });

  it('waits for a live holder of the lock, then gives up with a clear error', async () => {
    const store = await openStore(PASSPHRASE, { lockTimeoutMs: 300 });
    mkdirSync(`${filePath}.lock`); // a holder that keeps its lock fresh
    const error = await errorOf(() => store.set('a', SECRET));
    expect(error).toBeInstanceOf(SecretStoreUnavailableError);
    expect(error.message).toContain(`${filePath}.lock is held by another process and was not released within 300 ms`);
    expect(error.message).not.toContain(SECRET);
    // Reads never take the lock.
    expect(await store.get('a')).toBeNull();
    rmSync(`${filePath}.lock`, { recursive: true });
    await store.set('a', SECRET);
    expect(await store.get('a')).toBe(SECRET);
  });

  it('takes over a lock its holder stopped refreshing (a writer that crashed)', async () => {
    const store = await openStore(PASSPHRASE, { lockTimeoutMs: 2_000, staleLockMs: 5_000 });
    const lock = `${filePath}.lock`;
    mkdirSync(lock);
    const old = new Date(Date.now() - 6_000);
    utimesSync(lock, old, old);
    await store.set('a', SECRET);
    expect(await store.get('a')).toBe(SECRET);
    expect(existsSync(lock)).toBe(false);
  });

  it('a writer killed while it holds the lock holds up the next one only until the lock is stale', async () => {
    await openStore();
    const script = `require('proper-lockfile').lock(${JSON.stringify(filePath)}, { realpath: false, stale: 2000 }).then(() => { console.log('HELD'); setInterval(() => {}, 1000); })`;
    const holder = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('HELD') && resolve()));
    holder.kill('SIGKILL');
    const store = await openStore(PASSPHRASE, { lockTimeoutMs: 10_000, staleLockMs: 2_000 });
    await store.set('a', SECRET);
    expect(await store.get('a')).toBe(SECRET);
    expect(readdirSync(dataDir)).toEqual([SECRETS_FILE]);
  });
});
