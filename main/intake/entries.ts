/** What is at a path in a watched folder, and its content hash. */
import { closeSync, constants, createReadStream, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, type ReadStream, type Stats } from 'node:fs';
import { dirname, sep } from 'node:path';
import { SMALL_FILE_BYTES, hashChunks, sha256Hex } from '../files/hash-file.js';

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

export type EntryInfo =
  /** `at`: when the look was taken, if it was not just now (the watcher's, given with its event). */
  | { kind: 'file'; size: number; mtimeMs: number; ino: number; signature?: string; at?: number }
  | { kind: 'gone' }
  /** Something that is not taken: `link` when it is a link (never read, never moved). */
  | { kind: 'other'; reason: string; link?: boolean; signature?: string };

/** Why a link is refused (docs/intake.md: links are never followed). */
export const SYMLINK_REASON = 'A symbolic link: links are never followed, read or moved (only regular files inside the folder are taken)';
export const HARDLINK_REASON = 'A hard link (the file has another name, maybe outside the folder): only files with one name inside the folder are taken, and this one is never read or moved';
export const OUTSIDE_REASON = 'Its real path is outside the watched folder: it is never read or moved';

/** A file that may not be read or moved: a link, or something outside the folder. */
export class ContainmentError extends Error {
  constructor(
    message: string,
    readonly link = true,
  ) {
    super(message);
  }
}

/** A link's identity and state as lstat sees it (to tell the same link, unchanged, on a rescan). */
export function signatureOf(path: string): string | undefined {
  try {
    const info = lstatSync(path);
    return `${info.dev}:${info.ino}:${info.mtimeMs}:${info.nlink}`;
  } catch {
    return undefined;
  }
}

/** Checks a non-following look at an entry: a regular file with one name, or why it is refused. */
function classify(info: Stats): EntryInfo {
  const signature = `${info.dev}:${info.ino}:${info.mtimeMs}:${info.nlink}`;
  if (info.isSymbolicLink()) return { kind: 'other', reason: SYMLINK_REASON, link: true, signature };
  if (!info.isFile()) return { kind: 'other', reason: `Not a regular file (${kindOf(info)}): there is nothing to read` };
  if (info.nlink > 1) return { kind: 'other', reason: HARDLINK_REASON, link: true, signature };
  return { kind: 'file', size: info.size, mtimeMs: info.mtimeMs, ino: info.ino, signature };
}

/**
 * What is at a path: a regular file (size, mtime), nothing, or something that cannot be issued.
 * Never follows a link: a symbolic link (to anything, inside or outside) and a hard link are
 * refused as they are.
 */
export async function statEntry(path: string): Promise<EntryInfo> {
  try {
    // Synchronous, as the other looks at a file of the folder: one call on a local disk, where
    // the promise's trip through the thread pool costs several times as much, per file.
    return classify(lstatSync(path));
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'gone' };
    return { kind: 'other', reason: `The file cannot be read (${code})` };
  }
}

/** Whether `path` is `root` or inside it (both real paths). */
export function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** The real path of an open descriptor (Linux: /proc), else of the path it was opened by. */
function realPathOf(fd: number, path: string): string {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return realpathSync(path);
  }
}

/**
 * Opens a file of a watched folder for reading, only if it is a regular file with one name
 * whose real path is inside `realRoot`: checked with lstat just before, opened with O_NOFOLLOW
 * (a link swapped in meanwhile fails the open), and checked again on the open descriptor (the
 * same file as looked at, one name, its real path inside). Throws ContainmentError otherwise.
 * `seen`: the caller's own lstat of the path, taken just before (statEntry), used as that look.
 */
export function openContained(path: string, realRoot: string, seen?: EntryInfo): { fd: number; info: Stats } {
  // A caller that has just looked (statEntry) gives that look: the same check, one lstat less.
  const before = seen?.kind === 'file' ? seen : classify(lstatSync(path));
  if (before.kind !== 'file') throw new ContainmentError(before.kind === 'other' ? before.reason : 'gone', before.kind === 'other' && before.link === true);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if (errorCode(error) === 'ELOOP') throw new ContainmentError(SYMLINK_REASON);
    throw error;
  }
  try {
    const info = fstatSync(fd);
    const after = classify(info);
    if (after.kind !== 'file' || info.ino !== before.ino) throw new ContainmentError(after.kind === 'other' ? after.reason : SYMLINK_REASON);
    if (!isInside(realRoot, realPathOf(fd, path))) throw new ContainmentError(OUTSIDE_REASON);
    return { fd, info };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** Reads a whole open file. */
async function readAll(fd: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of createReadStream('', { fd, autoClose: false, highWaterMark: 1024 * 1024 })) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Reads an open file of `size` bytes (its fstat, just taken) synchronously, as readFileSync
 * does — up to that size, fewer if it shrank — without the fstat readFileSync makes again.
 */
export function readSized(fd: number, size: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  while (at < size) {
    const n = readSync(fd, bytes, at, size - at, at);
    if (n === 0) break;
    at += n;
  }
  return at === size ? bytes : bytes.subarray(0, at);
}

/**
 * SHA-256 of a file of a watched folder, lowercase hex, read through openContained. A small
 * file is read whole and its bytes returned (they are uploaded as they were hashed); a tiny
 * one synchronously. Size and modification time are read from the same descriptor after the
 * read (`after: false`: not wanted, not read). A large file is streamed. `seen`: the caller's
 * lstat of the path just taken (see openContained).
 */
export async function hashContained(
  path: string,
  size: number,
  realRoot: string,
  options: { seen?: EntryInfo; after?: boolean } = {},
): Promise<{ sha256: string; bytes: Buffer | undefined; after: EntryInfo | undefined }> {
  const { fd, info: opened } = openContained(path, realRoot, options.seen);
  try {
    let bytes: Buffer | undefined;
    if (size <= TINY_FILE && opened.size <= TINY_FILE) bytes = readSized(fd, opened.size);
    else if (size <= SMALL_FILE_BYTES) bytes = await readAll(fd);
    const sha256 = bytes ? sha256Hex(bytes) : (await hashChunks(createReadStream('', { fd, autoClose: false, highWaterMark: 1024 * 1024 }))).sha256;
    if (options.after === false) return { sha256, bytes, after: undefined };
    const info = fstatSync(fd);
    return { sha256, bytes, after: { kind: 'file', size: info.size, mtimeMs: info.mtimeMs, ino: info.ino } };
  } finally {
    closeSync(fd);
  }
}

/** A stream of a file's bytes, opened through openContained (destroy it if it is not read to the end). */
export function streamContained(path: string, realRoot: string): ReadStream {
  const { fd } = openContained(path, realRoot);
  return createReadStream('', { fd, autoClose: true, highWaterMark: 1024 * 1024 });
}

/** A file's bytes, read whole through openContained. */
export async function readContained(path: string, realRoot: string): Promise<Buffer> {
  const { fd } = openContained(path, realRoot);
  try {
    return await readAll(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * A folder's real path. On Linux realpath(3) in one call, the same answer as the JavaScript
 * realpathSync, which looks at each folder of the path in turn; elsewhere the latter, as the
 * folder's realRoot was made with (case and drive letters spelled alike).
 */
const folderRealPath: (path: string) => string = process.platform === 'linux' ? (path) => realpathSync.native(path) : (path) => realpathSync(path);

/**
 * Checks that a file of a watched folder may be moved: a regular file with one name, in a
 * folder whose real path is inside `realRoot` (so a folder swapped for a link is not followed).
 * Returns false when it is gone; throws ContainmentError when it may not be moved. `seen`: the
 * caller's lstat of the path, just taken (statEntry), used as this look.
 */
export function checkMovable(path: string, realRoot: string, seen?: EntryInfo): boolean {
  let entry: EntryInfo;
  if (seen?.kind === 'file') entry = seen; // the caller's lstat, just taken: not taken twice
  else {
    let info: Stats;
    try {
      info = lstatSync(path);
    } catch (error) {
      if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return false;
      throw error;
    }
    entry = classify(info);
  }
  // Pipes and sockets inside the folder move like files: a rename moves only the entry.
  if (entry.kind === 'other' && entry.link) throw new ContainmentError(entry.reason);
  if (!isInside(realRoot, folderRealPath(dirname(path)))) throw new ContainmentError(OUTSIDE_REASON);
  return true;
}
