/** What is at a path in a watched folder, and its content hash. */
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, fstatSync, openSync, readFileSync } from 'node:fs';
import { lstat, readFile, stat } from 'node:fs/promises';
import { sep } from 'node:path';

const SMALL_FILE = 4 * 1024 * 1024;
const TINY_FILE = 256 * 1024;

export function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message ?? String(error);
}

export function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** Describes what a non-regular directory entry is. */
export function kindOf(info: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isDirectory(): boolean }): string {
  if (info.isFIFO()) return 'a named pipe';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isDirectory()) return 'a folder';
  return 'not a regular file';
}

export type EntryInfo = { kind: 'file'; size: number; mtimeMs: number } | { kind: 'gone' } | { kind: 'other'; reason: string };

/** What is at a path: a regular file (size, mtime), nothing, or something that cannot be issued. */
export async function statEntry(path: string): Promise<EntryInfo> {
  try {
    const info = await stat(path);
    if (info.isFile()) return { kind: 'file', size: info.size, mtimeMs: info.mtimeMs };
    return { kind: 'other', reason: `Not a regular file (${kindOf(info)}): there is nothing to read` };
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') {
      // A link to nothing is still there; a file deleted is not.
      const link = await lstat(path).catch(() => undefined);
      return link ? { kind: 'other', reason: 'The file cannot be read (a link to a file that does not exist)' } : { kind: 'gone' };
    }
    return { kind: 'other', reason: `The file cannot be read (${code})` };
  }
}

/**
 * SHA-256 of a file, lowercase hex. A small file is read whole and its bytes returned (they are
 * uploaded as they were hashed); a tiny one synchronously, with its size and modification time
 * read from the same descriptor after the read — cheaper for the event loop than four
 * fs/promises round trips. A large file is streamed.
 */
export async function hashFile(path: string, size: number): Promise<{ sha256: string; bytes: Buffer | undefined; after: EntryInfo | undefined }> {
  const hash = createHash('sha256');
  if (size <= TINY_FILE) {
    const fd = openSync(path, 'r');
    try {
      const bytes = readFileSync(fd);
      const info = fstatSync(fd);
      return { sha256: hash.update(bytes).digest('hex'), bytes, after: { kind: 'file', size: info.size, mtimeMs: info.mtimeMs } };
    } finally {
      closeSync(fd);
    }
  }
  if (size <= SMALL_FILE) {
    const bytes = await readFile(path);
    return { sha256: hash.update(bytes).digest('hex'), bytes, after: undefined };
  }
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return { sha256: hash.digest('hex'), bytes: undefined, after: undefined };
}
