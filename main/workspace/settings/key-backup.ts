/**
 * A Partner's key backup: one file, encrypted under a passphrase the admin types, that carries
 * everything needed to issue as the same Partner on another machine (its row with the client
 * secret's hash, its chain key and its signing key). Sealed like the secrets file
 * (main/secrets/encrypted-file-store.ts, whose primitives this reuses): scrypt from the
 * passphrase and a random salt, AES-256-GCM. A known plaintext sealed beside the keys tells a
 * wrong passphrase from a damaged file. No key is ever written in clear.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { ServiceError } from '../../../common/errors.js';
import { isPlainObject } from '../../../common/validate.js';
import type { Engine, PartnerBackupRow, PartnerKeyMaterial, PartnerRecord } from '../../engine/index.js';
import { SCRYPT_PARAMS, deriveKey, isSealed, seal, unseal, writeFileAtomic, type Sealed } from '../../secrets/encrypted-file-store.js';

const FORMAT = 'proofdesk-key-backup';
const VERSION = 1;
const CHECK_PLAINTEXT = 'proofdesk-key-backup passphrase check';
/** Shortest passphrase accepted for a backup: the file may travel, so guessing must be hard. */
export const MIN_BACKUP_PASSPHRASE = 10;
// Bounds on a file's own KDF parameters, so a crafted file cannot make us burn gigabytes.
const MAX_SCRYPT = { N: 2 ** 20, r: 32, p: 16 } as const;
const MAX_FILE_BYTES = 1024 * 1024;

interface BackupFile {
  format: typeof FORMAT;
  version: typeof VERSION;
  /** In clear on purpose, so an admin can tell backups apart; authenticated as AAD. */
  partner_name: string;
  kdf: { name: 'scrypt'; N: number; r: number; p: number; salt: string };
  cipher: 'aes-256-gcm';
  check: Sealed;
  keys: Sealed;
}

interface BackupContent {
  partner: PartnerBackupRow;
  keys: PartnerKeyMaterial;
}

const aad = (part: string, name: string) => Buffer.from(`${FORMAT}/v${VERSION}\u0000${part}\u0000${name}`, 'utf8');

/** A relative path would land wherever the app happened to start: refused. */
function checkPath(path: string): string {
  if (typeof path !== 'string' || !isAbsolute(path)) {
    throw new ServiceError('invalid_value', `Give the backup file's full path (e.g. /home/me/acme.proofdesk-keys), not ${JSON.stringify(path)}.`);
  }
  return path;
}

function checkPassphrase(passphrase: string): string {
  if (typeof passphrase !== 'string' || passphrase.length < MIN_BACKUP_PASSPHRASE) {
    throw new ServiceError('invalid_value', `The backup passphrase needs at least ${MIN_BACKUP_PASSPHRASE} characters.`);
  }
  return passphrase.normalize('NFC');
}

/** The backup file's name an admin would expect: the Partner's name, made safe for any disk. */
export function backupFileName(partnerName: string): string {
  const safe = partnerName.replace(/[^\p{L}\p{N} ._-]+/gu, '_').replace(/^[.\s]+/, '').trim().slice(0, 80);
  return `${safe || 'partner'}.proofdesk-keys`;
}

/**
 * The Partner's backup as the text of a file (sealed under the passphrase): for the browser
 * bridge's download, and what backUpPartnerKeys writes.
 */
export async function sealPartnerKeys(engine: Engine, partnerId: string, passphrase: string): Promise<{ content: string; address: string; fileName: string }> {
  const words = checkPassphrase(passphrase);
  const content: BackupContent = await engine.backupPartner(partnerId);
  const salt = randomBytes(16).toString('base64');
  const key = await deriveKey(words, { ...SCRYPT_PARAMS, salt });
  const name = content.partner.name;
  const file: BackupFile = {
    format: FORMAT,
    version: VERSION,
    partner_name: name,
    kdf: { name: 'scrypt', ...SCRYPT_PARAMS, salt },
    cipher: 'aes-256-gcm',
    check: seal(key, CHECK_PLAINTEXT, aad('check', name)),
    keys: seal(key, JSON.stringify(content), aad('keys', name)),
  };
  return { content: `${JSON.stringify(file, null, 2)}\n`, address: content.keys.address, fileName: backupFileName(name) };
}

/**
 * Writes the Partner's backup to `path` (mode 0600, replaced atomically).
 *
 * @example await backUpPartnerKeys(engine, partnerId, '/media/usb/acme.proofdesk-keys', 'correct horse battery')
 */
export async function backUpPartnerKeys(engine: Engine, partnerId: string, path: string, passphrase: string): Promise<{ path: string; address: string }> {
  checkPath(path);
  const sealed = await sealPartnerKeys(engine, partnerId, passphrase);
  try {
    await writeFileAtomic(path, sealed.content);
  } catch {
    throw new ServiceError('invalid_value', `The backup cannot be written to ${path}: pick a folder you can write to.`);
  }
  return { path, address: sealed.address };
}

/**
 * Reads a backup and restores its Partner into the engine's data directory: the same Partner
 * id, client id, chain account and signing key. Refuses (nothing changed) a wrong passphrase,
 * a damaged file, or a Partner that already has other keys here.
 */
export async function restorePartnerKeys(engine: Engine, path: string, passphrase: string): Promise<PartnerRecord> {
  checkPath(path);
  const words = checkPassphrase(passphrase);
  return restoreFrom(engine, await readBackupFile(path), words, path);
}

/** The same from a backup's text (the browser bridge's upload); `name` names it in messages. */
export async function restorePartnerKeysFromText(engine: Engine, text: string, passphrase: string, name: string): Promise<PartnerRecord> {
  const words = checkPassphrase(passphrase);
  if (typeof text !== 'string' || text.length > MAX_FILE_BYTES) throw damaged(name);
  return restoreFrom(engine, parseBackupText(text, name), words, name);
}

async function restoreFrom(engine: Engine, file: BackupFile, words: string, name: string): Promise<PartnerRecord> {
  const key = await deriveKey(words, file.kdf);
  if (unseal(key, file.check, aad('check', file.partner_name)) !== CHECK_PLAINTEXT) {
    throw new ServiceError('invalid_value', 'That passphrase does not open this backup. Type the passphrase chosen when the backup was made.');
  }
  const text = unseal(key, file.keys, aad('keys', file.partner_name));
  const content = text === undefined ? undefined : parseContent(text);
  if (!content) throw damaged(name);
  return engine.restorePartner(content);
}

function damaged(path: string): ServiceError {
  return new ServiceError('invalid_value', `${path} is damaged or is not a Proofdesk key backup; use another copy of the backup.`);
}

async function readBackupFile(path: string): Promise<BackupFile> {
  let text: string;
  try {
    const bytes = await readFile(path);
    if (bytes.length > MAX_FILE_BYTES) throw damaged(path);
    text = bytes.toString('utf8');
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    throw new ServiceError('invalid_value', `${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}): check the path.`);
  }
  return parseBackupText(text, path);
}

function parseBackupText(text: string, name: string): BackupFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw damaged(name);
  }
  if (!isBackupFile(data)) throw damaged(name);
  return data;
}

function isBackupFile(data: unknown): data is BackupFile {
  if (!isPlainObject(data) || data.format !== FORMAT || data.version !== VERSION || data.cipher !== 'aes-256-gcm') return false;
  if (typeof data.partner_name !== 'string') return false;
  const { kdf } = data;
  if (!isPlainObject(kdf) || kdf.name !== 'scrypt' || typeof kdf.salt !== 'string') return false;
  const { N, r, p } = kdf;
  if (!isInt(N, 2, MAX_SCRYPT.N) || (N & (N - 1)) !== 0 || !isInt(r, 1, MAX_SCRYPT.r) || !isInt(p, 1, MAX_SCRYPT.p)) return false;
  return isSealed(data.check) && isSealed(data.keys);
}

function parseContent(text: string): BackupContent | undefined {
  try {
    const data = JSON.parse(text) as unknown;
    if (!isPlainObject(data) || !isPlainObject(data.partner) || !isPlainObject(data.keys)) return undefined;
    const p = data.partner;
    const k = data.keys;
    const strings = [p.id, p.name, p.client_id, p.secret_hash, k.chainKey, k.signingKeyPkcs8, k.address, k.signingPublicKey];
    if (!strings.every((s) => typeof s === 'string' && s.length > 0)) return undefined;
    if (!isInt(p.issuing_interval_s, 1, Number.MAX_SAFE_INTEGER) || !isInt(p.created_date, 0, Number.MAX_SAFE_INTEGER)) return undefined;
    return data as unknown as BackupContent;
  } catch {
    return undefined;
  }
}

function isInt(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}
