import { createCipheriv, createDecipheriv, randomBytes, scrypt, type ScryptOptions } from 'node:crypto';
import { chmod, mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SecretStore } from '../../common/secret-store.js';
import { writeFileDurably } from '../durable/write-file-durably.js';
import { SecretStoreCorruptError, SecretStoreUnavailableError, assertAccount, assertSecret } from './errors.js';
import { withFileLock, type FileLockOptions } from './file-lock.js';

/** The file's name in the data directory. */
export const SECRETS_FILE = 'secrets.enc.json';
/** The scrypt cost of new files: ~100 ms and 32 MiB per open, to make guessing slow. */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;

const FORMAT = 'proofdesk-secrets';
const VERSION = 1;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;
// A known plaintext sealed under the key: opening it tells a wrong passphrase from a right one
// before any secret is touched (a wrong key would otherwise surface only as "corrupt entry").
const CHECK_PLAINTEXT = 'proofdesk-secrets passphrase check';
const AAD_PREFIX = `${FORMAT}/v${VERSION}\u0000`;
// Upper bounds on a file's own KDF parameters, so a crafted file cannot make us burn gigabytes.
const MAX_SCRYPT = { N: 2 ** 20, r: 32, p: 16 } as const;

export interface EncryptedFileStoreOptions {
  /** The data directory; the file is `<dataDir>/secrets.enc.json`. Created if missing. */
  dataDir: string;
  /** Non-empty; NFC-normalised, so the same words typed on another system open the file. */
  passphrase: string;
  /** Cross-process lock: how long to wait for another writer (default 10 s). */
  lockTimeoutMs?: number;
  /** Cross-process lock: age at which a lock no longer refreshed by its holder is taken over (default 10 s). */
  staleLockMs?: number;
}

/** One AES-256-GCM box, base64 fields. */
export interface Sealed {
  iv: string;
  ciphertext: string;
  tag: string;
}

/** The JSON in secrets.enc.json. Account names are in clear (authenticated, not secret). */
interface SecretsFile {
  format: typeof FORMAT;
  version: typeof VERSION;
  kdf: { name: 'scrypt'; N: number; r: number; p: number; salt: string };
  cipher: 'aes-256-gcm';
  check: Sealed;
  entries: Record<string, Sealed>;
}

/**
 * Secrets in one encrypted file in the data directory, for headless servers with no keychain.
 *
 * Each secret is sealed with AES-256-GCM under a key that scrypt derives from the passphrase and
 * a random per-file salt; every entry has its own random IV and its account name as AAD, so
 * entries cannot be altered or swapped unnoticed. The key is derived once per open. The file is
 * mode 0600 and always replaced atomically (temp file, fsync, rename). Writers are serialised
 * in-process by a promise chain and across processes by the `secrets.enc.json.lock` folder (proper-lockfile), so the
 * desktop app, `serve` and a CLI command may share a data directory.
 */
export class EncryptedFileStore implements SecretStore {
  readonly kind = 'encrypted-file' as const;
  /** The file's path (for messages; the file holds no plaintext). */
  readonly path: string;
  readonly #key: Buffer;
  readonly #salt: string;
  readonly #lock: FileLockOptions;
  #writes: Promise<unknown> = Promise.resolve();

  private constructor(path: string, key: Buffer, salt: string, lock: FileLockOptions) {
    this.path = path;
    this.#key = key;
    this.#salt = salt;
    this.#lock = lock;
  }

  /**
   * Opens (or creates) `<dataDir>/secrets.enc.json`. Rejects with SecretStoreUnavailableError
   * when the passphrase does not open an existing file, SecretStoreCorruptError when the file
   * is not one of ours.
   */
  static async open(options: EncryptedFileStoreOptions): Promise<EncryptedFileStore> {
    if (typeof options.passphrase !== 'string' || options.passphrase.length === 0) {
      throw new TypeError('passphrase must be a non-empty string');
    }
    const passphrase = options.passphrase.normalize('NFC');
    const path = join(options.dataDir, SECRETS_FILE);
    const lock = { timeoutMs: options.lockTimeoutMs ?? 10_000, staleMs: options.staleLockMs ?? 10_000 };
    await mkdir(options.dataDir, { recursive: true, mode: 0o700 });

    let file = await readSecretsFile(path);
    let key: Buffer | undefined;
    if (!file) {
      // Created at once (not on the first set) so that every later open checks the passphrase.
      file = await withFileLock(path, lock, async () => {
        const existing = await readSecretsFile(path);
        if (existing) return existing; // another process won the race
        const salt = randomBytes(SALT_BYTES).toString('base64');
        key = await deriveKey(passphrase, { ...SCRYPT_PARAMS, salt });
        const fresh: SecretsFile = {
          format: FORMAT,
          version: VERSION,
          kdf: { name: 'scrypt', ...SCRYPT_PARAMS, salt },
          cipher: 'aes-256-gcm',
          check: seal(key, CHECK_PLAINTEXT, checkAad()),
          entries: {},
        };
        await writeFileAtomic(path, serialise(fresh));
        return fresh;
      });
    }

    key ??= await deriveKey(passphrase, file.kdf);
    if (unseal(key, file.check, checkAad()) !== CHECK_PLAINTEXT) {
      throw new SecretStoreUnavailableError(
        `The passphrase does not open ${path} (PROOFDESK_PASSPHRASE is not the one the file was created with).`,
      );
    }
    await tightenMode(path);
    return new EncryptedFileStore(path, key, file.kdf.salt, lock);
  }

  /** The secret stored under `account`, or null. Reads the file each time: other processes write it too. */
  async get(account: string): Promise<string | null> {
    assertAccount(account);
    const file = await this.#read();
    const entry = Object.hasOwn(file.entries, account) ? file.entries[account] : undefined;
    if (!entry) return null;
    const secret = unseal(this.#key, entry, entryAad(account));
    if (secret === undefined) {
      throw new SecretStoreCorruptError(
        `The entry for account "${account}" in ${this.path} failed authentication: the file was altered or damaged.`,
      );
    }
    return secret;
  }

  /** Stores (or replaces) a secret. */
  async set(account: string, secret: string): Promise<void> {
    assertAccount(account);
    assertSecret(secret);
    await this.#update((entries) => {
      entries[account] = seal(this.#key, secret, entryAad(account));
    });
  }

  /** Removes a secret; true when there was one. */
  async delete(account: string): Promise<boolean> {
    assertAccount(account);
    let existed = false;
    await this.#update((entries) => {
      existed = Object.hasOwn(entries, account);
      delete entries[account];
    });
    return existed;
  }

  /** Plain-object form without the key, so an accidental log of the store shows nothing secret. */
  toJSON(): { kind: 'encrypted-file'; path: string } {
    return { kind: this.kind, path: this.path };
  }

  /** Read-modify-write under both locks; the other entries are copied as they are. */
  #update(change: (entries: Record<string, Sealed>) => void): Promise<void> {
    const run = this.#writes.then(() =>
      withFileLock(this.path, this.#lock, async () => {
        const file = await this.#read();
        // A null-prototype copy: an account named "__proto__" is then just a key.
        const entries: Record<string, Sealed> = Object.assign(Object.create(null) as Record<string, Sealed>, file.entries);
        change(entries);
        await writeFileAtomic(this.path, serialise({ ...file, entries }));
      }),
    );
    // The chain continues past a failed write; the failure goes to this caller only.
    this.#writes = run.catch(() => undefined);
    return run;
  }

  async #read(): Promise<SecretsFile> {
    const file = await readSecretsFile(this.path);
    if (!file) {
      throw new SecretStoreUnavailableError(`${this.path} has disappeared since it was opened; restore it from a backup.`);
    }
    if (file.kdf.salt !== this.#salt) {
      // Someone replaced the file (restored a backup, re-created it): our key does not fit it.
      throw new SecretStoreUnavailableError(`${this.path} was replaced since it was opened; open the secret store again.`);
    }
    return file;
  }
}

function entryAad(account: string): Buffer {
  return Buffer.from(`${AAD_PREFIX}entry\u0000${account}`, 'utf8');
}

function checkAad(): Buffer {
  return Buffer.from(`${AAD_PREFIX}check`, 'utf8');
}

// seal, unseal, deriveKey, writeFileAtomic are exported for the key backup (main/workspace/settings).
export function seal(key: Buffer, plaintext: string, aad: Buffer): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { iv: iv.toString('base64'), ciphertext: ciphertext.toString('base64'), tag: cipher.getAuthTag().toString('base64') };
}

/** The plaintext of a box, or undefined when it fails authentication (wrong key, altered, swapped). */
export function unseal(key: Buffer, box: Sealed, aad: Buffer): string | undefined {
  const iv = Buffer.from(box.iv, 'base64');
  const tag = Buffer.from(box.tag, 'base64');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(box.ciphertext, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

export function deriveKey(passphrase: string, kdf: { N: number; r: number; p: number; salt: string }): Promise<Buffer> {
  // maxmem above scrypt's 128·N·r (32 MiB for the defaults), which Node's 32 MiB default rejects.
  const options: ScryptOptions = { N: kdf.N, r: kdf.r, p: kdf.p, maxmem: 256 * kdf.N * kdf.r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    // Asynchronous on purpose: ~100 ms of hashing must not freeze the event loop.
    scrypt(passphrase, Buffer.from(kdf.salt, 'base64'), KEY_BYTES, options, (error, key) =>
      error ? reject(new SecretStoreUnavailableError(`Key derivation failed: ${error.message}`)) : resolve(key),
    );
  });
}

/** The parsed file, undefined when there is none, SecretStoreCorruptError when it is not ours. */
async function readSecretsFile(path: string): Promise<SecretsFile | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SecretStoreUnavailableError(`${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // JSON.parse's own message quotes the text; leave it out.
    throw new SecretStoreCorruptError(`${path} is not valid JSON: it is damaged or not a Proofdesk secrets file.`);
  }
  if (!isSecretsFile(data)) {
    throw new SecretStoreCorruptError(`${path} is not a version ${VERSION} Proofdesk secrets file (damaged, or written by a newer Proofdesk).`);
  }
  return data;
}

function isSecretsFile(data: unknown): data is SecretsFile {
  if (!isRecord(data) || data.format !== FORMAT || data.version !== VERSION || data.cipher !== 'aes-256-gcm') return false;
  const { kdf, check, entries } = data;
  if (!isRecord(kdf) || kdf.name !== 'scrypt' || typeof kdf.salt !== 'string') return false;
  const { N, r, p } = kdf;
  if (!isInt(N, 2, MAX_SCRYPT.N) || (N & (N - 1)) !== 0 || !isInt(r, 1, MAX_SCRYPT.r) || !isInt(p, 1, MAX_SCRYPT.p)) return false;
  return isSealed(check) && isRecord(entries) && Object.values(entries).every(isSealed);
}

export function isSealed(value: unknown): value is Sealed {
  return isRecord(value) && typeof value.iv === 'string' && typeof value.ciphertext === 'string' && typeof value.tag === 'string';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isInt(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

function serialise(file: SecretsFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** Replaces `path` so that a crash leaves the old file or the new one, never a torn one (writeFileDurably). */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  try {
    writeFileDurably(path, text);
  } catch (error) {
    throw new SecretStoreUnavailableError(`${path} cannot be written (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
}

/** A copied or restored file may be group/world readable; the salt and ciphertexts invite guessing. */
async function tightenMode(path: string): Promise<void> {
  if (process.platform === 'win32') return;
  const { mode } = await stat(path);
  if ((mode & 0o077) !== 0) await chmod(path, 0o600);
}
