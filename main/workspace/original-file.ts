/**
 * "Open the original file" of the detail panel. The engine keeps files by hash, without names;
 * the one path it knows is the watch folder's (metadata `ingest.path`, relative to the watched
 * folder, with its sha256). The desktop app opens that file where it is, after checking it is a
 * file this credential names and that its content still has that hash; the browser bridge hands
 * over the engine's stored copy instead (re-hashed too).
 */
import { lstat } from 'node:fs/promises';
import { buffer } from 'node:stream/consumers';
import { basename, extname, isAbsolute, relative, resolve } from 'node:path';
import { ServiceError } from '../../common/errors.js';
import { fileOfCredential, type PartnerScope } from '../engine/index.js';
import { DONE_DIR } from '../intake/names.js';
import { originalPathOf } from './original-paths.js';
import { hashFile, sha256Hex } from '../files/hash-file.js';

/** The largest stored original the browser bridge hands over in one answer. */
export const MAX_DOWNLOAD_BYTES = 64 * 1024 * 1024;

/** `rel` inside `root`, or null when it would leave it (`..`, an absolute path). */
function inside(root: string, rel: string): string | null {
  if (isAbsolute(rel)) return null;
  const path = resolve(root, rel);
  const back = relative(resolve(root), path);
  return back === '' || back.startsWith('..') || isAbsolute(back) ? null : path;
}

/**
 * Where the original of file `hash` of credential `uid` is on this computer: the watch folder's
 * path under one of `roots` (where it was taken, or in `done/` after issuing), a regular file
 * (never a link) whose content still has the hash. Null when no path is known (the file was
 * not taken from a watch folder: drag-in, CSV import and the API keep none). Otherwise a
 * missing_file error whose sentence says why: gone, or changed since.
 */
export async function findOriginalOnDisk(scope: PartnerScope, uid: string, hash: string, roots: readonly string[]): Promise<string | null> {
  const file = fileOfCredential(scope, uid, hash);
  if (!file.ingestPath) return findDroppedOriginal(scope, uid, hash, file.title);
  const rel = file.ingestPath;
  const candidates = roots.flatMap((root) => [inside(root, rel), inside(root, `${DONE_DIR}/${rel}`)]).filter((p): p is string => p !== null);
  let changed: string | null = null;
  for (const path of candidates) {
    const info = await lstat(path).catch(() => null);
    if (!info?.isFile()) continue;
    if ((await hashFile(path)).sha256 === hash.toLowerCase()) return path;
    changed = path;
  }
  if (changed) {
    throw new ServiceError('missing_file', `${changed} has changed since “${file.title}” was created from it: its content no longer matches the credential, so it was not opened.`);
  }
  throw new ServiceError('missing_file', `The original of “${file.title}” (${rel}) is no longer in any watch folder on this computer; it may have been moved or deleted.`);
}

/**
 * The file as it was dropped on the desktop app (original-paths.ts), when it is still there: a
 * regular file (never a link) whose content still has the hash. Null when no path was recorded
 * (the browser bridge, CSV import, the API); a missing_file sentence when it is gone or changed.
 */
async function findDroppedOriginal(scope: PartnerScope, uid: string, hash: string, title: string): Promise<string | null> {
  const path = originalPathOf(scope.issuing.ctx.dataDir, uid, hash);
  if (!path) return null;
  const info = await lstat(path).catch(() => null);
  if (!info?.isFile()) throw new ServiceError('missing_file', `The original of “${title}” is no longer at ${path}; it may have been moved or deleted.`);
  if ((await hashFile(path)).sha256 !== hash.toLowerCase()) {
    throw new ServiceError('missing_file', `${path} has changed since “${title}” was created from it: its content no longer matches the credential, so it was not opened.`);
  }
  return path;
}

/** The engine's stored copy of file `hash` of credential `uid`, re-hashed, with a name to save it under. */
export async function readStoredOriginal(scope: PartnerScope, uid: string, hash: string): Promise<{ fileName: string; type: string | null; bytes: Buffer }> {
  const file = fileOfCredential(scope, uid, hash);
  const stored = hash.toLowerCase();
  const size = scope.store.sizeOf(stored);
  if (size === undefined) throw new ServiceError('missing_file', `The stored copy of the file of “${file.title}” is missing from the engine's store; upload the file again.`);
  if (size > MAX_DOWNLOAD_BYTES) throw new ServiceError('payload_too_large', `The file of “${file.title}” is over ${MAX_DOWNLOAD_BYTES / 1024 / 1024} MB; open it from the desktop app instead.`);
  const bytes = await buffer(scope.store.read(stored));
  if (sha256Hex(bytes) !== hash.toLowerCase()) {
    throw new ServiceError('internal_error', `The stored copy of the file of “${file.title}” is damaged (its content no longer has its hash); restore the data directory from a backup.`);
  }
  return { fileName: file.ingestPath ? basename(file.ingestPath) : nameFromTitle(file.title, file.type), type: file.type, bytes };
}

const EXTENSIONS: Record<string, string> = { 'application/pdf': '.pdf', 'image/png': '.png', 'image/jpeg': '.jpg', 'text/plain': '.txt', 'application/json': '.json' };

function nameFromTitle(title: string, type: string | null): string {
  const safe = title.replace(/[^\p{L}\p{N} ._-]+/gu, '_').replace(/^[.\s]+/, '').trim().slice(0, 100) || 'original';
  const ext = (type && EXTENSIONS[type]) ?? '';
  return extname(safe).toLowerCase() === ext ? safe : `${safe}${ext}`;
}
