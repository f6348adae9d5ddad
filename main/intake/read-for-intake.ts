/**
 * Reading a file for intake: one read serves its hash, its MIME sniff and its upload. Small
 * files are read whole (their bytes are what is hashed and sent); large ones are hashed as a
 * stream and sent from disk later, so memory per file stays bounded.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { SMALL_FILE_BYTES, hashChunks, sha256Hex } from '../files/hash-file.js';
import type { ByteGate } from './pool.js';

/** Files read and hashed at once. */
export const READ_CONCURRENCY = 16;
/** File bytes held in memory at most between their read and their upload; files beyond it go from disk. */
export const HELD_BYTES = 64 * 1024 * 1024;

export interface IntakeRead {
  path: string;
  sha256: string;
  size: number;
  /** The modification time seen before the read (epoch ms). */
  mtimeMs: number;
  /** The bytes that were hashed, for files up to SMALL_FILE_BYTES; absent for larger ones. */
  bytes: Buffer | undefined;
}

/**
 * Reads and hashes one file (rejects with the file system's error, e.g. ENOENT). Its bytes are
 * kept when it is small and `budget` (if any) has room for them now (a run of large files is
 * streamed instead of piling up in memory); release them once sent.
 */
export async function readForIntake(path: string, budget?: ByteGate): Promise<IntakeRead> {
  const info = await stat(path);
  if (info.size <= SMALL_FILE_BYTES && (budget?.tryAcquire(info.size) ?? true)) {
    const bytes = await readFile(path).catch((error: unknown) => {
      budget?.release(info.size);
      throw error;
    });
    budget?.release(info.size);
    if (bytes.length <= SMALL_FILE_BYTES && (budget?.tryAcquire(bytes.length) ?? true)) return { path, sha256: sha256Hex(bytes), size: bytes.length, mtimeMs: info.mtimeMs, bytes };
  }
  return { path, ...(await hashChunks(createReadStream(path))), mtimeMs: info.mtimeMs, bytes: undefined };
}
